/**
 * Server-Sent Events on a node:http response: the headers, one event, a keep-alive comment, and a
 * request-scoped writer that stops writing once the client has gone. Each frame is one `data:`
 * line (JSON.stringify never writes a raw newline).
 */
import type { ServerResponse } from "node:http";
import type { JSONRPCMessage } from "@mcpx/core";

export const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  connection: "keep-alive",
  // Reverse proxies (nginx) must not buffer the stream.
  "x-accel-buffering": "no",
} as const;

export function openSse(res: ServerResponse, headers?: Record<string, string>): void {
  res.writeHead(200, headers ? { ...SSE_HEADERS, ...headers } : SSE_HEADERS);
  res.flushHeaders();
  // A write after the client left must not become an unhandled 'error'.
  res.on("error", () => {});
}

export function sseEvent(data: string, id?: string, event?: string): string {
  let out = "";
  if (id !== undefined) out += `id: ${id}\n`;
  if (event !== undefined) out += `event: ${event}\n`;
  return `${out}data: ${data}\n\n`;
}

export function writable(res: ServerResponse): boolean {
  return !res.writableEnded && !res.destroyed;
}

/**
 * The most bytes queued on one connection before its client is taken to have stopped reading. Past
 * it, notifications to that client are dropped rather than queued: log lines, progress and change
 * notices are lossy, and an upstream's flood must not grow mcpx's memory by what a client does not
 * read (200,000 log lines to a GET stream nobody read held about 95 MB). Responses and requests are
 * always written.
 */
export const MAX_QUEUED_BYTES = 1024 * 1024;

/** Whether this frame is a notification to a client that has stopped reading (see MAX_QUEUED_BYTES). */
export function stalled(res: ServerResponse, frame: JSONRPCMessage): boolean {
  return res.writableLength > MAX_QUEUED_BYTES && !("id" in frame);
}

/** Writes one JSON-RPC frame as an event; false when the stream is gone or the notification was dropped. */
export function writeFrame(res: ServerResponse, frame: JSONRPCMessage, event?: string): boolean {
  if (!writable(res) || stalled(res, frame)) return false;
  res.write(sseEvent(JSON.stringify(frame), undefined, event));
  return true;
}

/** Sends an SSE comment every `ms` while the response is open (long-lived streams only). */
export function keepAlive(res: ServerResponse, ms: number): void {
  if (ms <= 0) return;
  const timer = setInterval(() => {
    if (writable(res)) res.write(":\n\n");
  }, ms);
  timer.unref();
  res.once("close", () => clearInterval(timer));
}
