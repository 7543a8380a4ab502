/**
 * mcpx against hostile upstreams: a real daemon (`serve` on a config file whose timeouts are set
 * small) fronting one hostile upstream (tools/testkit src/hostile) and one well-behaved scripted
 * upstream, with a downstream client on an in-process `mcpx stdio`. For each attack: mcpx stays up,
 * the well-behaved upstream keeps answering during and after it, the hostile upstream's own calls
 * fail with an error that names what was wrong (a timeout only where the upstream is silent), what
 * a flood could grow stays bounded, and nothing hostile reaches the downstream client.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { join } from "node:path";
import { ErrorCode, type JSONObject } from "@mcpx/core";
import { serve } from "@mcpx/daemon";
import {
  type HostileHttp,
  type HostileMode,
  type HostileStdio,
  hostileHttp,
  hostileStdio,
  ScriptedServer,
  type ScriptedServerOptions,
  stdioScript,
} from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { afterThisTest, configDir, freePort, stdioClient, until } from "../src/index.js";
import { legacySession } from "./gateway-http.helpers.js";

const echo = { name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } };

/** The config's timeouts: small, so a silent upstream shows in a second or two. */
const TIMEOUTS = { request: 1500, handshake: 1500, probe: 800, closeGrace: 300 };

/** A flood's call is answered after the flood: on a busy machine that can take longer than TIMEOUTS.request. */
const SLOW_FLOOD = { timeouts: { request: 30_000 } };

const EXITED_7 = /exited with code 7/;

interface Bad {
  /** The hostile upstream's config entry. */
  entry: JSONObject;
}

function stdioEntry(h: HostileStdio, extra: JSONObject = {}): Bad {
  return { entry: { command: h.command, args: h.args, ...extra } };
}

function httpEntry(h: HostileHttp, extra: JSONObject = {}): Bad {
  return { entry: { url: h.url, ...extra } };
}

async function badStdio(modes: HostileMode[], options: Partial<ScriptedServerOptions> = {}) {
  const h = await hostileStdio({ versions: ["2025-06-18"], tools: [echo], ...options, modes });
  afterThisTest(() => h.close());
  return h;
}

async function badHttp(modes: HostileMode[], options: Partial<ScriptedServerOptions> = {}) {
  const h = await hostileHttp({ versions: ["2025-06-18"], tools: [echo], ...options, modes });
  afterThisTest(() => h.close());
  return h;
}

/**
 * The daemon on a config with `good` (a scripted stdio upstream) and `bad`, and a legacy client
 * (2025-06-18) on an in-process `mcpx stdio`. `wait: false` returns before the upstreams settle.
 */
async function daemon(bad: Bad, opts: { wait?: boolean; upstream?: JSONObject } = {}) {
  const good = new ScriptedServer({ versions: ["2025-11-25"], tools: [echo] });
  const goodScript = await stdioScript(good);
  afterThisTest(() => goodScript.close());
  const port = await freePort();
  const dir = await configDir({
    listen: { host: "127.0.0.1", port },
    stateDir: ".state",
    upstream: { timeouts: TIMEOUTS, ...opts.upstream },
    servers: {
      good: { command: goodScript.command, args: goodScript.args },
      bad: bad.entry,
    },
  });
  const logs: string[] = [];
  const serving = await serve({
    configFile: join(dir, "mcpx.json"),
    writeLog: (line) => logs.push(line),
    logLevel: "warn",
  });
  afterThisTest(() => serving.stop());
  const gateway = serving.runtime.gateway;
  if (opts.wait !== false) await gateway.pool.settled();
  const client = stdioClient(gateway);
  await client.request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "hostile-test", version: "1" },
  });
  client.send({ method: "notifications/initialized" });

  const call = (name: string, text = "hi") => client.request("tools/call", { name, arguments: { text } });
  /** The well-behaved upstream answers a call exactly. */
  const goodAnswers = async (text = "still here") => {
    const res = await call("good__echo", text);
    expect(res.error).toBeUndefined();
    expect(res.result).toEqual({ content: [{ type: "text", text: JSON.stringify({ text }) }] });
  };
  const state = (name: string) => gateway.pool.states().find((s) => s.name === name);
  return { serving, gateway, client, good, logs, call, goodAnswers, state };
}

/**
 * A legacy session's GET stream whose client read the first chunk and then stopped reading (the
 * connection stays open: the kernel's buffers fill, then mcpx's).
 */
async function stalledGetStream(url: string, sessionId: string, version: string) {
  const u = new URL(url);
  const req = httpRequest({
    host: u.hostname,
    port: u.port,
    path: u.pathname,
    method: "GET",
    headers: { accept: "text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": version },
  });
  req.end();
  const res = await new Promise<IncomingMessage>((resolve) => req.on("response", resolve));
  let bytes = 0;
  res.once("data", (chunk: Buffer) => {
    bytes += chunk.length;
    res.pause();
  });
  afterThisTest(async () => {
    res.destroy();
  });
  return { received: () => bytes };
}

describe("hostile upstreams", () => {
  it("hostile-upstream/garbage-lines-skipped-and-calls-still-answered", async () => {
    const bad = await badStdio([{ mode: "garbage-lines" }]);
    const d = await daemon(stdioEntry(bad));
    // The handshake's answers came after garbage too: it connected all the same.
    expect(d.state("bad")).toMatchObject({ status: "connected", revision: "2025-06-18" });
    for (const text of ["one", "two", "three"]) {
      const res = await d.call("bad__echo", text);
      expect(res.result).toEqual({ content: [{ type: "text", text: JSON.stringify({ text }) }] });
      await d.goodAnswers(text);
    }
    // Each unreadable line is reported, naming the upstream, and skipped.
    expect(d.logs.some((l) => l.includes("cannot read") && l.includes("bad"))).toBe(true);
    expect(d.state("bad")?.status).toBe("connected");
    expect(bad.hostile.server.failures).toEqual([]);
  });

  it("hostile-upstream/answers-to-unasked-ids-ignored-and-the-real-answer-taken", async () => {
    const bad = await badStdio([{ mode: "wrong-ids", how: "unasked" }]);
    const d = await daemon(stdioEntry(bad));
    for (const text of ["one", "two"]) {
      const res = await d.call("bad__echo", text);
      expect(res.result).toEqual({ content: [{ type: "text", text: JSON.stringify({ text }) }] });
      await d.goodAnswers(text);
    }
    expect(d.state("bad")?.status).toBe("connected");
  });

  it("hostile-upstream/duplicate-answers-ignored-after-the-first", async () => {
    const bad = await badStdio([{ mode: "wrong-ids", how: "duplicate" }]);
    const d = await daemon(stdioEntry(bad));
    const [first, second] = await Promise.all([d.call("bad__echo", "a"), d.call("bad__echo", "b")]);
    expect(first?.result).toEqual({ content: [{ type: "text", text: '{"text":"a"}' }] });
    expect(second?.result).toEqual({ content: [{ type: "text", text: '{"text":"b"}' }] });
    await d.goodAnswers();
    // One answer per request reached the client, whatever came twice.
    const answers = d.client.received.filter((m) => "id" in m && !("method" in m));
    expect(new Set(answers.map((m) => (m as { id: unknown }).id)).size).toBe(answers.length);
  });

  it("hostile-upstream/string-id-for-a-number-id-fails-the-call-naming-the-id", async () => {
    const bad = await badStdio([{ mode: "wrong-ids", how: "string-for-number", method: "tools/call" }]);
    const d = await daemon(stdioEntry(bad));
    const res = await d.call("bad__echo");
    expect(res.error?.message).toMatch(/id "\d+", a string/);
    expect(res.error?.message).not.toMatch(/timed out/);
    await d.goodAnswers();
    // Only the mistyped method fails: the upstream is still there for the rest.
    const list = await d.client.request("tools/list");
    expect((list.result?.tools as { name: string }[] | undefined)?.map((t) => t.name)).toEqual([
      "good__echo",
      "bad__echo",
    ]);
  });

  it("hostile-upstream/never-answering-times-out-at-the-configured-request-timeout", async () => {
    const bad = await badStdio([{ mode: "never-answer", method: "tools/call" }]);
    const d = await daemon(stdioEntry(bad));
    const pending = d.call("bad__echo");
    // Meanwhile the other upstream answers, as often as asked.
    await d.goodAnswers("during");
    await d.goodAnswers("during again");
    const res = await pending;
    expect(res.error?.message).toMatch(/tools\/call to upstream bad timed out after \d+ ms/);
    // The call is withdrawn upstream (a legacy revision over stdio: notifications/cancelled).
    const id = bad.hostile.server.frames("tools/call")[0]?.id;
    await bad.hostile.server.waitFor(
      (r) => r.frame.method === "notifications/cancelled" && r.frame.params?.requestId === id,
    );
    await d.goodAnswers("after");
    expect(d.state("bad")?.status).toBe("connected");
  });

  it("hostile-upstream/flood-of-notifications-leaves-other-upstreams-responsive", async () => {
    const bad = await badStdio([
      { mode: "flood", what: "log", count: 20_000 },
      { mode: "flood", what: "progress", count: 20_000 },
    ]);
    const d = await daemon(stdioEntry(bad, SLOW_FLOOD));
    const flooding = d.call("bad__echo", "after the flood");
    await d.goodAnswers("during the flood");
    const res = await flooding;
    // The call the flood came with is answered once the flood is through.
    expect(res.result).toEqual({ content: [{ type: "text", text: '{"text":"after the flood"}' }] });
    await d.goodAnswers("after the flood");
    // A client that asked for no log level gets no log line; progress for a token nobody asked for goes nowhere.
    expect(d.client.received.filter((m) => "method" in m)).toEqual([]);
    // Nor does a notification become a lifecycle event: the events `mcpx events` shows are not flushed out by it.
    expect(d.gateway.events.since().length).toBeLessThan(20);
  });

  it("hostile-upstream/methods-named-like-prototype-members-change-nothing", async () => {
    // Notifications and requests named constructor, __proto__, toString, …: a lookup table indexed
    // by the method would find Object.prototype's members and treat them as entries.
    for (const bad of [
      await badStdio([{ mode: "prototype-names" }]),
      await badHttp([{ mode: "prototype-names" }]),
    ]) {
      const d = await daemon("command" in bad ? stdioEntry(bad) : httpEntry(bad));
      const res = await d.call("bad__echo", "after the odd names");
      expect(res.result).toEqual({ content: [{ type: "text", text: '{"text":"after the odd names"}' }] });
      await d.goodAnswers();
      // Nothing reached the client, no list was thought changed, nothing was logged as a failure.
      expect(d.client.received.filter((m) => "method" in m)).toEqual([]);
      expect(d.gateway.events.since().filter((e) => e.type === "list.changed")).toEqual([]);
      expect(d.logs.filter((l) => /TypeError|is not (iterable|a function)/.test(l))).toEqual([]);
      expect(d.state("bad")?.status).toBe("connected");
    }
  });

  it("hostile-upstream/flood-of-log-lines-queues-a-bounded-amount-for-a-client-that-stopped-reading", async () => {
    const bad = await badStdio([{ mode: "flood", what: "log", count: 100_000 }]);
    const d = await daemon(stdioEntry(bad, SLOW_FLOOD));
    // A legacy HTTP client that asked for log lines, with a GET stream it has stopped reading.
    const session = await legacySession(d.serving.url, "2025-06-18");
    await session.request("logging/setLevel", { level: "info" });
    const stream = await stalledGetStream(d.serving.url, session.sessionId, "2025-06-18");
    const peer = d.gateway.peers.find((p) => p.id.startsWith("http")) as unknown as {
      streams: Map<string, { attached: boolean; queuedBytes: number }>;
    };
    await until(() => peer.streams.get("0")?.attached === true);
    const call = await session.request("tools/call", { name: "bad__echo", arguments: { text: "x" } });
    expect(call.body.result).toEqual({ content: [{ type: "text", text: '{"text":"x"}' }] });
    // Every line went through mcpx before the answer did; what waits for the client is bounded
    // (1 MiB, then log lines to it are dropped), not the ~20 MB of the whole flood.
    expect(peer.streams.get("0")?.queuedBytes).toBeLessThan(2 * 1024 * 1024);
    expect(stream.received()).toBeGreaterThan(0);
    await d.goodAnswers();
  });

  it("hostile-upstream/crash-mid-call-fails-the-call-and-restarts", async () => {
    const bad = await badStdio([{ mode: "crash-mid-call", code: 3 }]);
    const d = await daemon(stdioEntry(bad));
    const res = await d.call("bad__echo");
    expect(res.error?.message).toMatch(/exited with code 3/);
    await d.goodAnswers();
    // The pool starts it again, and it serves what does not crash it.
    await until(() => bad.starts === 2 && d.state("bad")?.status === "connected");
    const list = await d.client.request("tools/list");
    expect((list.result?.tools as { name: string }[] | undefined)?.map((t) => t.name)).toEqual([
      "good__echo",
      "bad__echo",
    ]);
    const again = await d.call("bad__echo");
    expect(again.error?.message).toMatch(/exited with code 3/);
    await d.goodAnswers();
  });

  it("hostile-upstream/exit-at-start-reported-and-retried", async () => {
    const bad = await badStdio([{ mode: "exit-at-start", code: 7 }]);
    const d = await daemon(stdioEntry(bad));
    // Failed, or already trying again: either way not connected, and saying why (the exit code, also
    // when mcpx's first write loses the race with the exit and meets a broken pipe).
    expect(d.state("bad")?.status).not.toBe("connected");
    expect(d.state("bad")?.error).toMatch(EXITED_7);
    await d.goodAnswers();
    const list = await d.client.request("tools/list");
    expect((list.result?.tools as { name: string }[] | undefined)?.map((t) => t.name)).toEqual([
      "good__echo",
    ]);
    // Its names are not "unknown" for want of a typo: the error says the upstream is down, and why
    // (UpstreamUnavailableError: a server error, the same call may succeed later).
    const res = await d.call("bad__echo");
    expect(res.error?.code).toBe(ErrorCode.UpstreamUnavailable);
    expect(res.error?.message).toMatch(/^upstream bad is not connected: .+$/);
    expect(res.error?.message).not.toMatch(/Unknown tool/);
    expect(res.error?.message).toMatch(EXITED_7);
    // Tried again, with backoff.
    await bad.started(2);
    const failed = d.gateway.events.since().filter((e) => e.type === "upstream.failed");
    expect(failed[0]).toMatchObject({ upstream: "bad", retryInMs: expect.any(Number) });
  });

  it("hostile-upstream/hung-handshake-fails-within-the-handshake-timeout", async () => {
    const bad = await badStdio([{ mode: "hung-handshake" }]);
    const d = await daemon(stdioEntry(bad), { wait: false });
    // While it hangs, the other upstream serves.
    await until(() => d.state("good")?.status === "connected");
    await d.goodAnswers();
    await until(() => d.state("bad")?.status === "failed");
    expect(d.state("bad")?.error).toMatch(/initialize to upstream bad timed out after \d+ ms/);
    // The probe went first and was given up on: server/discover, then initialize, neither answered.
    // (The pool's next attempt may have begun since: only the first two frames are this attempt's.)
    expect(
      bad.hostile.server
        .frames()
        .slice(0, 2)
        .map((f) => f.method),
    ).toEqual(["server/discover", "initialize"]);
    await d.goodAnswers();
  });

  it("hostile-upstream/unknown-revision-refused-naming-the-version", async () => {
    for (const via of ["initialize", "server/discover"] as const) {
      const bad = await badStdio([{ mode: "unknown-revision", version: "1999-01-01", via }]);
      const d = await daemon(stdioEntry(bad));
      expect(d.state("bad")?.status).toBe("failed");
      // In mcpx's words (the server's own message names no version): what it gave, what mcpx speaks.
      expect(d.state("bad")?.error).toMatch(/1999-01-01/);
      expect(d.state("bad")?.error).toMatch(/2025-11-25, 2025-06-18/);
      await d.goodAnswers();
      // An initialize answered with an unknown version is not followed by initialized.
      expect(bad.hostile.server.frames("notifications/initialized")).toEqual([]);
    }
  });

  it("hostile-upstream/unexpected-server-requests-refused-not-forwarded", async () => {
    // 2025-03-26 has no elicitation; mcpx declares no sampling for a client that cannot sample.
    const bad = await badStdio([{ mode: "server-requests" }], { versions: ["2025-03-26"] });
    const d = await daemon(stdioEntry(bad));
    const res = await d.call("bad__echo", "asked");
    expect(res.result).toEqual({ content: [{ type: "text", text: '{"text":"asked"}' }] });
    const byKind = Object.fromEntries(bad.hostile.asked.map((q) => [q.kind, q.answer]));
    expect(byKind.sampling?.error?.message).toMatch(/sampling/);
    expect(byKind.elicitation?.error).toMatchObject({ code: -32601 });
    expect(byKind["unknown-method"]?.error).toMatchObject({ code: -32601 });
    expect(byKind.roots?.result).toEqual({ roots: [] });
    // A ping whose id collides with the client's call is answered as a ping, and the call as the call.
    const callId = bad.hostile.server.frames("tools/call")[0]?.id;
    expect(byKind["colliding-id"]).toEqual({ jsonrpc: "2.0", id: callId, result: {} });
    // None of it reached the downstream client.
    expect(d.client.received.filter((m) => "method" in m)).toEqual([]);
    await d.goodAnswers();
  });

  it("hostile-upstream/cross-origin-redirect-not-followed", async () => {
    const bad = await badHttp([{ mode: "redirect", status: 307, to: "foreign", method: "tools/call" }]);
    const d = await daemon(httpEntry(bad, { auth: { type: "bearer", token: "hostile-test-token" } }));
    expect(d.state("bad")?.status).toBe("connected");
    const res = await d.call("bad__echo");
    expect(res.error?.message).toMatch(/redirected \(HTTP 307\) to another origin/);
    expect(res.error?.message).toContain(new URL(bad.foreignUrl).origin);
    expect(bad.foreignRequests).toEqual([]);
    await d.goodAnswers();
  });

  it("hostile-upstream/same-origin-redirect-followed-only-for-307-and-308", async () => {
    for (const status of [307, 308, 302] as const) {
      const bad = await badHttp([{ mode: "redirect", status, to: "same-origin", method: "tools/call" }]);
      const d = await daemon(httpEntry(bad));
      const res = await d.call("bad__echo", String(status));
      if (status === 302) {
        expect(res.error?.message).toMatch(
          /HTTP 302 redirecting to http:\/\/127\.0\.0\.1:\d+\/mcp-moved; mcpx follows only same-origin 307 and 308/,
        );
      } else {
        expect(res.result).toEqual({
          content: [{ type: "text", text: JSON.stringify({ text: String(status) }) }],
        });
      }
      await d.goodAnswers();
    }
  });

  it("hostile-upstream/redirect-loop-ends-with-an-error-naming-it", async () => {
    const bad = await badHttp([{ mode: "redirect", status: 307, to: "loop", method: "tools/call" }]);
    const d = await daemon(httpEntry(bad));
    const res = await d.call("bad__echo");
    expect(res.error?.message).toMatch(/gave up after 5 redirects in a row/);
    // A bounded number of hops, not a loop.
    const calls = bad.requests.filter((r) => r.frames[0]?.method === "tools/call");
    expect(calls.length).toBeLessThanOrEqual(6);
    await d.goodAnswers();
  });

  it("hostile-upstream/sse-bad-events-skipped", async () => {
    for (const defect of ["no-data", "bad-json", "bogus-retry"] as const) {
      const bad = await badHttp([{ mode: "sse", defect }]);
      const d = await daemon(httpEntry(bad));
      const res = await d.call("bad__echo", defect);
      expect(res.result).toEqual({ content: [{ type: "text", text: JSON.stringify({ text: defect }) }] });
      await d.goodAnswers();
    }
  });

  it("hostile-upstream/sse-stream-that-never-ends-times-out-and-is-closed", async () => {
    const bad = await badHttp([{ mode: "sse", defect: "never-ends" }]);
    const d = await daemon(httpEntry(bad));
    const pending = d.call("bad__echo");
    await d.goodAnswers();
    const res = await pending;
    expect(res.error?.message).toMatch(/tools\/call to upstream bad timed out/);
    // mcpx let go of the stream it gave up on.
    await until(() => bad.openResponses === 0);
  });

  it("hostile-upstream/sse-stream-left-open-after-the-answer-is-released", async () => {
    const bad = await badHttp([{ mode: "sse", defect: "open-after-answer" }]);
    const d = await daemon(httpEntry(bad));
    for (const text of ["a", "b", "c"]) {
      const res = await d.call("bad__echo", text);
      expect(res.result).toEqual({ content: [{ type: "text", text: JSON.stringify({ text }) }] });
    }
    // Each answered stream is closed by mcpx: open connections do not pile up call after call.
    await until(() => bad.openResponses === 0);
    await d.goodAnswers();
  });

  it("hostile-upstream/sse-closed-mid-event-fails-the-call-at-once", async () => {
    const bad = await badHttp([{ mode: "sse", defect: "close-mid-event" }]);
    const d = await daemon(httpEntry(bad));
    const res = await d.call("bad__echo");
    expect(res.error?.message).toMatch(/closed before the response/);
    expect(res.error?.message).not.toMatch(/timed out/);
    await d.goodAnswers();
  });

  it("hostile-upstream/garbage-events-skipped-over-http", async () => {
    const bad = await badHttp([{ mode: "garbage-lines" }]);
    const d = await daemon(httpEntry(bad));
    const res = await d.call("bad__echo", "through garbage");
    expect(res.result).toEqual({ content: [{ type: "text", text: '{"text":"through garbage"}' }] });
    await d.goodAnswers();
  });
});
