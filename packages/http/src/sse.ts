/**
 * Reads an SSE body with eventsource-parser. The parser forgets an event's id when the event has no
 * data line; servers prime streams with an id and an empty data line (2025-11-25), which it keeps.
 */
import { createParser, type EventSourceMessage } from "eventsource-parser";
import type { Body } from "./http.js";

/** One event larger than this ends the stream rather than the process's memory. */
const MAX_EVENT_CHARS = 16 * 1024 * 1024;

export interface SseHandlers {
  event(e: EventSourceMessage): void;
  retry(ms: number): void;
  /** A line the parser could not use (an unknown field); not fatal. */
  problem(message: string): void;
}

/** Resolves when the server ends the stream; rejects when it breaks (network, abort, oversized event). */
export async function readSse(body: Body, handlers: SseHandlers): Promise<void> {
  let fatal: Error | undefined;
  const parser = createParser({
    onEvent: handlers.event,
    onRetry: handlers.retry,
    onError: (err) => {
      if (err.type === "max-buffer-size-exceeded") fatal = err;
      else handlers.problem(err.message);
    },
    maxBufferSize: MAX_EVENT_CHARS,
  });
  const decoder = new TextDecoder();
  for await (const chunk of body as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (fatal) {
      body.destroy();
      throw fatal;
    }
  }
  const rest = decoder.decode();
  if (rest) parser.feed(rest);
}
