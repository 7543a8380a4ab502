/**
 * Reads an SSE body with eventsource-parser. The parser forgets an event's id when the event has no
 * data line; servers prime streams with an id and an empty data line (2025-11-25), which it keeps.
 */
import { FrameTooLargeError } from "@mcpx/core";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import type { Body } from "./http.js";

export interface SseHandlers {
  event(e: EventSourceMessage): void;
  retry(ms: number): void;
  /** A line the parser could not use (an unknown field); not fatal. */
  problem(message: string): void;
}

export interface SseLimits {
  /** Names the upstream in the error. */
  upstream: string;
  /** The largest event taken (upstream.maxFrameBytes). */
  maxEventBytes: number;
}

/**
 * Resolves when the server ends the stream; rejects when it breaks (network, abort), and with
 * FrameTooLargeError at an event over the limit: the stream is destroyed there, so an event cannot
 * grow past the limit in memory. (The parser counts UTF-16 code units, never more than the bytes.)
 */
export async function readSse(body: Body, handlers: SseHandlers, limits: SseLimits): Promise<void> {
  let tooLarge = false;
  const parser = createParser({
    // The parser's bound is on what it buffers across chunks; an event whole in one chunk is checked here.
    onEvent: (e) => {
      if (tooLarge) return;
      if (e.data.length > limits.maxEventBytes) tooLarge = true;
      else handlers.event(e);
    },
    onRetry: handlers.retry,
    onError: (err) => {
      if (err.type === "max-buffer-size-exceeded") tooLarge = true;
      else handlers.problem(err.message);
    },
    maxBufferSize: limits.maxEventBytes,
  });
  const decoder = new TextDecoder();
  for await (const chunk of body as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (tooLarge) {
      body.destroy();
      const { upstream, maxEventBytes } = limits;
      throw new FrameTooLargeError(
        upstream,
        { what: "an SSE event", size: maxEventBytes, atLeast: true },
        maxEventBytes,
      );
    }
  }
  const rest = decoder.decode();
  if (rest) parser.feed(rest);
}
