/**
 * One resumable SSE stream of a legacy Streamable HTTP session (a POST's answer, or the standalone
 * GET stream). Every event has an id `<stream>_<seq>`, unique in the session and naming its stream,
 * and the last `capacity` events are kept, so a client that lost the connection GETs again with
 * Last-Event-ID and gets what followed, on this stream only. The buffer is a fixed-size ring:
 * memory stays flat however long the stream lives.
 */
import type { ServerResponse } from "node:http";
import type { JSONRPCMessage } from "@mcpx/core";
import { keepAlive, openSse, sseEvent, stalled, writable } from "./sse.js";

/** The reconnection delay a primed stream suggests to a client that loses it (the SSE `retry` field). */
export const PRIME_RETRY_MS = 1000;

interface Buffered {
  seq: number;
  text: string;
}

export class ReplayStream {
  readonly key: string;
  readonly #capacity: number;
  readonly #ring: (Buffered | undefined)[];
  #head = 0;
  #seq = 0;
  #res: ServerResponse | undefined;
  #done = false;
  /** Told when the stream is finished and its last event went out on an open connection. */
  onDelivered: (() => void) | undefined;

  constructor(key: string, capacity: number) {
    this.key = key;
    this.#capacity = Math.max(1, capacity);
    this.#ring = new Array(this.#capacity);
  }

  get attached(): boolean {
    return this.#res !== undefined;
  }

  get done(): boolean {
    return this.#done;
  }

  /**
   * Serves the stream on this response: opens SSE, replays what came after `afterSeq` (when
   * resuming), and ends at once when the stream is already finished. A connection still attached
   * is ended (the client has evidently lost it).
   */
  attach(res: ServerResponse, opts: { afterSeq?: number; prime?: boolean; keepAliveMs?: number } = {}): void {
    const previous = this.#res;
    this.#res = undefined;
    if (previous && writable(previous)) previous.end();
    openSse(res);
    this.#res = res;
    res.once("close", () => {
      if (this.#res === res) this.#res = undefined;
    });
    if (opts.prime) {
      // 2025-11-25: an id and empty data, so the client can resume before anything else came, and
      // how long it should wait before it does (SEP-1699).
      res.write(`retry: ${PRIME_RETRY_MS}\n${sseEvent("", this.#nextId())}`);
    }
    if (opts.afterSeq !== undefined) {
      for (let i = 0; i < this.#capacity; i++) {
        const e = this.#ring[(this.#head + i) % this.#capacity];
        if (e && e.seq > opts.afterSeq) res.write(e.text);
      }
    }
    if (this.#done) this.#finish(res);
    else if (opts.keepAliveMs) keepAlive(res, opts.keepAliveMs);
  }

  /**
   * Bytes written to the open connection that its client has not read yet (bounded: a notification
   * past MAX_QUEUED_BYTES is kept for replay only).
   */
  get queuedBytes(): number {
    return this.#res?.writableLength ?? 0;
  }

  /** Sends a frame (kept for replay); false when no connection took it now. */
  send(frame: JSONRPCMessage): boolean {
    const seq = ++this.#seq;
    const text = sseEvent(JSON.stringify(frame), `${this.key}_${seq}`);
    this.#ring[this.#head] = { seq, text };
    this.#head = (this.#head + 1) % this.#capacity;
    const res = this.#res;
    if (!res || !writable(res) || stalled(res, frame)) return false;
    res.write(text);
    return true;
  }

  /** The stream's last event was sent: the connection ends after it (now, or after a resumption). */
  end(): void {
    this.#done = true;
    if (this.#res) this.#finish(this.#res);
  }

  /** Ends the connection and forgets everything (the session closed). */
  close(): void {
    this.#done = true;
    this.#ring.fill(undefined);
    const res = this.#res;
    this.#res = undefined;
    if (res && writable(res)) res.end();
  }

  #finish(res: ServerResponse): void {
    if (!writable(res)) return;
    res.end(() => this.onDelivered?.());
  }

  #nextId(): string {
    return `${this.key}_${++this.#seq}`;
  }
}

/** The stream key and sequence number of a Last-Event-ID this server wrote; undefined otherwise. */
export function parseEventId(id: string): { key: string; seq: number } | undefined {
  const sep = id.lastIndexOf("_");
  // Digits only, as written: Number() would take "" for 0 (and " 1", "1e3"), and resume a stream
  // from its start on an id this server never wrote.
  const digits = id.slice(sep + 1);
  if (sep <= 0 || !/^\d{1,15}$/.test(digits)) return undefined;
  return { key: id.slice(0, sep), seq: Number(digits) };
}
