/**
 * Following the SSE stream that answers one POST. When it ends before the response to its request:
 * where the revision has resumption (2025-03-26 on: "the client SHOULD issue an HTTP GET … with
 * Last-Event-ID") it is resumed — wait the server's `retry` (or sseReconnectDelay), GET with
 * Last-Event-ID, deliver what comes — at most sseReconnectAttempts times in a row without an event
 * (a server that polls, sending a little each time, is followed as long as it makes progress).
 * Without resumption (2024-11-05, modern), or with no event id to resume from, the request fails at
 * once through the sink, so its caller is not left waiting for a deadline.
 */
import {
  ConnectionClosedError,
  FrameTooLargeError,
  type JSONRPCMessage,
  type Logger,
  type RequestId,
  type RevisionFeatures,
  type TransportSink,
  type UpstreamSettings,
} from "@mcpx/core";
import type { Body, HttpAnswer } from "@mcpx/http";
import { frameMeta, pump, type StreamCursor, sleep } from "./events.js";
import { answers } from "./frames.js";

export interface ResponseStreamParts {
  upstream: string;
  log: Logger;
  sink: TransportSink;
  settings: UpstreamSettings;
  /** The request the POST carried; undefined for a notification or response answered with SSE. */
  requestId: RequestId | undefined;
  signal: AbortSignal;
  /** The features in force when the stream breaks (undefined during the handshake). */
  features(): RevisionFeatures | undefined;
  /** GET with Last-Event-ID. */
  resume(lastEventId: string, signal: AbortSignal): Promise<HttpAnswer>;
  /** Whether an answer is an SSE stream to read. */
  isStream(res: HttpAnswer): boolean;
}

export async function followResponseStream(first: Body, parts: ResponseStreamParts): Promise<void> {
  const { requestId, signal, settings } = parts;
  const name = requestId === undefined ? "a response stream" : `the response stream of request ${requestId}`;
  const cursor: StreamCursor = {};
  let answered = false;
  const pumpParts = {
    upstream: parts.upstream,
    log: parts.log,
    name,
    maxEventBytes: settings.maxFrameBytes,
    deliver(messages: JSONRPCMessage[], eventId: string | undefined) {
      for (const msg of messages) parts.sink.message(msg, frameMeta({ kind: "post", requestId }, eventId));
      if (answers(messages, requestId)) {
        answered = true;
        // Nothing more belongs to this stream ("after the JSON-RPC response has been sent, the server
        // SHOULD close the SSE stream", transports.mdx): one a server leaves open must not keep the
        // connection, call after call.
        body?.destroy();
      }
    },
  };
  const fail = (why: string) => {
    if (requestId !== undefined) {
      parts.sink.requestFailed(
        requestId,
        new ConnectionClosedError(`upstream ${parts.upstream}: ${name} closed before the response${why}`),
      );
    }
  };

  let body: Body | undefined = first;
  let attempts = 0;
  for (;;) {
    const result = body ? await pump(body, cursor, pumpParts) : { progressed: false };
    if ("error" in result && result.error instanceof FrameTooLargeError) {
      // Resuming would replay the same event: the request fails now, naming the limit.
      parts.log.warn(`${result.error.message} (on ${name})`, {
        upstream: parts.upstream,
        maxFrameBytes: settings.maxFrameBytes,
      });
      if (!answered && !signal.aborted && requestId !== undefined)
        parts.sink.requestFailed(requestId, result.error);
      return;
    }
    if (answered || signal.aborted || requestId === undefined) return;
    if ("error" in result && result.error) {
      parts.log.debug(`${name} broke: ${result.error.message}`, { upstream: parts.upstream });
    }
    if (!parts.features()?.resumption) return fail("");
    if (cursor.lastEventId === undefined) {
      return fail(": it carried no event id, so it cannot be resumed");
    }
    attempts = result.progressed ? 1 : attempts + 1;
    if (attempts > settings.sseReconnectAttempts) {
      return fail(`, and ${settings.sseReconnectAttempts} attempts to resume it brought nothing`);
    }
    if (!(await sleep(cursor.retry ?? settings.sseReconnectDelay, signal))) return;
    body = undefined;
    try {
      const res = await parts.resume(cursor.lastEventId, signal);
      if (!parts.isStream(res)) {
        await res.body.dump().catch(() => {});
        return fail(`, and resuming it was refused (HTTP ${res.status})`);
      }
      body = res.body;
    } catch (err) {
      if (signal.aborted) return;
      parts.log.debug(`resuming ${name} failed: ${(err as Error).message}`, { upstream: parts.upstream });
    }
  }
}
