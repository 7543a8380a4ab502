/**
 * The official TypeScript SDK v2 (@modelcontextprotocol/server, a 2026-07-28 server) as a real modern
 * peer in the test process: createMcpHandler (stateless, a server per request from one factory; the
 * 2025-era fallback left on) served by node:http on 127.0.0.1:0. The SDK's handler is web-standard
 * (Request → Response): this file carries it over node:http, streaming SSE answers and aborting the
 * exchange when the client closes the connection. Every HTTP request is recorded with its headers.
 * Not exported from the index: only the sdk-v2 tests load the SDK.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createMcpHandler, InMemoryServerEventBus, type McpServer } from "@modelcontextprotocol/server";
// The same tools, shared with the stdio fixture (plain JS, so the child runs it without a build).
import { sdkV2Server } from "../fixtures/sdk-v2-tools.mjs";

export interface V2Request {
  method: string;
  /** Lower-cased. */
  headers: Record<string, string>;
  body: unknown;
  status?: number;
}

export interface V2Peer {
  url: string;
  requests: V2Request[];
  /** Adds the tool `added_later` and publishes notifications/tools/list_changed on open listens. */
  addTool(): void;
  /** How many subscriptions/listen streams the SDK has open (registered on its event bus). */
  listening(): number;
  close(): Promise<void>;
}

export async function startSdkV2Peer(): Promise<V2Peer> {
  const state = { added: false };
  const bus = new InMemoryServerEventBus();
  const handler = createMcpHandler((): McpServer => sdkV2Server(state), {
    responseMode: "auto",
    keepAliveMs: 0,
    bus,
  });
  const requests: V2Request[] = [];
  const open = new Set<ServerResponse>();

  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
    }
    const record: V2Request = {
      method: req.method ?? "",
      headers,
      body: text ? JSON.parse(text) : undefined,
    };
    requests.push(record);
    const abort = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) abort.abort();
    });
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method ?? "GET",
      headers: new Headers(headers),
      ...(text && req.method !== "GET" && req.method !== "HEAD" ? { body: text } : {}),
      signal: abort.signal,
    });
    const response = await handler.fetch(request);
    record.status = response.status;
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.flushHeaders();
    if (!response.body) return void res.end();
    const reader = response.body.getReader();
    abort.signal.addEventListener("abort", () => void reader.cancel().catch(() => {}), { once: true });
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        res.write(value);
      }
    } catch {
      // the client went away
    }
    res.end();
  };

  const http = createServer((req, res) => {
    open.add(res);
    res.on("close", () => open.delete(res));
    serve(req, res).catch((err: Error) => {
      if (!res.headersSent) res.writeHead(500).end(err.message);
      else res.destroy();
    });
  });
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    listening: () => bus.listenerCount,
    addTool() {
      state.added = true;
      handler.notify.toolsChanged();
    },
    async close() {
      await handler.close().catch(() => {});
      for (const res of open) res.destroy();
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}
