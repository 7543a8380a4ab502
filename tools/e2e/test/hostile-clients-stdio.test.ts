/**
 * `mcpx stdio` against a hostile client on its stdin: lines that are not JSON-RPC, requests before
 * initialize, initialize twice, responses to requests mcpx never sent, floods of
 * notifications/cancelled for ids nobody knows, and methods named like Object.prototype's members.
 * Each gets its error (or, for what needs no answer, nothing), and the session goes on.
 * (An oversized line is hostile-frames.test.ts; deep JSON is deep-json.test.ts.)
 */
import { PassThrough } from "node:stream";
import { type JSONObject, MetaKey, silentLogger } from "@mcpx/core";
import { type Gateway, StdioServer } from "@mcpx/gateway";
import type { Handler } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { afterThisTest, scriptedGateway, until } from "../src/index.js";
import { echo } from "./gateway-http.helpers.js";

type Frame = JSONObject & { id?: unknown; method?: string; error?: { code: number; message: string } };

/** mcpx stdio on in-process pipes: raw lines in, every frame it writes out. */
function rawStdio(gateway: Gateway) {
  const input = new PassThrough();
  const output = new PassThrough();
  const server = new StdioServer(gateway, { input, output, log: silentLogger });
  server.start();
  afterThisTest(async () => {
    input.end();
    await server.close();
  });
  const frames: Frame[] = [];
  let buffer = "";
  output.setEncoding("utf8");
  output.on("data", (chunk: string) => {
    buffer += chunk;
    for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
      frames.push(JSON.parse(buffer.slice(0, nl)) as Frame);
      buffer = buffer.slice(nl + 1);
    }
  });
  return {
    frames,
    line: (text: string) => input.write(`${text}\n`),
    send: (msg: JSONObject) => input.write(`${JSON.stringify({ jsonrpc: "2.0", ...msg })}\n`),
    /** The frames written since `from`, once there are `n` of them. */
    async after(from: number, n: number): Promise<Frame[]> {
      await until(() => frames.length >= from + n, 5000);
      return frames.slice(from, from + n);
    },
  };
}

const init = (id: string | number, version = "2025-06-18") => ({
  id,
  method: "initialize",
  params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "hostile", version: "1" } },
});
const a = { name: "a", versions: ["2025-06-18"], tools: [echo] };

describe("hostile clients: mcpx stdio", () => {
  it("hostile-client/stdio-garbage-lines-answered-and-the-session-goes-on", async () => {
    const { gateway } = await scriptedGateway([a]);
    const c = rawStdio(gateway);
    const garbage: [string, number, string][] = [
      ["not json at all", -32700, "frame is not valid JSON"],
      ['{"jsonrpc":"2.0","id":1,"method":"ping"', -32700, "frame is not valid JSON"],
      ['"a string"', -32600, "is not a JSON object"],
      ["[]", -32600, "batch is an empty array"],
      ['[1,{"jsonrpc":"2.0","id":2,"method":"ping"}]', -32600, "batch element 0 is not a JSON object"],
      ['{"jsonrpc":"1.0","id":3,"method":"ping"}', -32600, '"jsonrpc" must be "2.0"'],
      ['{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}', -32600, '"id" of ping must be a string or a number'],
      ['{"jsonrpc":"2.0","id":true,"method":"ping"}', -32600, "(got boolean true)"],
      ['{"jsonrpc":"2.0","id":4,"method":"ping","params":[1]}', -32600, '"params" of ping must be an object'],
      ['{"jsonrpc":"2.0","id":5}', -32600, 'exactly one of "result" or "error"'],
    ];
    for (const [line, code, named] of garbage) {
      const from = c.frames.length;
      c.line(line);
      const [answer] = await c.after(from, 1);
      expect(answer, line).toMatchObject({ jsonrpc: "2.0", id: null, error: { code } });
      expect(answer?.error?.message).toContain(named);
    }
    // blank lines and whitespace are no messages at all
    const from = c.frames.length;
    c.line("");
    c.line("   \t ");
    // lone surrogates and NULs are data: the id comes back as it was sent
    c.line('{"jsonrpc":"2.0","id":"\\ud800\\u0000","method":"ping"}');
    const [pong] = await c.after(from, 1);
    expect(pong).toEqual({ jsonrpc: "2.0", id: "\ud800\u0000", result: {} });
    // and the client can still start its session
    const next = c.frames.length;
    c.send(init(10));
    expect((await c.after(next, 1))[0]).toMatchObject({ id: 10, result: { protocolVersion: "2025-06-18" } });
  });

  it("hostile-client/stdio-requests-before-initialize-and-initialize-twice-refused", async () => {
    const { gateway } = await scriptedGateway([a]);
    const c = rawStdio(gateway);
    // notifications/initialized before initialize means nothing; ping is answered; the rest refused
    c.send({ method: "notifications/initialized" });
    c.send({ id: 1, method: "tools/list" });
    c.send({ id: 2, method: "ping" });
    c.send({ id: 3, method: "tools/call", params: { name: "a__echo", arguments: {} } });
    const before = await c.after(0, 3);
    expect(before).toContainEqual({ jsonrpc: "2.0", id: 2, result: {} });
    for (const [id, method] of [
      [1, "tools/list"],
      [3, "tools/call"],
    ] as const) {
      const refused = before.find((f) => f.id === id);
      expect(refused?.error).toMatchObject({ code: -32600 });
      expect(refused?.error?.message).toContain(`${method} before initialize`);
    }
    expect(gateway.peers).toEqual([]);
    c.send(init(4, "2025-06-18"));
    expect((await c.after(3, 1))[0]).toMatchObject({ id: 4, result: { protocolVersion: "2025-06-18" } });
    c.send({ method: "notifications/initialized" });
    // a second initialize, offering another version: refused, and the first one stands
    c.send(init(5, "2025-11-25"));
    expect((await c.after(4, 1))[0]).toMatchObject({
      id: 5,
      error: { code: -32600, message: "already initialized" },
    });
    expect(gateway.peers).toHaveLength(1);
    expect(gateway.peers[0]?.revision?.version).toBe("2025-06-18");
    c.send({ id: 6, method: "tools/call", params: { name: "a__echo", arguments: { text: "ok" } } });
    expect((await c.after(5, 1))[0]).toMatchObject({
      id: 6,
      result: { content: [{ text: '{"text":"ok"}' }] },
    });
  });

  it("hostile-client/stdio-responses-to-nothing-and-cancel-floods-change-nothing", async () => {
    let release = () => {};
    const released = new Promise<void>((r) => {
      release = r;
    });
    const slow: Handler = async (req) => {
      const text = String(((req.params as JSONObject).arguments as JSONObject).text);
      if (text === "slow") await released;
      return { content: [{ type: "text", text }] };
    };
    const { gateway, scripted } = await scriptedGateway([{ ...a, handlers: { "tools/call": slow } }]);
    const c = rawStdio(gateway);
    c.send(init(1));
    await c.after(0, 1);
    c.send({ method: "notifications/initialized" });
    // a call in flight, which no forged cancellation may touch
    c.send({ id: "slow", method: "tools/call", params: { name: "a__echo", arguments: { text: "slow" } } });
    await scripted.a!.waitForMethod("tools/call");
    // responses to requests mcpx never sent, of every shape
    for (const id of [1, 0, -1, "slow", "mcpx-1", 1e300]) {
      c.send({ id, result: {} });
      c.send({ id, error: { code: -32603, message: "forged" } });
    }
    c.send({ id: null, error: { code: -32700, message: "forged parse error" } });
    // a flood of cancellations for ids nobody knows, and of ids that are not ids
    for (let i = 0; i < 5000; i++)
      c.send({ method: "notifications/cancelled", params: { requestId: `nobody-${i}` } });
    for (const requestId of [{}, [], null, true, -0.5, "__proto__", "constructor"]) {
      c.send({ method: "notifications/cancelled", params: { requestId } });
    }
    c.send({ method: "notifications/cancelled" });
    c.send({ method: "notifications/cancelled", params: { requestId: "slow", reason: 42 } as JSONObject });
    // ... the last one names the call in flight: cancelled, it gets no answer; but first a ping
    c.send({ id: "after", method: "ping" });
    const [pong] = await c.after(1, 1);
    expect(pong).toEqual({ jsonrpc: "2.0", id: "after", result: {} });
    release();
    c.send({ id: "next", method: "tools/call", params: { name: "a__echo", arguments: { text: "next" } } });
    const [next] = await c.after(2, 1);
    expect(next).toMatchObject({ id: "next", result: { content: [{ text: "next" }] } });
    // nothing else was written: no answer to a response, to a notification, or to the cancelled call
    expect(c.frames.map((f) => f.id ?? f.method)).toEqual([1, "after", "next"]);
    expect(scripted.a!.frames("notifications/cancelled")).toHaveLength(1);
  });

  it("hostile-client/stdio-methods-named-like-object-prototype-members-are-not-found", async () => {
    const { gateway, scripted } = await scriptedGateway([a]);
    const names = ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"];
    // a 2026-07-28 client, request by request
    const modern = rawStdio(gateway);
    const meta = { [MetaKey.protocolVersion]: "2026-07-28", [MetaKey.clientCapabilities]: {} };
    for (const [i, method] of names.entries()) modern.send({ id: i, method, params: { _meta: meta } });
    for (const answer of await modern.after(0, names.length)) {
      expect(answer.error).toEqual({
        code: -32601,
        message: `Method not found: ${names[Number(answer.id)]}`,
      });
    }
    // a legacy client after initialize
    const legacy = rawStdio(gateway);
    legacy.send(init(0));
    await legacy.after(0, 1);
    legacy.send({ method: "notifications/initialized" });
    for (const [i, method] of names.entries()) legacy.send({ id: i + 1, method });
    for (const answer of await legacy.after(1, names.length)) {
      expect(answer.error).toMatchObject({
        code: -32601,
        message: `Method not found: ${names[Number(answer.id) - 1]}`,
      });
    }
    // none went upstream as a list request
    const sent = scripted.a!.frames().map((f) => f.method);
    for (const method of names) expect(sent).not.toContain(method);
    expect(sent.filter((m) => m === undefined)).toEqual([]);
    legacy.send({ id: 99, method: "tools/call", params: { name: "a__echo", arguments: { text: "ok" } } });
    expect((await legacy.after(1 + names.length, 1))[0]).toMatchObject({ id: 99, result: {} });
  });
});
