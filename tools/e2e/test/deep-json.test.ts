/**
 * JSON nested past mcpx's limit (MAX_NESTING_DEPTH, 512 levels) is refused as it is decoded: a
 * client's request gets -32602 with its id, naming the limit, and the next request is served as
 * usual; an upstream's answer that deep fails its request with the reason (not at its timeout).
 * Before, such a frame reached JSON.stringify on the way out, which recurses: -32603 "Maximum call
 * stack size exceeded", or worse.
 */
import { PassThrough } from "node:stream";
import { UpstreamClient } from "@mcpx/client";
import { MAX_NESTING_DEPTH, silentLogger } from "@mcpx/core";
import { type Gateway, StdioServer, startHttpServer } from "@mcpx/gateway";
import { httpScript, NO_ANSWER, ScriptedServer } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import {
  afterThisTest,
  scriptedGateway,
  settings,
  TOOLS,
  testHost,
  type UpstreamSpec,
} from "../src/index.js";
import { legacySession, mirrored, modernMeta, post } from "./gateway-http.helpers.js";

const DEPTH = 5000;

/** `{"a":{"a":…{}…}}`, `levels` deep, written out (JSON.stringify itself would overflow). */
const deep = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${"}".repeat(levels - 1)}`;

/** A tools/call whose arguments are `levels` deep, as text. */
function deepCall(id: number, levels: number, meta?: object): string {
  const metaText = meta ? `,"_meta":${JSON.stringify(meta)}` : "";
  return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"a__echo","arguments":${deep(levels)}${metaText}}}`;
}

const REFUSAL = new RegExp(`nested \\d+ levels deep, over mcpx's limit of ${MAX_NESTING_DEPTH}`);

async function gatewayWith(specs: UpstreamSpec[]) {
  const g = await scriptedGateway(specs);
  const http = await startHttpServer(g.gateway, { port: 0, keepAliveMs: 0 });
  afterThisTest(() => http.close());
  return { ...g, url: http.url };
}

/** `mcpx stdio` in process, written raw: lines in, responses out by id. */
function rawStdio(gateway: Gateway) {
  const input = new PassThrough();
  const output = new PassThrough();
  const server = new StdioServer(gateway, { input, output, log: silentLogger });
  server.start();
  afterThisTest(() => server.close());
  const seen: { id?: unknown; result?: unknown; error?: { code: number; message: string } }[] = [];
  let buffer = "";
  output.setEncoding("utf8");
  output.on("data", (chunk: string) => {
    buffer += chunk;
    for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
      seen.push(JSON.parse(buffer.slice(0, nl)));
      buffer = buffer.slice(nl + 1);
    }
  });
  return {
    write: (line: string) => input.write(`${line}\n`),
    async response(id: number) {
      for (let i = 0; i < 500; i++) {
        const found = seen.find((m) => m.id === id);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`no response ${id}`);
    },
  };
}

describe("JSON nesting", () => {
  it("jsonrpc/deep-params-refused-naming-the-limit", async () => {
    const { gateway, url } = await gatewayWith([{ name: "a", versions: ["2025-06-18"], tools: TOOLS }]);
    const ok = { content: [{ type: "text", text: '{"text":"hi"}' }] };

    // HTTP, a 2026-07-28 client
    const modern = await post(url, deepCall(41, DEPTH, modernMeta), mirrored("tools/call", "a__echo"));
    expect(modern.status).toBe(400);
    const refused = (await modern.json()) as { id?: number; error: { code: number; message: string } };
    expect(refused.id).toBe(41);
    expect(refused.error.code).toBe(-32602);
    expect(refused.error.message).toMatch(REFUSAL);
    const next = await post(
      url,
      {
        jsonrpc: "2.0",
        id: 42,
        method: "tools/call",
        params: { name: "a__echo", arguments: { text: "hi" }, _meta: modernMeta },
      },
      mirrored("tools/call", "a__echo"),
    );
    expect(((await next.json()) as { result: unknown }).result).toMatchObject(ok);

    // HTTP, a 2025-11-25 client in its session
    const s = await legacySession(url, "2025-11-25");
    const legacy = await post(url, deepCall(51, DEPTH), s.headers);
    expect(legacy.status).toBe(400);
    const legacyBody = (await legacy.json()) as { id?: number; error: { code: number; message: string } };
    expect(legacyBody).toMatchObject({ id: 51, error: { code: -32602 } });
    expect(legacyBody.error.message).toMatch(REFUSAL);
    expect(
      (await s.request("tools/call", { name: "a__echo", arguments: { text: "hi" } })).body.result,
    ).toEqual(ok);

    // stdio, a 2025-06-18 client
    const c = rawStdio(gateway);
    c.write(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    );
    await c.response(1);
    c.write('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    c.write(deepCall(61, DEPTH));
    const stdio = await c.response(61);
    expect(stdio.error?.code).toBe(-32602);
    expect(stdio.error?.message).toMatch(REFUSAL);
    c.write(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 62,
        method: "tools/call",
        params: { name: "a__echo", arguments: { text: "hi" } },
      }),
    );
    expect((await c.response(62)).result).toEqual(ok);
  });

  it("jsonrpc/deep-upstream-answer-fails-its-request", async () => {
    // over stdio: the upstream writes its answer as a raw line
    const { gateway, scripts, url } = await gatewayWith([
      { name: "a", versions: ["2025-06-18"], tools: TOOLS },
    ]);
    let deepAnswers = 1;
    scripts.a!.server.on("tools/call", (req) => {
      if (deepAnswers-- <= 0) return { content: [{ type: "text", text: "shallow" }] };
      scripts.a!.sendRaw(
        `{"jsonrpc":"2.0","id":${JSON.stringify(req.id)},"result":{"content":${deep(DEPTH)}}}`,
      );
      return NO_ANSWER;
    });
    const s = await legacySession(url, "2025-11-25");
    const failed = await s.request("tools/call", { name: "a__echo", arguments: { text: "hi" } });
    const error = failed.body.error as { code: number; message: string };
    expect(error.code).toBe(-32603);
    // the reason, not a timeout
    expect(error.message).toMatch(
      /^result of the answer to request \S+ nested \d+ levels deep, over mcpx's limit of 512/,
    );
    // the connection lives on
    const next = await s.request("tools/call", { name: "a__echo", arguments: { text: "hi" } });
    expect(next.body.result).toEqual({ content: [{ type: "text", text: "shallow" }] });
    expect(gateway.pool.states()[0]?.status).toBe("connected");

    // over Streamable HTTP, to @mcpx/client itself: the answer's JSON body
    const up = await httpScript(new ScriptedServer({ versions: ["2026-07-28"], tools: TOOLS }));
    afterThisTest(() => up.close());
    up.rawAnswer((r) => r.frames.some((f) => f.method === "tools/call"), {
      status: 200,
      contentType: "application/json",
      body: (frames) =>
        `{"jsonrpc":"2.0","id":${JSON.stringify(frames[0]?.id)},"result":{"content":${deep(DEPTH)}}}`,
    });
    const host = await testHost();
    const client = await UpstreamClient.connect({
      target: { name: "h", url: up.url },
      env: host,
      settings: settings(),
    });
    afterThisTest(() => client.close());
    const err = (await client.callTool("echo", { text: "hi" }).catch((e: unknown) => e)) as Error & {
      code: number;
    };
    expect(err.code).toBe(-32603);
    expect(err.message).toMatch(
      /^result of the answer to request \S+ nested \d+ levels deep, over mcpx's limit of 512/,
    );
    expect((await client.callTool("echo", { text: "hi" })).content).toBeDefined();
  });
});
