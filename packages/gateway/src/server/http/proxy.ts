/**
 * One request of a legacy session held by another replica, passed to that replica as it came: the
 * client's method, path, query and headers (so the holder applies the same Origin, Host and token
 * checks, and the same session-to-credentials binding), the body streamed there and the answer
 * (JSON, or an SSE stream for as long as it lasts) streamed back. The hop is marked (HOP_HEADER) so
 * the holder answers it itself, whatever it finds: a request is proxied at most once.
 */
import { request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { ErrorCode, type Logger } from "@mcpx/core";
import { HOP_HEADER, type SessionRecord } from "./replicas.js";
import { HttpRefusal } from "./reply.js";

/** Headers of one connection, not of the request: never passed along (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/**
 * The holder of a session did not answer: 503 naming it, never a hang. The client learns the
 * replica's id and why in a word (an error code); the holder's address and the socket's own
 * message, which name the replicas' network, go to the log only.
 */
export class ReplicaUnreachableError extends HttpRefusal {
  readonly replica: string;
  constructor(record: SessionRecord, reason: string) {
    super(
      503,
      ErrorCode.InternalError,
      `Service Unavailable: replica ${record.replica} holds this session and did not answer (${reason}); retry, or start a new session with initialize`,
      { headers: { "retry-after": "2" }, data: { replica: record.replica } },
    );
    this.name = "ReplicaUnreachableError";
    this.replica = record.replica;
  }
}

export interface ProxyOptions {
  /** This replica's id, put in the hop header. */
  self: string;
  /** How long connecting to the holder may take (default 5 s); the answer itself may take any time. */
  connectTimeoutMs?: number;
  /** Where a holder that does not answer is reported in full (its URL, the socket's error). */
  log?: Logger;
}

/** Streams `req` to the holder and its answer back; rejects with ReplicaUnreachableError before any answer. */
export function proxyToHolder(
  req: IncomingMessage,
  res: ServerResponse,
  record: SessionRecord,
  opts: ProxyOptions,
): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  }
  headers[HOP_HEADER] = opts.self;
  const target = new URL(req.url ?? "/", `${record.url}/`);
  return new Promise<void>((resolve, reject) => {
    let answered = false;
    const out = httpRequest(target, { method: req.method ?? "GET", headers });
    const connectTimer = setTimeout(
      () => out.destroy(new Error("no connection within the timeout")),
      opts.connectTimeoutMs ?? 5_000,
    );
    out.once("socket", (socket) => {
      if (!socket.connecting) clearTimeout(connectTimer);
      else socket.once("connect", () => clearTimeout(connectTimer));
    });
    out.once("response", (answer) => {
      answered = true;
      clearTimeout(connectTimer);
      const back: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined && !HOP_BY_HOP.has(name)) back[name] = value;
      }
      res.writeHead(answer.statusCode ?? 502, back);
      // An SSE stream's headers go at once: the client waits for them before any event.
      res.flushHeaders();
      answer.pipe(res);
      answer.once("end", () => resolve());
      answer.once("error", () => {
        res.destroy();
        resolve();
      });
    });
    out.once("error", (err) => {
      clearTimeout(connectTimer);
      if (answered) {
        res.destroy();
        resolve();
        return;
      }
      opts.log?.warn(
        `replica ${record.replica} at ${record.url} did not answer a proxied request: ${err.message}`,
      );
      const code = (err as NodeJS.ErrnoException).code;
      reject(new ReplicaUnreachableError(record, code ?? "no connection within the timeout"));
    });
    // The client went away (a closed GET stream, a cancelled POST): so does the hop.
    res.once("close", () => {
      if (!res.writableFinished) out.destroy();
      resolve();
    });
    req.pipe(out);
  });
}
