/**
 * Carries a ScriptedServer over 2024-11-05's HTTP with SSE on 127.0.0.1: GET /sse opens the stream and
 * names the POST endpoint in an `endpoint` event; POST /messages?sessionId=… answers 202 and the
 * replies follow as `message` events. On cue the endpoint is announced on another origin (127.0.0.2),
 * where a second listener records whatever arrives, which must be nothing. A POST to the SSE URL
 * itself (what an era probe sends first: server/discover, then initialize) is recorded with its
 * frames and refused with a bare status, 404 unless `refusePost` says otherwise.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Frame, ScriptedServer } from "./server.js";
import { formatEvent } from "./sse-writer.js";

export interface SseScriptOptions {
  /** Announce the endpoint on another origin (http://127.0.0.2:<port>/evil). */
  foreignEndpoint?: boolean;
  /** Answer the GET with this status instead of a stream. */
  refuseGet?: number;
  /** The bare status (no body) a POST to the SSE URL gets: 404 by default, or 400 or 405. */
  refusePost?: number;
}

export interface SseRecord {
  httpMethod: string;
  path: string;
  headers: Record<string, string>;
  frames: Frame[];
  at: number;
}

export interface SseScript {
  /** The URL of the SSE stream (what the upstream's config names). */
  readonly url: string;
  readonly server: ScriptedServer;
  readonly requests: SseRecord[];
  /** Requests that reached the foreign origin: must stay empty. */
  readonly foreignRequests: SseRecord[];
  /** The announced endpoint (absolute). */
  readonly endpoint: string | undefined;
  /** Ends the SSE stream. */
  endStream(): void;
  /** Writes a raw `message` event (a batch, a malformed frame). */
  sendRaw(data: string): void;
  close(): Promise<void>;
}

export async function sseScript(server: ScriptedServer, options: SseScriptOptions = {}): Promise<SseScript> {
  const requests: SseRecord[] = [];
  const foreignRequests: SseRecord[] = [];
  const streams = new Map<string, ServerResponse>();
  let current: ServerResponse | undefined;
  let endpoint: string | undefined;
  const open = new Set<ServerResponse>();

  const send = (res: ServerResponse | undefined, data: string) => {
    res?.write(formatEvent({ event: "message", data }));
  };
  server.pushOut = (frame) => send(current, JSON.stringify(frame));

  const foreign = createServer((req, res) => {
    collect(req, (text) => {
      foreignRequests.push(recordOf(req, text));
      res.writeHead(202).end();
    });
  });
  const foreignPort = options.foreignEndpoint ? await listen(foreign, "127.0.0.2") : 0;

  const http = createServer((req, res) => {
    open.add(res);
    res.on("close", () => open.delete(res));
    const url = new URL(req.url ?? "/", "http://x");
    if (req.method === "GET" && url.pathname === "/sse") {
      requests.push(recordOf(req, ""));
      if (options.refuseGet) return res.writeHead(options.refuseGet).end();
      const id = randomBytes(8).toString("hex");
      streams.set(id, res);
      current = res;
      res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
      endpoint = options.foreignEndpoint
        ? `http://127.0.0.2:${foreignPort}/evil?sessionId=${id}`
        : `/messages?sessionId=${id}`;
      res.write(formatEvent({ event: "endpoint", data: endpoint }));
      return;
    }
    if (req.method === "POST" && url.pathname === "/sse") {
      collect(req, (text) => {
        requests.push(recordOf(req, text));
        res.writeHead(options.refusePost ?? 404).end();
      });
      return;
    }
    if (req.method === "POST" && url.pathname === "/messages") {
      collect(req, (text) => {
        const rec = recordOf(req, text);
        requests.push(rec);
        const stream = streams.get(url.searchParams.get("sessionId") ?? "");
        if (!stream) return res.writeHead(404).end("unknown session");
        if (rec.frames.length === 0) {
          server.failures.push(`POST body is not JSON-RPC: ${text.slice(0, 80)}`);
          return res.writeHead(400).end();
        }
        res.writeHead(202).end("Accepted");
        const push = (f: Frame) => send(stream, JSON.stringify(f));
        server
          .receive(rec.frames, { headers: rec.headers, httpMethod: "POST", push })
          .then((responses) => {
            for (const r of responses) push(r);
          })
          .catch((err: Error) => server.failures.push(`SSE front: ${err.message}`));
      });
      return;
    }
    requests.push(recordOf(req, ""));
    res.writeHead(404).end();
  });
  const port = await listen(http, "127.0.0.1");

  return {
    url: `http://127.0.0.1:${port}/sse`,
    server,
    requests,
    foreignRequests,
    get endpoint() {
      return endpoint === undefined ? undefined : new URL(endpoint, `http://127.0.0.1:${port}`).href;
    },
    endStream() {
      current?.end();
      current = undefined;
    },
    sendRaw(data) {
      send(current, data);
    },
    async close() {
      for (const res of open) res.destroy();
      await Promise.all(
        [http, foreign].map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              if (s.listening) s.close(() => resolve());
              else resolve();
            }),
        ),
      );
    },
  };
}

function listen(server: Server, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port));
  });
}

function collect(req: IncomingMessage, done: (text: string) => void): void {
  let text = "";
  req.setEncoding("utf8");
  req.on("data", (c: string) => {
    text += c;
  });
  req.on("end", () => done(text));
}

function recordOf(req: IncomingMessage, text: string): SseRecord {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v;
  }
  let frames: Frame[] = [];
  try {
    const parsed = text ? (JSON.parse(text) as unknown) : undefined;
    if (parsed !== undefined) frames = (Array.isArray(parsed) ? parsed : [parsed]) as Frame[];
  } catch {
    frames = [];
  }
  return { httpMethod: req.method ?? "", path: req.url ?? "", headers, frames, at: Date.now() };
}
