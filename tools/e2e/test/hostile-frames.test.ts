/**
 * Upstreams (and a downstream stdio client) that send frames larger than mcpx takes: over stdio, a
 * Streamable HTTP JSON body or SSE event, an HTTP+SSE event. The request the frame answers fails with
 * FrameTooLargeError naming upstream.maxFrameBytes, the bytes are dropped as they come, and the
 * connection (or, for `mcpx stdio`, the server) is usable afterwards; the standalone GET stream, which
 * no request waits on, is reopened. A huge answer on one stdio upstream does not hold up the calls of
 * another.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { UpstreamClient, type UpstreamClientOptions } from "@mcpx/client";
import { FrameTooLargeError, type JSONRPCMessage, LineFramer } from "@mcpx/core";
import { serveStdio } from "@mcpx/daemon";
import { describe, expect, it } from "vitest";
import { afterThisTest, httpCase, settings, sseCase, testHost } from "../src/index.js";

const MiB = 1024 * 1024;
const BIG_ANSWER_SERVER = fileURLToPath(new URL("../fixtures/big-answer-server.mjs", import.meta.url));
const text = (t: string) => ({ content: [{ type: "text", text: t }] });
const echo = { name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } };
/** A tool whose answer is `size` bytes of text. */
const hugeAnswer = (size: number) => ({
  versions: ["2025-06-18"],
  tools: [echo],
  handlers: {
    "tools/call": (req: { params?: Record<string, unknown> }) => {
      const args = (req.params?.arguments ?? {}) as { text?: string };
      return (req.params?.name === "huge" ? text("x".repeat(size)) : text(args.text ?? "")) as never;
    },
  },
});

/** mcpx connected to the big-answer server over stdio (2025-06-18, pinned: no probe). */
async function bigAnswerUpstream(name: string, extra: Partial<UpstreamClientOptions> = {}) {
  const host = await testHost();
  const client = await UpstreamClient.connect({
    target: { name, command: process.execPath, args: [BIG_ANSWER_SERVER] },
    env: host,
    revision: "2025-06-18",
    settings: settings(),
    ...extra,
  });
  afterThisTest(() => client.close());
  return client;
}

function expectTooLarge(err: unknown, upstream: string, limit: string): void {
  expect(err).toBeInstanceOf(FrameTooLargeError);
  const message = (err as Error).message;
  expect(message).toContain(`upstream ${upstream} sent`);
  expect(message).toContain(`over upstream.maxFrameBytes (${limit})`);
}

describe("frames over the limit", () => {
  it("stdio/huge-answer-fails-naming-the-limit", async () => {
    const client = await bigAnswerUpstream("big", { settings: settings({ maxFrameBytes: MiB }) });
    // the id at the head of the line (most servers) and at its tail (the official TypeScript SDK)
    for (const idAt of ["head", "tail"]) {
      const err = await client.callTool("big", { bytes: 3 * MiB, idAt }).catch((e) => e);
      expectTooLarge(err, "big", "1 MiB");
      expect(err.message).toMatch(/a frame of 3\.0 MiB/);
      // the same connection answers the next call
      expect(await client.callTool("echo", { text: `after ${idAt}` })).toEqual(text(`after ${idAt}`));
    }
    expect(client.closed).toBe(false);
  });

  it("stdio/huge-frame-naming-no-request-closes-the-connection", async () => {
    const client = await bigAnswerUpstream("big", { settings: settings({ maxFrameBytes: MiB }) });
    const closed = new Promise<Error | undefined>((r) => client.onClose(r));
    // the 3 MiB answer's id is in its dropped middle: nothing says which request it answered
    const err = await client.callTool("big", { bytes: 3 * MiB, idAt: "none" }).catch((e) => e);
    expectTooLarge(err, "big", "1 MiB");
    expect(await closed).toBe(err);
  });

  it("stdio/huge-answer-does-not-hold-up-other-upstreams", async () => {
    // Each call has its request timeout (8 s): the bound the upstream's answer and the other
    // upstream's calls must keep. Splitting lines by rescanning a growing string took ~18 s here.
    const timeouts = settings({ requestTimeout: 8000 });
    const big = await bigAnswerUpstream("big", { settings: timeouts });
    const other = await bigAnswerUpstream("other", { settings: timeouts });
    let settled = false;
    const answer = big
      .callTool("big", { bytes: 20 * MiB })
      .then(
        (result) => ({ result }),
        (error: Error) => ({ error }),
      )
      .finally(() => {
        settled = true;
      });
    const calls: Promise<unknown>[] = [];
    // calls to the other upstream while the 20 MiB line streams in, each answered correctly
    for (let i = 0; !settled; i++) {
      const call = other.callTool("echo", { text: `call ${i}` });
      calls.push(call);
      expect(await call).toEqual(text(`call ${i}`));
    }
    expect(calls.length).toBeGreaterThan(0);
    const outcome = await answer;
    expect(outcome).not.toHaveProperty("error");
    const { content } = (outcome as { result: { content: { text: string }[] } }).result;
    expect(content[0]?.text.length).toBe(20 * MiB);
  });

  it("streamable-http/huge-json-body-fails-naming-the-limit", async () => {
    const c = await httpCase(hugeAnswer(3 * MiB), { answer: "json" });
    const client = await c.connect({
      revision: "2025-06-18",
      target: { name: "web" },
      settings: settings({ maxFrameBytes: MiB }),
    });
    // streamed: read up to the limit, then no further
    const err = await client.callTool("huge", {}).catch((e) => e);
    expectTooLarge(err, "web", "1 MiB");
    expect(err.message).toContain("a JSON body of more than 1 MiB");
    expect(await client.callTool("echo", { text: "after" })).toEqual(text("after"));
    // declared: refused on its Content-Length, before reading
    const size = 2 * MiB;
    // the answer to the call, padded to `size` bytes whatever the length of its id
    const body = (frames: { id?: unknown }[]) => {
      const start = `{"jsonrpc":"2.0","id":${JSON.stringify(frames[0]?.id)},"result":{"content":[{"type":"text","text":"`;
      const end = '"}]}}';
      return `${start}${"z".repeat(size - start.length - end.length)}${end}`;
    };
    c.script.rawAnswer((r) => r.frames[0]?.method === "tools/call", {
      status: 200,
      contentType: "application/json",
      headers: { "Content-Length": String(size) },
      body,
    });
    const declared = await client.callTool("echo", { text: "declared" }).catch((e) => e);
    expectTooLarge(declared, "web", "1 MiB");
    expect(declared.message).toContain("a JSON body of 2 MiB,");
    expect(await client.callTool("echo", { text: "after" })).toEqual(text("after"));
    expect(c.server.failures).toEqual([]);
  });

  it("streamable-http/huge-sse-event-fails-naming-the-limit", async () => {
    const c = await httpCase(hugeAnswer(3 * MiB), { answer: "sse" });
    const client = await c.connect({
      revision: "2025-06-18",
      target: { name: "web" },
      settings: settings({ maxFrameBytes: MiB }),
    });
    const err = await client.callTool("huge", {}).catch((e) => e);
    expectTooLarge(err, "web", "1 MiB");
    expect(err.message).toContain("an SSE event of more than 1 MiB");
    expect(await client.callTool("echo", { text: "after" })).toEqual(text("after"));
    expect(c.server.failures).toEqual([]);
  });

  it("streamable-http/huge-event-on-the-get-stream-dropped-and-the-stream-reopened", async () => {
    const c = await httpCase({ versions: ["2025-06-18"], tools: [echo] });
    const client = await c.connect({
      revision: "2025-06-18",
      settings: settings({ maxFrameBytes: MiB, sseReconnectDelay: 20 }),
    });
    const heard: string[] = [];
    client.onNotification("notifications/message", (_p, m) => heard.push(m));
    client.onNotification("notifications/tools/list_changed", (_p, m) => heard.push(m));
    await c.script.getStreamConnected();
    c.server.notify("notifications/message", { level: "info", data: "x".repeat(3 * MiB) });
    // no request waits on this stream: it is reopened, and what comes next is heard
    await expect.poll(() => c.script.requests.filter((r) => r.httpMethod === "GET").length).toBe(2);
    await c.script.getStreamConnected();
    c.server.notify("notifications/tools/list_changed");
    await expect.poll(() => heard).toEqual(["notifications/tools/list_changed"]);
    expect(c.server.failures).toEqual([]);
  });

  it("http-sse/huge-event-fails-naming-the-limit", async () => {
    const c = await sseCase({ ...hugeAnswer(3 * MiB), versions: ["2024-11-05"] });
    const client = await c.connect({
      target: { name: "legacy" },
      settings: settings({ maxFrameBytes: MiB }),
    });
    const closed = new Promise<Error | undefined>((r) => client.onClose(r));
    const err = await client.callTool("huge", {}).catch((e) => e);
    // the channel carries every answer: it is closed, and every pending request fails with the error
    expectTooLarge(err, "legacy", "1 MiB");
    expect(await closed).toBe(err);
  });

  it("gateway-stdio/oversized-client-frame-answered-with-the-limit", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mcpx-frames-"));
    afterThisTest(() => rm(dir, { recursive: true, force: true }));
    const config = {
      listen: { maxBodyBytes: 64 * 1024 },
      servers: { big: { command: process.execPath, args: [BIG_ANSWER_SERVER], revision: "2025-06-18" } },
      stateDir: join(dir, "state"),
    };
    await writeFile(join(dir, "mcpx.json"), JSON.stringify(config));
    const input = new PassThrough();
    const output = new PassThrough();
    const { runtime } = await serveStdio({
      configFile: join(dir, "mcpx.json"),
      input,
      output,
      writeLog: () => {},
      logLevel: "error",
    });
    afterThisTest(async () => {
      input.end();
      await runtime.gateway.stop();
    });
    await runtime.gateway.pool.settled();
    const responses = readResponses(output);
    const send = (line: string) => input.write(`${line}\n`);

    send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    );
    expect((await responses.next()).id).toBe(1);
    send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    const huge = "y".repeat(200 * 1024);
    // the id at the head, at the tail (the SDK's order), and nowhere to be seen
    send(
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"big__echo","arguments":{"text":"${huge}"}}}`,
    );
    send(
      `{"method":"tools/call","params":{"name":"big__echo","arguments":{"text":"${huge}"}},"jsonrpc":"2.0","id":3}`,
    );
    send(huge);
    for (const id of [2, 3, null]) {
      const res = await responses.next();
      expect(res.id).toBe(id);
      expect(res.error?.code).toBe(-32600);
      expect(res.error?.message).toMatch(
        /^the message is 200(\.1)? KiB, over listen\.maxBodyBytes \(64 KiB\); it was dropped$/,
      );
    }
    // and the next request is served
    send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 4,
        method: "tools/call",
        params: { name: "big__echo", arguments: { text: "after" } },
      }),
    );
    const after = await responses.next();
    expect(after).toEqual({ jsonrpc: "2.0", id: 4, result: text("after") });
  });
});

type Response = JSONRPCMessage & { id: number | null; error?: { code: number; message: string } };

/** The responses mcpx stdio writes, in order. */
function readResponses(output: PassThrough) {
  const framer = new LineFramer(64 * MiB);
  const queue: Response[] = [];
  let wake: (() => void) | undefined;
  output.on("data", (chunk: Buffer) => {
    for (const line of framer.push(chunk)) {
      if (typeof line !== "string" || !line.trim()) continue;
      const msg = JSON.parse(line) as Response;
      if ("method" in msg) continue;
      queue.push(msg);
      wake?.();
    }
  });
  return {
    async next(): Promise<Response> {
      while (queue.length === 0) await new Promise<void>((r) => (wake = r));
      return queue.shift() as Response;
    },
  };
}
