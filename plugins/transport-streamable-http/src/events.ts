/**
 * One SSE connection read to its end, remembering what a reconnection needs: the last event id and
 * the server's `retry`. Messages go to `deliver` with the id of the event that carried them.
 */
import type { FrameMeta, FrameSource, JSONRPCMessage, Logger } from "@mcpx/core";
import type { Body } from "@mcpx/http";
import { readSse } from "@mcpx/http";
import { readFrames } from "./frames.js";

export interface StreamCursor {
  lastEventId?: string;
  retry?: number;
}

export interface PumpResult {
  /** At least one event arrived (a priming event counts: it moved the cursor). */
  progressed: boolean;
  /** Why the connection ended, when it broke rather than ended. */
  error?: Error;
}

export interface PumpParts {
  upstream: string;
  log: Logger;
  /** Names the stream in log lines ("the GET stream", "the response stream of request 3"). */
  name: string;
  /** The largest event taken (upstream.maxFrameBytes); a larger one breaks the stream. */
  maxEventBytes: number;
  deliver(messages: JSONRPCMessage[], eventId: string | undefined): void;
}

export async function pump(body: Body, cursor: StreamCursor, parts: PumpParts): Promise<PumpResult> {
  let progressed = false;
  const limits = { upstream: parts.upstream, maxEventBytes: parts.maxEventBytes };
  try {
    await readSse(
      body,
      {
        event(e) {
          progressed = true;
          // An empty id resets the last event id (SSE); there is then nothing to resume from.
          if (e.id !== undefined) cursor.lastEventId = e.id === "" ? undefined : e.id;
          if (e.event !== undefined && e.event !== "message") {
            parts.log.debug(`ignored an SSE event of type ${e.event} on ${parts.name}`, {
              upstream: parts.upstream,
            });
            return;
          }
          const messages = readFrames(e.data, parts.log, parts.upstream, `an SSE event on ${parts.name}`);
          if (messages.length > 0) parts.deliver(messages, e.id === "" ? undefined : e.id);
        },
        retry(ms) {
          cursor.retry = ms;
        },
        problem(message) {
          parts.log.debug(`SSE on ${parts.name}: ${message}`, { upstream: parts.upstream });
        },
      },
      limits,
    );
    return { progressed };
  } catch (err) {
    return { progressed, error: err as Error };
  }
}

/** Waits, unless the signal aborts first; resolves false when it did. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** The meta of a frame that arrived on an SSE stream or a POST's answer. */
export function frameMeta(via: FrameSource, eventId: string | undefined): FrameMeta {
  return eventId === undefined ? { via } : { via, eventId };
}
