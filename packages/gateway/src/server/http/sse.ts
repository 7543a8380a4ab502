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

/** Writes one JSON-RPC frame as an event; false when the stream is gone. */
export function writeFrame(res: ServerResponse, frame: JSONRPCMessage, event?: string): boolean {
  if (!writable(res)) return false;
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
