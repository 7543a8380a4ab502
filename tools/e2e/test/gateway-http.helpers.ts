/**
 * mcpx's HTTP server over scripted upstreams, for the gateway-http tests: start it on 127.0.0.1:0,
 * speak raw HTTP with fetch, read SSE streams event by event.
 */
import { type JSONObject, MetaKey } from "@mcpx/core";
import { type Gateway, type HttpServerOptions, startHttpServer } from "@mcpx/gateway";
import { afterThisTest, scriptedGateway, type UpstreamSpec } from "../src/index.js";

export const MODERN = "2026-07-28";

export const modernMeta = {
  [MetaKey.protocolVersion]: MODERN,
  [MetaKey.clientCapabilities]: {},
  [MetaKey.clientInfo]: { name: "raw-fetch", version: "1" },
};

export const echo = {
  name: "echo",
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
};

export async function httpGateway(specs: UpstreamSpec[], opts: HttpServerOptions = {}) {
  const { gateway, scripted } = await scriptedGateway(specs);
  const http = await startHttpServer(gateway, { port: 0, keepAliveMs: 0, ...opts });
  afterThisTest(() => http.close());
  const base = http.url.replace(/\/mcp$/, "");
  return { gateway, scripted, http, url: http.url, base };
}

/** The headers a 2026-07-28 client mirrors from a request. */
export function mirrored(method: string, name?: string): Record<string, string> {
  const h: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": MODERN,
    "mcp-method": method,
  };
  if (name !== undefined) h["mcp-name"] = name;
  return h;
}

let nextId = 1;

/** A modern request body: method, params with _meta. */
export function modernBody(method: string, params: JSONObject = {}, id: string | number = nextId++) {
  const meta = { ...modernMeta, ...((params._meta as JSONObject | undefined) ?? {}) };
  return { jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } };
}

export function post(url: string, body: unknown, headers: Record<string, string>, signal?: AbortSignal) {
  return fetch(url, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

export interface SseEvent {
  id?: string;
  event?: string;
  /** The reconnection delay the server suggested with this event, as sent. */
  retry?: string;
  data: string;
}

/** Reads a text/event-stream body event by event. */
export function sseReader(res: Response) {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const queue: SseEvent[] = [];
  let done = false;
  let pending: Promise<void> | undefined;
  const pump = (): Promise<void> => {
    pending ??= read().finally(() => {
      pending = undefined;
    });
    return pending;
  };
  const read = async (): Promise<void> => {
    const { value, done: end } = await reader.read();
    if (end) {
      done = true;
      return;
    }
    buffer += value;
    let sep = buffer.indexOf("\n\n");
    while (sep !== -1) {
      const block = buffer.slice(0, sep);
      buffer = buffer.slice(sep + 2);
      const ev: SseEvent = { data: "" };
      const data: string[] = [];
      let any = false;
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const val = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "id") ev.id = val;
        else if (field === "event") ev.event = val;
        else if (field === "data") data.push(val);
        else if (field === "retry") ev.retry = val;
        else continue;
        any = true;
      }
      ev.data = data.join("\n");
      if (any) queue.push(ev);
      sep = buffer.indexOf("\n\n");
    }
  };
  return {
    /** The next event; undefined when the stream ended. */
    async next(timeoutMs = 5000): Promise<SseEvent | undefined> {
      const deadline = Date.now() + timeoutMs;
      while (queue.length === 0 && !done) {
        if (Date.now() > deadline) throw new Error("sse: timed out waiting for an event");
        await Promise.race([pump(), new Promise((r) => setTimeout(r, Math.max(1, deadline - Date.now())))]);
      }
      return queue.shift();
    },
    /** The next event carrying a JSON-RPC frame (skipping priming events), parsed. */
    async frame(timeoutMs = 5000): Promise<JSONObject & { id?: string | number; method?: string }> {
      for (;;) {
        const ev = await this.next(timeoutMs);
        if (!ev) throw new Error("sse: the stream ended");
        if (ev.data) return Object.assign(JSON.parse(ev.data), { __eventId: ev.id });
      }
    },
    async cancel() {
      await reader.cancel().catch(() => {});
    },
  };
}

/** Initializes a legacy Streamable HTTP session; returns its id and the headers later requests carry. */
export async function legacySession(url: string, version = "2025-11-25") {
  const res = await post(
    url,
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    },
    { "content-type": "application/json", accept: "application/json, text/event-stream" },
  );
  const sessionId = res.headers.get("mcp-session-id");
  const init = (await res.json()) as JSONObject;
  if (!sessionId) throw new Error(`initialize gave no session id: ${JSON.stringify(init)}`);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-session-id": sessionId,
    "mcp-protocol-version": version,
  };
  await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers);
  let id = 100;
  return {
    sessionId,
    headers,
    init,
    async request(method: string, params?: JSONObject, extra: Record<string, string> = {}) {
      const res = await post(
        url,
        { jsonrpc: "2.0", id: id++, method, ...(params ? { params } : {}) },
        { ...headers, ...extra },
      );
      return { res, body: (await res.json()) as JSONObject };
    },
  };
}

export { sleep } from "../src/index.js";

/**
 * Whether any legacy session still has a connection on one of its streams: a test that drops a
 * connection waits for mcpx to notice before it goes on (mcpx learns of it asynchronously).
 */
export function attached(gateway: Gateway): boolean {
  return gateway.peers.some((p) => {
    const streams = (p as { streams?: Map<string, { attached: boolean }> }).streams;
    return streams ? [...streams.values()].some((s) => s.attached) : false;
  });
}
