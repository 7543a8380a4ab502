/**
 * mcpx's legacy session table against clients that open sessions and leave them: abandoned
 * initializes (and HTTP+SSE streams) are reaped after the handshake bound, sessions are bounded in
 * all and per client address, the least recently used idle session makes room before anyone is
 * refused, and an evicted session's client gets 404 and initializes again. The daemon runs on a
 * config with small `listen.sessions` bounds; a second client address is 127.0.0.2 (loopback).
 */
import { type IncomingHttpHeaders, request } from "node:http";
import type { JSONObject, LifecycleEvent } from "@mcpx/core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { afterThisTest, type DaemonCase, daemonCase, until } from "../src/index.js";
import { echo, sseReader } from "./gateway-http.helpers.js";

const VERSION = "2025-11-25";

async function daemon(sessions: JSONObject): Promise<DaemonCase> {
  return daemonCase(
    [
      {
        name: "a",
        versions: ["2025-06-18"],
        tools: [echo],
        handlers: {
          // A call whose text starts with "hang" never ends: a request in flight for as long as needed.
          "tools/call": async (req) => {
            const text = String(((req.params as JSONObject).arguments as JSONObject | undefined)?.text);
            if (text.startsWith("hang")) return new Promise(() => {});
            return { content: [{ type: "text", text }] };
          },
        },
      },
    ],
    { listen: { sessions } },
  );
}

function sessionEvents(c: DaemonCase) {
  return c.serving.runtime.gateway.events
    .since()
    .filter((e) => e.type === "session.evicted" || e.type === "session.refused")
    .map(({ seq: _s, time: _t, ...e }) => e as LifecycleEvent);
}

/**
 * Whether mcpx holds the client's session, and whether it counts it in use: read from the gateway's
 * peers, since a request to find out would itself be a use (and reorder the least recently used).
 */
function held(c: DaemonCase, s: Legacy): boolean {
  return c.serving.runtime.gateway.peers.some((p) => (p as { sessionId?: string }).sessionId === s.sessionId);
}

function inUse(c: DaemonCase, s: Legacy): boolean {
  const peer = c.serving.runtime.gateway.peers.find(
    (p) => (p as { sessionId?: string }).sessionId === s.sessionId,
  ) as { inUse?: boolean } | undefined;
  return peer?.inUse === true;
}

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: JSONObject | undefined;
}

/** One HTTP exchange from a chosen local address (the address mcpx bounds sessions by). */
function exchange(
  url: string,
  method: string,
  headers: Record<string, string>,
  opts: { body?: unknown; from?: string; signal?: AbortSignal } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, headers, localAddress: opts.from ?? "127.0.0.1", agent: false },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => {
          const json = res.headers["content-type"]?.startsWith("application/json");
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: json ? JSON.parse(text) : undefined,
          });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    opts.signal?.addEventListener("abort", () => req.destroy());
    if (opts.body !== undefined) req.write(JSON.stringify(opts.body));
    req.end();
  });
}

/** A raw legacy Streamable HTTP client from one address. */
class Legacy {
  sessionId: string | undefined;
  #id = 1;

  constructor(
    readonly c: DaemonCase,
    readonly from = "127.0.0.1",
  ) {}

  get headers(): Record<string, string> {
    const h: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": VERSION,
    };
    if (this.sessionId) h["mcp-session-id"] = this.sessionId;
    return h;
  }

  post(body: unknown, signal?: AbortSignal): Promise<Reply> {
    return exchange(this.c.url, "POST", this.headers, {
      body,
      from: this.from,
      ...(signal ? { signal } : {}),
    });
  }

  /** initialize, then (unless abandoning) notifications/initialized. */
  async open(opts: { initialized?: boolean } = {}): Promise<Reply> {
    const { "mcp-protocol-version": _v, "mcp-session-id": _s, ...first } = this.headers;
    const reply = await exchange(this.c.url, "POST", first, {
      from: this.from,
      body: {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      },
    });
    if (reply.status !== 200) return reply;
    this.sessionId = String(reply.headers["mcp-session-id"]);
    if (opts.initialized !== false) {
      expect((await this.post({ jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(202);
    }
    return reply;
  }

  request(method: string, params?: JSONObject): Promise<Reply> {
    return this.post({ jsonrpc: "2.0", id: this.#id++, method, ...(params ? { params } : {}) });
  }

  /** A tools/call that stays in flight until the test ends. */
  async hang(text: string): Promise<void> {
    const abort = new AbortController();
    afterThisTest(async () => abort.abort());
    void this.post(
      {
        jsonrpc: "2.0",
        id: this.#id++,
        method: "tools/call",
        params: { name: "a__echo", arguments: { text } },
      },
      abort.signal,
    ).catch(() => {});
    await this.c.scripted.a!.waitFor(
      (r) => r.frame.method === "tools/call" && (r.frame.params?.arguments as JSONObject)?.text === text,
    );
  }

  /** Opens the session's GET stream and holds it; resolves once it is attached. */
  stream(): Promise<{ close(): void }> {
    return new Promise((resolve, reject) => {
      const req = request(
        this.c.url,
        { headers: { ...this.headers, accept: "text/event-stream" }, localAddress: this.from, agent: false },
        (res) => {
          if (res.statusCode !== 200) reject(new Error(`GET stream: ${res.statusCode}`));
          res.on("error", () => {});
          resolve({ close: () => req.destroy() });
        },
      );
      req.on("error", () => {});
      afterThisTest(async () => void req.destroy());
      req.end();
    });
  }

  async alive(): Promise<boolean> {
    const reply = await this.request("ping");
    if (reply.status !== 200 && reply.status !== 404) throw new Error(`ping: ${reply.status}`);
    return reply.status === 200;
  }
}

async function sdkStreamable(url: string): Promise<Client> {
  const client = new Client({ name: "sdk-v1", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  afterThisTest(() => client.close());
  return client;
}

/** GET /sse and read the endpoint event; the stream is left open, as an abandoning client would. */
async function sseOpen(base: string) {
  const abort = new AbortController();
  afterThisTest(async () => abort.abort());
  const res = await fetch(`${base}/sse`, { headers: { accept: "text/event-stream" }, signal: abort.signal });
  if (res.status !== 200) return { status: res.status, endpoint: "", sse: undefined };
  const sse = sseReader(res);
  const endpoint = (await sse.next())?.data ?? "";
  return { status: res.status, endpoint: `${base}${endpoint}`, sse };
}

const ssePost = (endpoint: string, body: unknown) =>
  fetch(endpoint, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("legacy sessions under abandoning clients", () => {
  it("sessions/abandoned-initializes-do-not-lock-out-new-clients", async () => {
    // The handshake bound stays at its default (10 s): eviction alone must make room.
    const c = await daemon({ max: 5 });
    const abandoned: Legacy[] = [];
    for (let i = 0; i < 5; i++) {
      const s = new Legacy(c);
      expect((await s.open({ initialized: false })).status).toBe(200);
      abandoned.push(s);
    }
    const raw = new Legacy(c);
    expect((await raw.open()).status).toBe(200);
    const listed = await raw.request("tools/list");
    expect(listed.body?.result).toEqual({ tools: [expect.objectContaining({ name: "a__echo" })] });

    const sdk = await sdkStreamable(c.url);
    expect((await sdk.listTools()).tools.map((t) => t.name)).toEqual(["a__echo"]);
    expect(await raw.alive()).toBe(true);
    // two abandoned sessions made room; the table never went past its bound
    expect(c.serving.runtime.gateway.peers.length).toBeLessThanOrEqual(5);
    const gone = [];
    for (const s of abandoned) if (!(await s.alive())) gone.push(s);
    expect(gone).toEqual([abandoned[0], abandoned[1]]);
    expect(sessionEvents(c)).toEqual([
      {
        type: "session.evicted",
        session: expect.any(String),
        client: "127.0.0.1",
        reason: "lru",
        bound: "max",
      },
      {
        type: "session.evicted",
        session: expect.any(String),
        client: "127.0.0.1",
        reason: "lru",
        bound: "max",
      },
    ]);
  });

  it("sessions/never-initialized-session-reaped-after-the-handshake-bound", async () => {
    const c = await daemon({ handshakeTimeout: 1000 });
    // Never initialized but in use: a GET stream open, or a request in flight. Neither is abandoned.
    const streaming = new Legacy(c);
    await streaming.open({ initialized: false });
    await streaming.stream();
    const calling = new Legacy(c);
    await calling.open({ initialized: false });
    await calling.hang("hang-calling");
    const done = new Legacy(c);
    await done.open();
    const abandoned = new Legacy(c);
    await abandoned.open({ initialized: false });

    await until(() => sessionEvents(c).length > 0, 5000);
    const [event] = sessionEvents(c);
    expect(event).toEqual({
      type: "session.evicted",
      session: expect.stringMatching(/^http-streamable-\d+$/),
      client: "127.0.0.1",
      reason: "handshake-timeout",
    });
    // the peer id, never the session id (a credential)
    expect(JSON.stringify(event)).not.toContain(abandoned.sessionId);
    expect(await abandoned.alive()).toBe(false);
    // The others were past the bound too when it was reaped (opened earlier): none went.
    expect(sessionEvents(c)).toHaveLength(1);
    expect(await streaming.alive()).toBe(true);
    expect(await calling.alive()).toBe(true);
    expect(await done.alive()).toBe(true);
  });

  it("sessions/per-client-bound-evicts-that-client's-idle-sessions-first", async () => {
    const c = await daemon({ max: 10, perClient: 2 });
    // The other address's sessions are the least recently used of all.
    const other = [new Legacy(c, "127.0.0.2"), new Legacy(c, "127.0.0.2")];
    for (const s of other) await s.open();
    const local = [new Legacy(c), new Legacy(c)];
    for (const s of local) await s.open();
    await local[0]!.request("tools/list");

    const third = new Legacy(c);
    expect((await third.open()).status).toBe(200);
    // 127.0.0.1's least recently used idle session went, not the older ones of 127.0.0.2
    expect([...local, ...other].map((s) => held(c, s))).toEqual([true, false, true, true]);
    expect(sessionEvents(c)).toEqual([
      {
        type: "session.evicted",
        session: expect.any(String),
        client: "127.0.0.1",
        reason: "lru",
        bound: "perClient",
      },
    ]);
    // and 127.0.0.2's own bound makes room among its own
    expect((await new Legacy(c, "127.0.0.2").open()).status).toBe(200);
    expect([...local, ...other].map((s) => held(c, s))).toEqual([true, false, false, true]);
    expect(await local[1]!.alive()).toBe(false);
    expect(await local[0]!.alive()).toBe(true);
    expect(sessionEvents(c)[1]).toMatchObject({ client: "127.0.0.2", reason: "lru", bound: "perClient" });
  });

  it("sessions/lru-idle-session-evicted-before-refusing", async () => {
    const c = await daemon({ max: 5 });
    const calling = new Legacy(c);
    await calling.open();
    await calling.hang("hang-lru");
    const streaming = new Legacy(c);
    await streaming.open();
    await streaming.stream();
    const used = new Legacy(c);
    await used.open();
    const idle = new Legacy(c);
    await idle.open();
    await used.request("tools/list");
    // the newest, but never initialized: it goes first
    const unfinished = new Legacy(c);
    await unfinished.open({ initialized: false });

    const first = new Legacy(c);
    expect((await first.open()).status).toBe(200);
    expect(held(c, unfinished)).toBe(false);
    expect(held(c, idle)).toBe(true);

    // `idle` was used last before `used` was: it goes next
    const second = new Legacy(c);
    expect((await second.open()).status).toBe(200);
    const all = [calling, streaming, used, idle, first, second];
    expect(all.map((s) => held(c, s))).toEqual([true, true, true, false, true, true]);
    // then `used`, whose last use is older than `first`'s and `second`'s opening
    expect((await new Legacy(c).open()).status).toBe(200);
    expect(all.map((s) => held(c, s))).toEqual([true, true, false, false, true, true]);
    // the oldest sessions, in use, never went
    expect(await calling.alive()).toBe(true);
    expect(await streaming.alive()).toBe(true);
    expect(sessionEvents(c)).toEqual(
      Array.from({ length: 3 }, () => ({
        type: "session.evicted",
        session: expect.any(String),
        client: "127.0.0.1",
        reason: "lru",
        bound: "max",
      })),
    );
  });

  it("sessions/refused-with-503-only-when-nothing-is-idle", async () => {
    const c = await daemon({ max: 3, perClient: 2 });
    const calling = new Legacy(c);
    await calling.open();
    await calling.hang("hang-refused");
    const streaming = new Legacy(c);
    await streaming.open();
    const stream = await streaming.stream();

    // 127.0.0.1 holds its 2, both in use
    const refused = await new Legacy(c).open();
    expect(refused.status).toBe(503);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.body).toMatchObject({
      jsonrpc: "2.0",
      error: {
        code: -32600,
        message: expect.stringContaining("listen.sessions.perClient"),
        data: { bound: "listen.sessions.perClient", limit: 2 },
      },
    });

    // 127.0.0.2 fills the table with a session it streams on; then the table's bound refuses it
    const other = new Legacy(c, "127.0.0.2");
    expect((await other.open()).status).toBe(200);
    await other.stream();
    const full = await new Legacy(c, "127.0.0.2").open();
    expect(full.status).toBe(503);
    expect(full.headers["retry-after"]).toBeDefined();
    expect(full.body).toMatchObject({
      error: {
        message: expect.stringContaining("listen.sessions.max"),
        data: { bound: "listen.sessions.max", limit: 3 },
      },
    });
    expect(sessionEvents(c)).toEqual([
      { type: "session.refused", client: "127.0.0.1", bound: "perClient", limit: 2 },
      { type: "session.refused", client: "127.0.0.2", bound: "max", limit: 3 },
    ]);
    const printed = await c.cli("events");
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain('session.refused {"client":"127.0.0.1","bound":"perClient","limit":2}');

    // once a session is idle again, it makes room instead
    stream.close();
    await until(() => !inUse(c, streaming));
    const admitted = new Legacy(c);
    expect((await admitted.open()).status).toBe(200);
    expect(await streaming.alive()).toBe(false);
    expect(await calling.alive()).toBe(true);
  });

  it("sessions/evicted-session-gets-404-and-can-initialize-again", async () => {
    const c = await daemon({ max: 1 });
    const first = new Legacy(c);
    await first.open();
    const second = new Legacy(c);
    expect((await second.open()).status).toBe(200);
    // the first session is unknown now, on every method (the spec's answer: 404, initialize again)
    expect((await first.request("tools/list")).status).toBe(404);
    expect((await exchange(c.url, "GET", { ...first.headers, accept: "text/event-stream" })).status).toBe(
      404,
    );
    expect((await exchange(c.url, "DELETE", first.headers)).status).toBe(404);
    const stale = first.sessionId;
    expect((await first.open()).status).toBe(200);
    expect(first.sessionId).not.toBe(stale);
    const listed = await first.request("tools/list");
    expect(listed.status).toBe(200);
    expect(listed.body?.result).toEqual({ tools: [expect.objectContaining({ name: "a__echo" })] });
    expect(await second.alive()).toBe(false);
  });
});

describe("legacy sessions under abandoning clients: HTTP+SSE (2024-11-05)", () => {
  it("sessions/http-sse-never-initialized-stream-reaped-after-the-handshake-bound", async () => {
    const c = await daemon({ handshakeTimeout: 1000 });
    const base = c.url.replace(/\/mcp$/, "");
    // a client that initializes keeps its session; one that only opened the stream loses it
    const kept = await sseOpen(base);
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    };
    expect((await ssePost(kept.endpoint, init)).status).toBe(202);
    expect(JSON.parse((await kept.sse!.next())!.data)).toMatchObject({
      id: 1,
      result: { protocolVersion: "2024-11-05" },
    });
    expect(
      (await ssePost(kept.endpoint, { jsonrpc: "2.0", method: "notifications/initialized" })).status,
    ).toBe(202);
    const abandoned = await sseOpen(base);

    // its stream ends, and its endpoint is unknown
    expect(await abandoned.sse!.next(5000)).toBeUndefined();
    expect(sessionEvents(c)).toEqual([
      {
        type: "session.evicted",
        session: expect.stringMatching(/^http-sse-\d+$/),
        client: "127.0.0.1",
        reason: "handshake-timeout",
      },
    ]);
    expect((await ssePost(abandoned.endpoint, { jsonrpc: "2.0", id: 1, method: "ping" })).status).toBe(404);
    expect((await ssePost(kept.endpoint, { jsonrpc: "2.0", id: 2, method: "ping" })).status).toBe(202);
    expect(JSON.parse((await kept.sse!.next())!.data)).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
  });

  it("sessions/http-sse-abandoned-streams-do-not-lock-out-new-clients", async () => {
    // Abandoned openings hold their streams open; the handshake bound (10 s) has not passed.
    const c = await daemon({ max: 3 });
    const base = c.url.replace(/\/mcp$/, "");
    for (let i = 0; i < 3; i++) expect((await sseOpen(base)).status).toBe(200);
    const client = new Client({ name: "sdk-v1", version: "1.0.0" });
    await client.connect(new SSEClientTransport(new URL(`${base}/sse`)));
    afterThisTest(() => client.close());
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["a__echo"]);
    // more abandoned openings take the room of other abandoned ones, never the client's in use
    for (let i = 0; i < 3; i++) expect((await sseOpen(base)).status).toBe(200);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["a__echo"]);
    expect(sessionEvents(c).map((e) => e.type === "session.evicted" && e.reason)).toEqual([
      "lru",
      "lru",
      "lru",
      "lru",
    ]);
  });
});
