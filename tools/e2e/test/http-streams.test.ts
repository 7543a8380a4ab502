import { ConnectionClosedError, type ElicitationHandler, RequestTimeoutError } from "@mcpx/core";
import { defaultHandler, type Frame, formatEvent, type Handler, NO_ANSWER } from "@mcpx/testkit";
import { describe, expect, it, vi } from "vitest";
import {
  afterThisTest,
  delay,
  handlers,
  httpCase,
  label,
  posts,
  requirement,
  settings,
  TOOLS,
} from "../src/index.js";

const isGet = (r: { httpMethod: string }) => r.httpMethod === "GET";

describe("the standalone GET stream (legacy Streamable HTTP)", () => {
  requirement(
    ["2025-03-26/get-stream/opened", "2025-06-18/get-stream/opened", "2025-11-25/get-stream/opened"],
    async (rev) => {
      const c = await httpCase({ versions: [rev], tools: TOOLS });
      const client = await c.connect({ revision: rev });
      const changed: string[] = [];
      client.onNotification("notifications/tools/list_changed", (_p, m) => changed.push(m));
      await c.script.getStreamConnected();
      const get = c.script.requests.find(isGet);
      expect(get?.headers.accept).toBe("text/event-stream");
      expect(get?.headers["mcp-session-id"]).toBe(c.script.sessionId);
      if (rev === "2025-03-26") expect(get?.headers).not.toHaveProperty("mcp-protocol-version");
      else expect(get?.headers["mcp-protocol-version"]).toBe(rev);
      // opened after initialize and initialized, never before
      const initialized = c.script.requests.findIndex(
        (r) => r.frames[0]?.method === "notifications/initialized",
      );
      expect(c.script.requests.indexOf(get!)).toBeGreaterThan(initialized);
      c.server.notify("notifications/tools/list_changed");
      await expect.poll(() => changed).toEqual(["notifications/tools/list_changed"]);

      // a server without one answers 405, and that is the end of it: the connection keeps working
      const refusing = await httpCase({ versions: [rev], tools: TOOLS }, { getStream: false });
      const other = await refusing.connect({ revision: rev, settings: settings({ sseReconnectDelay: 20 }) });
      await refusing.script.waitForRequest(isGet);
      expect(await other.listTools()).toHaveLength(2);
      await delay(150);
      expect(refusing.script.requests.filter(isGet).map((r) => r.status)).toEqual([405]);
      expect([...c.server.failures, ...refusing.server.failures]).toEqual([]);
    },
  );

  requirement(
    [
      "2025-03-26/get-stream/elicitation-during-call",
      "2025-06-18/get-stream/elicitation-during-call",
      "2025-11-25/get-stream/elicitation-during-call",
    ],
    async (rev) => {
      // 2025-03-26 has no elicitation: its server request during a call is roots/list, which takes the same road
      const ask =
        rev === "2025-03-26"
          ? { method: "roots/list", params: undefined }
          : {
              method: "elicitation/create",
              params: {
                message: "Your name?",
                requestedSchema: { type: "object", properties: { name: { type: "string" } } },
              },
            };
      const c = await httpCase({
        versions: [rev],
        tools: TOOLS,
        handlers: {
          // like the TypeScript SDK's server.request() inside a tool handler: not tied to the POST
          "tools/call": async (_req, ctx) => {
            const answer = await ctx.server.request(ask.method, ask.params);
            return { content: [{ type: "text", text: JSON.stringify(answer.result) }] };
          },
        },
      });
      const seen: string[] = [];
      const elicit: ElicitationHandler = {
        name: "test",
        modes: ["form"],
        handle: async (req) => {
          seen.push(req.message);
          return { action: "accept", content: { name: "Ada" } };
        },
      };
      const client = await c.connect({
        revision: rev,
        handlers: handlers({ elicitation: [elicit], roots: () => [{ uri: "file:///work", name: "work" }] }),
      });
      const result = await client.callTool("echo", { text: "who?" });
      const expected =
        rev === "2025-03-26"
          ? { roots: [{ uri: "file:///work", name: "work" }] }
          : { action: "accept", content: { name: "Ada" } };
      expect(result).toEqual({ content: [{ type: "text", text: JSON.stringify(expected) }] });
      if (rev !== "2025-03-26") expect(seen).toEqual(["Your name?"]);
      // the question travelled on the GET stream
      const get = c.script.requests.find(isGet);
      expect(get?.stream?.events.map((e) => JSON.parse(e.data).method)).toEqual([ask.method]);
      expect(c.server.failures).toEqual([]);
    },
  );
});

describe("cancellation (legacy Streamable HTTP)", () => {
  requirement(
    [
      "2025-03-26/cancellation/timeout-before-headers",
      "2025-06-18/cancellation/timeout-before-headers",
      "2025-11-25/cancellation/timeout-before-headers",
    ],
    async (rev) => {
      // JSON answers: the POST's response headers wait for the answer, which never comes
      const c = await httpCase(
        { versions: [rev], tools: TOOLS, handlers: { "tools/call": () => NO_ANSWER } },
        { answer: "json" },
      );
      const client = await c.connect({ revision: rev, settings: settings({ requestTimeout: 250 }) });
      const err = await client.callTool("echo", { text: "slow" }).catch((e) => e);
      expect(err).toBeInstanceOf(RequestTimeoutError);
      const call = posts(c.script, "tools/call")[0];
      expect(call?.status).toBeUndefined();
      const cancelled = await c.script.waitForRequest(
        (r) => r.frames[0]?.method === "notifications/cancelled",
      );
      expect(cancelled.frames).toEqual([
        {
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId: call?.frames[0]?.id, reason: "timeout" },
        },
      ]);
      await expect.poll(() => cancelled.status).toBe(202);
      // the held POST was let go, and the connection carries on
      await expect.poll(() => call?.closedByClient).toBe(true);
      expect(await client.listTools()).toHaveLength(2);
      expect(c.server.failures).toEqual([]);
    },
  );
});

describe("server requests over HTTP (2025-03-26 batches)", () => {
  const batch = (
    frames: Frame[],
    result: Record<string, unknown>,
    ids: [string | number, string | number],
  ) => [
    { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
    { jsonrpc: "2.0", id: ids[0], method: "ping" },
    { jsonrpc: "2.0", id: ids[1], method: "roots/list" },
    { jsonrpc: "2.0", id: frames[0]?.id, result },
  ];

  it("2025-03-26/server-requests/batches", async () => {
    const c = await httpCase({ versions: ["2025-03-26"], tools: TOOLS });
    const client = await c.connect({
      revision: "2025-03-26",
      handlers: handlers({ roots: () => [{ uri: "file:///r" }] }),
    });
    const changed: string[] = [];
    client.onNotification("notifications/tools/list_changed", (_p, m) => changed.push(m));
    // a JSON body that is an array
    c.script.rawAnswer((r) => r.frames[0]?.method === "tools/list", {
      status: 200,
      contentType: "application/json",
      body: (frames) => JSON.stringify(batch(frames, { tools: [] }, ["b2", 9])),
    });
    expect(await client.listTools()).toEqual([]);
    // an SSE event whose data is an array
    c.script.rawAnswer((r) => r.frames[0]?.method === "ping", {
      status: 200,
      contentType: "text/event-stream",
      body: (frames) => formatEvent({ id: "e1", data: JSON.stringify(batch(frames, {}, ["s3", 10])) }),
    });
    expect(await client.ping()).toEqual({});
    for (const id of ["b2", "s3"]) {
      expect((await c.server.waitFor((r) => r.frame.id === id)).frame).toEqual({
        jsonrpc: "2.0",
        id,
        result: {},
      });
    }
    for (const id of [9, 10]) {
      expect((await c.server.waitFor((r) => r.frame.id === id)).frame).toEqual({
        jsonrpc: "2.0",
        id,
        result: { roots: [{ uri: "file:///r" }] },
      });
    }
    expect(changed).toEqual(["notifications/tools/list_changed", "notifications/tools/list_changed"]);
    expect(c.server.failures).toEqual([]);
  });
});

describe("resumption (2025-11-25)", () => {
  requirement(["2025-11-25/resumption/resume"], async () => {
    const c = await httpCase(
      { versions: ["2025-11-25"], tools: TOOLS },
      { answer: "sse", prime: true, retry: 50 },
    );
    const client = await c.connect({
      revision: "2025-11-25",
      settings: settings({ sseReconnectAttempts: 2, sseReconnectDelay: 5000 }),
    });
    // cut after the priming event: the response is written only to the log
    c.script.cutNext((r) => r.frames[0]?.method === "tools/call", { afterEvents: 1 });
    expect(await client.callTool("echo", { text: "again" })).toEqual({
      content: [{ type: "text", text: '{"text":"again"}' }],
    });
    const call = posts(c.script, "tools/call")[0]!;
    const primed = call.stream?.events[0]?.id;
    const resumed = c.script.requests.filter((r) => r.headers["last-event-id"] !== undefined);
    expect(resumed).toHaveLength(1);
    expect(resumed[0]?.httpMethod).toBe("GET");
    expect(resumed[0]?.headers["last-event-id"]).toBe(primed);
    expect(resumed[0]?.headers["mcp-session-id"]).toBe(c.script.sessionId);
    expect(resumed[0]?.headers["mcp-protocol-version"]).toBe("2025-11-25");
    // the server's retry (50 ms) was waited, not sseReconnectDelay (5 s)
    expect(resumed[0]!.at - call.at).toBeGreaterThanOrEqual(45);
    expect(resumed[0]!.at - call.at).toBeLessThan(4000);

    // a stream that never comes back: at most sseReconnectAttempts resumptions, then the caller is told
    c.script.cutNext((r) => r.frames[0]?.method === "tools/call", { afterEvents: 1, cutResumes: true });
    const err = await client.callTool("echo", { text: "lost" }).catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionClosedError);
    expect(err.message).toMatch(/closed before the response, and 2 attempts to resume it brought nothing/);
    const second = posts(c.script, "tools/call")[1]!;
    const tries = c.script.requests.filter((r) => r.stream === second.stream && r.httpMethod === "GET");
    expect(tries).toHaveLength(2);
    expect(c.server.failures).toEqual([]);
  });

  requirement(["2025-11-25/resumption/no-event-id"], async () => {
    const c = await httpCase({ versions: ["2025-11-25"], tools: TOOLS }, { answer: "sse", eventIds: false });
    const client = await c.connect({
      revision: "2025-11-25",
      settings: settings({ requestTimeout: 10_000 }),
    });
    c.script.cutNext((r) => r.frames[0]?.method === "tools/call", { afterEvents: 0 });
    const started = Date.now();
    const err = await client.callTool("echo", {}).catch((e) => e);
    const took = Date.now() - started;
    expect(err).toBeInstanceOf(ConnectionClosedError);
    expect(err.code).toBe(-32000);
    expect(err.message).toMatch(/carried no event id, so it cannot be resumed/);
    // told at once, not at the 10 s deadline
    expect(took).toBeLessThan(3000);
    expect(c.script.requests.filter((r) => r.headers["last-event-id"] !== undefined)).toEqual([]);
    expect(c.server.failures).toEqual([]);
  });

  requirement(["2025-11-25/resumption/get-stream"], async () => {
    const c = await httpCase({ versions: ["2025-11-25"], tools: TOOLS }, { retry: 30 });
    const client = await c.connect({ revision: "2025-11-25" });
    const changed: string[] = [];
    client.onNotification("*", (_p, m) => changed.push(m));
    const stream = await c.script.getStreamConnected();
    c.server.notify("notifications/tools/list_changed");
    await expect.poll(() => changed).toEqual(["notifications/tools/list_changed"]);
    const lastSeen = stream.events.at(-1)?.id;
    c.script.cutGetStream();
    // sent while the stream is down: replayed on the reconnection
    c.server.notify("notifications/prompts/list_changed");
    await expect
      .poll(() => changed)
      .toEqual(["notifications/tools/list_changed", "notifications/prompts/list_changed"]);
    const gets = c.script.requests.filter(isGet);
    expect(gets).toHaveLength(2);
    expect(gets[0]?.headers).not.toHaveProperty("last-event-id");
    expect(gets[1]?.headers["last-event-id"]).toBe(lastSeen);
    expect(gets[1]?.headers["mcp-session-id"]).toBe(c.script.sessionId);
    expect(gets[1]!.at - gets[0]!.at).toBeGreaterThanOrEqual(25);
    expect(c.server.failures).toEqual([]);
  });
});

/** tools/call that says something on its stream first (an event with an id to resume from), then answers. */
const saysThenAnswers: Handler = (req, ctx) => {
  ctx.push({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } });
  return defaultHandler("tools/call")(req, ctx);
};

/**
 * Every wait the process asks setTimeout for, with when it fired: a test reads from it that the
 * delay was asked for and that what follows it came after it, with no clock assertion.
 */
function timersAsked(): { ms: number | undefined; firedAt?: number }[] {
  const asked: { ms: number | undefined; firedAt?: number }[] = [];
  const real = globalThis.setTimeout;
  const spy = vi.spyOn(globalThis, "setTimeout").mockImplementation(((
    fn: (...args: unknown[]) => void,
    ms?: number,
    ...args: unknown[]
  ) => {
    const entry: { ms: number | undefined; firedAt?: number } = { ms };
    asked.push(entry);
    return real(
      (...a: unknown[]) => {
        entry.firedAt = Date.now();
        fn(...a);
      },
      ms,
      ...args,
    );
  }) as unknown as typeof setTimeout);
  afterThisTest(async () => spy.mockRestore());
  return asked;
}

describe("resumption (every revision whose text allows it)", () => {
  // 2025-03-26 and 2025-06-18 (basic/transports "Resumability and Redelivery"): "If the client wishes
  // to resume after a broken connection, it SHOULD issue an HTTP GET … [with] Last-Event-ID". The
  // official suite's sse-retry scenario negotiates 2025-03-26 and closes the stream early.
  requirement(["2025-03-26/resumption/resume", "2025-06-18/resumption/resume"], async (rev) => {
    const c = await httpCase(
      { versions: [rev], tools: TOOLS, handlers: { "tools/call": saysThenAnswers } },
      { answer: "sse", retry: 37 },
    );
    const asked = timersAsked();
    const client = await c.connect({
      revision: rev,
      settings: settings({ sseReconnectAttempts: 2, sseReconnectDelay: 4321 }),
    });
    const said: unknown[] = [];
    client.onNotification("notifications/message", (p) => said.push(p.data));
    // cut after the first event (the log line): the response is written only to the stream's log
    c.script.cutNext((r) => r.frames[0]?.method === "tools/call", { afterEvents: 1 });
    expect(await client.callTool("echo", { text: "again" })).toEqual({
      content: [{ type: "text", text: '{"text":"again"}' }],
    });
    expect(said).toEqual(["working"]);
    const call = posts(c.script, "tools/call")[0]!;
    const resumed = c.script.requests.filter((r) => r.headers["last-event-id"] !== undefined);
    expect(resumed.map(label)).toEqual(["GET"]);
    expect(resumed[0]?.headers["last-event-id"]).toBe(call.stream?.events[0]?.id);
    expect(resumed[0]?.headers["mcp-session-id"]).toBe(c.script.sessionId);
    expect(resumed[0]?.stream).toBe(call.stream);
    // the server's retry (37 ms) was waited, not sseReconnectDelay, and the GET came after it
    const waited = asked.filter((t) => t.ms === 37 || t.ms === 4321);
    expect(waited.map((t) => t.ms)).toEqual([37]);
    expect(resumed[0]!.at).toBeGreaterThanOrEqual(waited[0]!.firedAt!);
    expect(c.server.failures).toEqual([]);
  });

  it("streamable-http/no-resumption-where-the-revision-has-none", async () => {
    // 2024-11-05 reached over Streamable HTTP has no resumption: its text has no Streamable HTTP at
    // all. The request fails at once, and nothing is resumed.
    const c = await httpCase(
      { versions: ["2024-11-05"], tools: TOOLS, handlers: { "tools/call": saysThenAnswers } },
      { answer: "sse", retry: 20 },
    );
    const client = await c.connect({
      revision: "2024-11-05",
      settings: settings({ requestTimeout: 10_000 }),
    });
    c.script.cutNext((r) => r.frames[0]?.method === "tools/call", { afterEvents: 1 });
    const err = await client.callTool("echo", {}).catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionClosedError);
    expect(err.message).toMatch(/closed before the response$/);
    expect(c.script.requests.filter((r) => r.httpMethod === "GET")).toEqual([]);
    expect(c.server.failures).toEqual([]);
  });

  it("streamable-http/waits-sse-reconnect-delay-without-retry", async () => {
    // No retry field from the server: the wait is upstream.sseReconnectDelay (transports.mdx leaves
    // the interval to the client; SSE's own default would be the user agent's).
    const c = await httpCase(
      { versions: ["2025-06-18"], tools: TOOLS, handlers: { "tools/call": saysThenAnswers } },
      { answer: "sse" },
    );
    const asked = timersAsked();
    const client = await c.connect({
      revision: "2025-06-18",
      settings: settings({ sseReconnectAttempts: 2, sseReconnectDelay: 321 }),
    });
    await c.script.getStreamConnected();
    c.script.cutNext((r) => r.frames[0]?.method === "tools/call", { afterEvents: 1 });
    expect(await client.callTool("echo", { text: "late" })).toEqual({
      content: [{ type: "text", text: '{"text":"late"}' }],
    });
    // initialize, initialized, the standalone GET, the call, and one resumption GET: nothing more
    expect(c.script.requests.map((r) => [label(r), r.headers["last-event-id"] !== undefined])).toEqual([
      ["POST initialize", false],
      ["POST notifications/initialized", false],
      ["GET", false],
      ["POST tools/call", false],
      ["GET", true],
    ]);
    // the delay asked for is sseReconnectDelay, once, and the GET came after it fired
    const waits = asked.filter((t) => t.ms === 321);
    expect(waits).toHaveLength(1);
    const resumed = c.script.requests.at(-1)!;
    expect(waits[0]?.firedAt).toBeDefined();
    expect(resumed.at).toBeGreaterThanOrEqual(waits[0]!.firedAt!);
    expect(c.server.failures).toEqual([]);
  });
});
