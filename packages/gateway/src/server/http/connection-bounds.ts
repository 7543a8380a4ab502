/**
 * The bounds on mcpx's HTTP connections, where Node's defaults leave a slow client a lot of room
 * (Node 20: headersTimeout 60 s and requestTimeout 300 s, checked every 30 s, and no cap on
 * connections): a client that sends its headers or its body a byte at a time holds a socket for
 * minutes, and enough of them take every file descriptor the process has. The timeouts cover only
 * what the client sends: a response, however long it streams (a GET stream, subscriptions/listen,
 * a call waiting for an elicitation), is never cut by them.
 *
 * What Node's HTTP parser refuses itself (headers too large, a CR or LF inside a header, a
 * timeout) is answered as every other refusal is: the status and a JSON-RPC error naming what was
 * wrong, not a bare status line.
 */
import { maxHeaderSize, type Server, type ServerOptions } from "node:http";
import type { Duplex } from "node:stream";
import { ErrorCode, type Logger } from "@mcpx/core";

export interface ConnectionBounds {
  /** How long a client may take to send a request's headers (default 5 s; config listen.headersTimeout). */
  headersTimeoutMs?: number;
  /** How long it may take to send the whole request, body included (default 30 s; listen.requestTimeout). */
  requestTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open between requests (default 5 s, Node's). */
  keepAliveTimeoutMs?: number;
  /** Connections held at once, streams included (default 1000; listen.maxConnections). */
  maxConnections?: number;
}

interface Resolved {
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  maxConnections: number;
}

function resolve(b: ConnectionBounds): Resolved {
  const requestTimeout = b.requestTimeoutMs ?? 30_000;
  return {
    // The headers are part of the request (and Node refuses a headersTimeout above requestTimeout).
    headersTimeout: Math.min(b.headersTimeoutMs ?? 5_000, requestTimeout),
    requestTimeout,
    keepAliveTimeout: b.keepAliveTimeoutMs ?? 5_000,
    maxConnections: b.maxConnections ?? 1000,
  };
}

/** The options createServer takes for these bounds. */
export function serverOptions(b: ConnectionBounds): ServerOptions {
  const r = resolve(b);
  return {
    headersTimeout: r.headersTimeout,
    requestTimeout: r.requestTimeout,
    keepAliveTimeout: r.keepAliveTimeout,
    // Node finds expired requests by polling: often enough that a bound of a few seconds holds.
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(r.headersTimeout / 4))),
  };
}

/** The connection cap, and JSON refusals for what the HTTP parser refuses. */
export function guardConnections(server: Server, b: ConnectionBounds, log?: Logger): void {
  const r = resolve(b);
  server.maxConnections = r.maxConnections;
  let dropped = 0;
  let warnedAt = 0;
  server.on("drop", () => {
    dropped++;
    // Once a minute at most: a flood of connections must not become a flood of log lines.
    if (Date.now() - warnedAt < 60_000) return;
    warnedAt = Date.now();
    log?.warn(
      `listen.maxConnections (${r.maxConnections}) reached: ${dropped} connection(s) closed unanswered so far`,
    );
  });
  server.on("clientError", (err: Error & { code?: string }, socket: Duplex) => {
    // Node's own rule (lib/_http_server.js socketOnError): nothing more is written once a response
    // has started on this connection, or when the client is gone.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code !== "ECONNRESET" && socket.writable && !inFlight?.headersSent) {
      socket.write(rawRefusal(refusalOf(err, r)));
    }
    socket.destroy();
  });
}

function refusalOf(err: Error & { code?: string }, r: Resolved): [number, string, string] {
  switch (err.code) {
    case "HPE_HEADER_OVERFLOW":
      return [
        431,
        "Request Header Fields Too Large",
        `the request's headers exceed ${maxHeaderSize} bytes (Node's --max-http-header-size)`,
      ];
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return [413, "Payload Too Large", "the body's chunk extensions are too large"];
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return [
        408,
        "Request Timeout",
        `the request did not arrive in time (its headers within listen.headersTimeout, ${r.headersTimeout} ms; all of it within listen.requestTimeout, ${r.requestTimeout} ms)`,
      ];
    default:
      return [
        400,
        "Bad Request",
        `the request is not valid HTTP/1.1 (${err.code ?? "parse error"}: ${err.message})`,
      ];
  }
}

function rawRefusal([status, reason, why]: [number, string, string]): string {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    error: { code: ErrorCode.InvalidRequest, message: `${reason}: ${why}` },
  });
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}
