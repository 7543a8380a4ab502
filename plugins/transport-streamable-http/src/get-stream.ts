/**
 * The standalone GET stream of legacy Streamable HTTP (2025-03-26 on): where a server sends what is
 * not tied to a POST — notably a request it makes from inside a tool handler (the TypeScript SDK's
 * server.request()), which without this stream never reaches mcpx. A server without one answers 405,
 * and that is the end of it, quietly. When the server ends the stream it is opened again after its
 * `retry` (or sseReconnectDelay), with Last-Event-ID when its events had ids, at most
 * sseReconnectAttempts times in a row without an event.
 */
import {
  FrameTooLargeError,
  type JSONRPCMessage,
  type Logger,
  type TransportSink,
  type UpstreamSettings,
} from "@mcpx/core";
import { discard, type HttpAnswer } from "@mcpx/http";
import { frameMeta, pump, type StreamCursor, sleep } from "./events.js";

export interface GetStreamParts {
  upstream: string;
  log: Logger;
  sink: TransportSink;
  settings: UpstreamSettings;
  /** GET the endpoint, with Last-Event-ID when given. */
  open(lastEventId: string | undefined, signal: AbortSignal): Promise<HttpAnswer>;
  isStream(res: HttpAnswer): boolean;
}

export class GetStream {
  readonly #parts: GetStreamParts;
  readonly #abort = new AbortController();
  #done: Promise<void> | undefined;

  constructor(parts: GetStreamParts) {
    this.#parts = parts;
  }

  start(): void {
    this.#done ??= this.#run().catch((err: Error) =>
      this.#parts.log.debug(`the GET stream ended: ${err.message}`, { upstream: this.#parts.upstream }),
    );
  }

  stop(): void {
    this.#abort.abort();
  }

  async #run(): Promise<void> {
    const { upstream, log, settings } = this.#parts;
    const signal = this.#abort.signal;
    const cursor: StreamCursor = {};
    const pumpParts = {
      upstream,
      log,
      name: "the GET stream",
      maxEventBytes: settings.maxFrameBytes,
      deliver: (messages: JSONRPCMessage[], eventId: string | undefined) => {
        for (const msg of messages) this.#parts.sink.message(msg, frameMeta({ kind: "get" }, eventId));
      },
    };
    let attempts = 0;
    for (;;) {
      let res: HttpAnswer | undefined;
      try {
        res = await this.#parts.open(cursor.lastEventId, signal);
      } catch (err) {
        if (signal.aborted) return;
        log.debug(`opening the GET stream failed: ${(err as Error).message}`, { upstream });
      }
      if (res) {
        if (!this.#parts.isStream(res)) {
          await discard(res.body);
          log.debug(`the server offers no GET stream (HTTP ${res.status})`, { upstream });
          return;
        }
        const result = await pump(res.body, cursor, pumpParts);
        if (signal.aborted) return;
        const tooLarge = result.error instanceof FrameTooLargeError;
        if (tooLarge) {
          // No request waits on this stream: say so, and reopen it as after any break.
          log.warn(`${result.error?.message} (on the GET stream, which is reopened)`, {
            upstream,
            maxFrameBytes: settings.maxFrameBytes,
          });
        }
        // A server replaying the same oversized event on every reopening is not progress.
        if (result.progressed && !tooLarge) attempts = 0;
      }
      if (++attempts > settings.sseReconnectAttempts) {
        log.debug(
          `the GET stream ended and ${settings.sseReconnectAttempts} attempts to reopen it brought nothing`,
          {
            upstream,
          },
        );
        return;
      }
      if (!(await sleep(cursor.retry ?? settings.sseReconnectDelay, signal))) return;
    }
  }
}
