/**
 * The transport on a modern (2026-07-28) connection, driven directly: a fake sink, a node:http server
 * on 127.0.0.1 that records what arrives, and negotiated({ era: "modern" }).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  ConnectionClosedError,
  DEFAULT_UPSTREAM_SETTINGS,
  type FrameMeta,
  HttpStatusError,
  type JSONRPCMessage,
  type RequestId,
  type RevisionFeatures,
  silentLogger,
} from "@mcpx/core";
import { afterEach, describe, expect, it } from "vitest";
import { StreamableHttpTransport } from "../src/index.js";

const MODERN: RevisionFeatures = {
  initialize: false,
  ping: false,
  setLevel: false,
  versionHeader: true,
  sessions: false,
  standaloneGet: false,
  resumption: false,
  batches: false,
  serverRequests: false,
  inputRequired: true,
  elicitationModes: ["form", "url"],
  elicitationComplete: false,
  emptyCursorContinues: true,
  paramHeaders: true,
  subscriptionsListen: true,
  resourceSubscribeRequests: false,
};
const LEGACY: RevisionFeatures = {
  ...MODERN,
  initialize: true,
  sessions: true,
  standaloneGet: true,
  resumption: true,
};

interface Seen {
  method: string;
  headers: IncomingMessage["headers"];
  body: string;
  closedEarly: boolean;
}
type Reply = (req: Seen, res: ServerResponse) => void;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

async function upstream(reply: Reply) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => {
      body += c;
    });
    req.on("end", () => {
      const s: Seen = { method: req.method ?? "", headers: req.headers, body, closedEarly: false };
      seen.push(s);
      res.on("close", () => {
        if (!res.writableFinished) s.closedEarly = true;
      });
      reply(s, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  cleanups.push(
    () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  const messages: { msg: JSONRPCMessage; meta: FrameMeta }[] = [];
  const failed: { id: RequestId; err: Error }[] = [];
  const transport = new StreamableHttpTransport(
    { name: "up", url, headers: { Authorization: "Bearer t0ken" } },
    {
      upstream: "up",
      log: silentLogger,
      settings: { ...DEFAULT_UPSTREAM_SETTINGS, sseReconnectDelay: 10 },
      sink: {
        message: (msg, meta) => messages.push({ msg, meta }),
        requestFailed: (id, err) => failed.push({ id, err }),
        closed: () => {},
      },
    },
  );
  cleanups.push(() => transport.close());
  return { seen, transport, messages, failed };
}

const modernHeaders = (method: string) => ({ "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method });
const call = (id: number) => ({ jsonrpc: "2.0" as const, id, method: "tools/call", params: { name: "t" } });
const sse = (res: ServerResponse) =>
  res.writeHead(200, { "Content-Type": "text/event-stream" }).flushHeaders();
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("Streamable HTTP on a modern connection", () => {
  it("never sends a session id, even one a legacy exchange minted; no GET, no DELETE", async () => {
    const up = await upstream((req, res) => {
      const id = JSON.parse(req.body).id;
      res
        .writeHead(200, { "Content-Type": "application/json", "Mcp-Session-Id": "legacy-1" })
        .end(JSON.stringify({ jsonrpc: "2.0", id, result: {} }));
    });
    // a legacy exchange mints a session (initialize, before negotiated)
    await up.transport.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    expect(up.transport.sessionId).toBe("legacy-1");
    // a modern probe before negotiated (its sender says so): no session id on it either
    await up.transport.send(
      { jsonrpc: "2.0", id: 2, method: "server/discover" },
      { headers: modernHeaders("server/discover"), era: "modern" },
    );
    up.transport.negotiated({ era: "modern", version: "2026-07-28", features: MODERN });
    await up.transport.send(call(3), {
      headers: { ...modernHeaders("tools/call"), "Mcp-Name": "t", "Mcp-Param-Region": "eu" },
    });
    await delay(50);
    await up.transport.close();
    expect(up.seen.map((s) => s.method)).toEqual(["POST", "POST", "POST"]);
    expect(up.seen[0]?.headers["mcp-session-id"]).toBeUndefined();
    expect(up.seen[1]?.headers["mcp-session-id"]).toBeUndefined();
    const modern = up.seen[2]!;
    expect(modern.headers["mcp-session-id"]).toBeUndefined();
    // the mirrored headers come from the revision and go out as given, with the credentials
    expect(modern.headers).toMatchObject({
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "t",
      "mcp-param-region": "eu",
      authorization: "Bearer t0ken",
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
    });
    expect(up.messages.map((m) => m.meta.via)).toEqual([
      { kind: "post", requestId: 1 },
      { kind: "post", requestId: 2 },
      { kind: "post", requestId: 3 },
    ]);
  });

  it("aborting the signal closes the response stream and POSTs nothing", async () => {
    const up = await upstream((req, res) => {
      sse(res);
      res.write(
        `data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } })}\n\n`,
      );
      void req;
    });
    up.transport.negotiated({ era: "modern", version: "2026-07-28", features: MODERN });
    const abort = new AbortController();
    await up.transport.send(call(7), { signal: abort.signal, headers: modernHeaders("tools/call") });
    await expect.poll(() => up.messages.length).toBe(1);
    abort.abort();
    await expect.poll(() => up.seen[0]?.closedEarly).toBe(true);
    await delay(50);
    expect(up.seen).toHaveLength(1);
    expect(up.failed).toEqual([]);
  });

  it("a signal aborted while waiting for headers ends the send at once", async () => {
    const up = await upstream(() => {
      // never answers
    });
    up.transport.negotiated({ era: "modern", version: "2026-07-28", features: MODERN });
    const abort = new AbortController();
    const sent = up.transport.send(call(8), { signal: abort.signal, headers: modernHeaders("tools/call") });
    await expect.poll(() => up.seen.length).toBe(1);
    abort.abort();
    await expect(sent).rejects.toBeInstanceOf(ConnectionClosedError);
    await expect.poll(() => up.seen[0]?.closedEarly).toBe(true);
    // already aborted: nothing is sent
    await expect(up.transport.send(call(9), { signal: abort.signal })).rejects.toBeInstanceOf(
      ConnectionClosedError,
    );
    expect(up.seen).toHaveLength(1);
  });

  it("a stream that ends without the response fails the request at once (-32000), with no resumption", async () => {
    const up = await upstream((_req, res) => {
      sse(res);
      // even with an event id: 2026-07-28 has no resumption
      res.end(
        `id: e1\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } })}\n\n`,
      );
    });
    up.transport.negotiated({ era: "modern", version: "2026-07-28", features: MODERN });
    await up.transport.send(call(11), { headers: modernHeaders("tools/call") });
    await expect.poll(() => up.failed.length).toBe(1);
    const [{ id, err }] = up.failed as [{ id: RequestId; err: ConnectionClosedError }];
    expect(id).toBe(11);
    expect(err).toBeInstanceOf(ConnectionClosedError);
    expect(err.code).toBe(-32000);
    expect(err.message).toMatch(/response stream of request 11 closed before the response/);
    expect(up.messages[0]?.meta).toEqual({ via: { kind: "post", requestId: 11 }, eventId: "e1" });
    await delay(50);
    expect(up.seen.map((s) => s.method)).toEqual(["POST"]);
  });

  it("a bare 400, 404 or 405 is an HttpStatusError; a JSON-RPC error body is delivered", async () => {
    const answers: [number, string][] = [
      [400, ""],
      [404, "Not Found"],
      [405, "<html>nope</html>"],
      [
        400,
        JSON.stringify({
          jsonrpc: "2.0",
          id: 4,
          error: { code: -32022, message: "Unsupported", data: { supported: ["2025-11-25"] } },
        }),
      ],
    ];
    const up = await upstream((_req, res) => {
      const [status, body] = answers.shift()!;
      res.writeHead(status, body.startsWith("{") ? { "Content-Type": "application/json" } : {}).end(body);
    });
    for (const status of [400, 404, 405]) {
      const err = await up.transport.send(call(status)).catch((e) => e);
      expect(err).toBeInstanceOf(HttpStatusError);
      expect(err.status).toBe(status);
    }
    await up.transport.send(call(4));
    expect(up.messages.map((m) => m.msg)).toEqual([
      {
        jsonrpc: "2.0",
        id: 4,
        error: { code: -32022, message: "Unsupported", data: { supported: ["2025-11-25"] } },
      },
    ]);
  });

  it("streamable-http/frame-era-told-by-its-sender", async () => {
    const up = await upstream((req, res) => {
      if (req.method !== "POST") return res.writeHead(200).end();
      const msg = JSON.parse(req.body);
      res
        .writeHead(200, { "Content-Type": "application/json", "Mcp-Session-Id": "s-1" })
        .end(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: {} }));
    });
    await up.transport.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    const features = { ...LEGACY, standaloneGet: false };
    up.transport.negotiated({ era: "legacy", version: "2025-11-25", features });
    // The era the sender gives decides, never a header: a legacy frame keeps the session whatever
    // headers it carries, a modern one (a server/discover moving the connection on) goes without.
    await up.transport.send(call(2), { headers: { "Mcp-Method": "tools/call" }, era: "legacy" });
    await up.transport.send({ jsonrpc: "2.0", id: 3, method: "server/discover" }, { era: "modern" });
    // Unsaid, a frame is of the negotiated era.
    await up.transport.send(call(4));
    const posts = up.seen.filter((s) => s.method === "POST");
    expect(posts.map((s) => s.headers["mcp-session-id"])).toEqual([undefined, "s-1", undefined, "s-1"]);
  });

  it("a legacy connection does open the GET stream and DELETE its session (the contrast)", async () => {
    const up = await upstream((req, res) => {
      if (req.method === "GET") return res.writeHead(405).end();
      if (req.method === "DELETE") return res.writeHead(200).end();
      const msg = JSON.parse(req.body);
      if (msg.id === undefined) return res.writeHead(202).end();
      res
        .writeHead(200, { "Content-Type": "application/json", "Mcp-Session-Id": "s-1" })
        .end(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: {} }));
    });
    await up.transport.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    up.transport.negotiated({ era: "legacy", version: "2025-11-25", features: LEGACY });
    await expect.poll(() => up.seen.map((s) => s.method)).toEqual(["POST", "GET"]);
    await up.transport.close();
    expect(
      up.seen.map((s) => [s.method, s.headers["mcp-session-id"], s.headers["mcp-protocol-version"]]),
    ).toEqual([
      ["POST", undefined, undefined],
      ["GET", "s-1", "2025-11-25"],
      ["DELETE", "s-1", "2025-11-25"],
    ]);
  });
});
