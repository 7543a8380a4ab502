/**
 * The server end of an SSE stream as the scripted HTTP fronts keep it: every event is logged with
 * its id, so a client that resumes with Last-Event-ID gets what followed (on this stream only), and
 * the connection can be cut on cue while the stream itself lives on.
 */
import type { ServerResponse } from "node:http";

export interface LoggedEvent {
  id: string | undefined;
  event?: string;
  data: string;
}

export function formatEvent(e: {
  id?: string | undefined;
  event?: string | undefined;
  data: string;
}): string {
  let out = "";
  if (e.id !== undefined) out += `id: ${e.id}\n`;
  if (e.event !== undefined) out += `event: ${e.event}\n`;
  for (const line of e.data.split("\n")) out += `data: ${line}\n`;
  return `${out}\n`;
}

export interface StreamOptions {
  /** Give events ids (resumable) or not. */
  eventIds: boolean;
  /** `retry: <ms>` at the start of each connection. */
  retry: number | undefined;
  /** Open the stream with an event holding only an id and empty data (2025-11-25's priming). */
  prime: boolean;
}

export class SseStream {
  readonly id: string;
  readonly events: LoggedEvent[] = [];
  readonly #options: StreamOptions;
  #res: ServerResponse | undefined;
  /** Events written on the current connection. */
  #written = 0;
  /** Cut the connection once this many events were written on it. */
  cutAfter: number | undefined;
  /** Cut every resumption at once, before replaying anything. */
  cutResumes = false;
  /** The stream's last event (the response) has been produced. */
  done = false;
  /** How many connections the client opened to it (1 + resumptions). */
  connections = 0;
  /** The client closed a connection of this stream before it was done. */
  closedByClient = false;

  constructor(id: string, options: StreamOptions) {
    this.id = id;
    this.#options = options;
  }

  get connected(): boolean {
    return this.#res !== undefined;
  }

  /** Starts a connection: headers, retry, and (first connection only) the priming event. */
  attach(res: ServerResponse, headers: Record<string, string> = {}): void {
    this.connections++;
    res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", ...headers });
    res.flushHeaders();
    this.#res = res;
    this.#written = 0;
    res.on("close", () => {
      if (this.#res !== res) return;
      this.#res = undefined;
      if (!this.done) this.closedByClient = true;
    });
    if (this.#options.retry !== undefined) res.write(`retry: ${this.#options.retry}\n\n`);
    if (this.connections === 1 && this.#options.prime && this.#options.eventIds) this.write("");
  }

  /** Logs an event and writes it if a connection is open (and not due to be cut). */
  write(data: string, event?: string): void {
    const id = this.#options.eventIds ? `${this.id}_${this.events.length + 1}` : undefined;
    const logged: LoggedEvent = event === undefined ? { id, data } : { id, event, data };
    this.events.push(logged);
    this.#send(logged);
  }

  #send(e: LoggedEvent): void {
    const res = this.#res;
    if (!res) return;
    if (this.cutAfter !== undefined && this.#written >= this.cutAfter) {
      this.cut();
      return;
    }
    res.write(formatEvent(e));
    this.#written++;
  }

  /** Ends the current connection without ending the stream (the client may resume). */
  cut(): void {
    const res = this.#res;
    this.#res = undefined;
    res?.end();
  }

  /** The last event is written: end the connection. */
  finish(): void {
    this.done = true;
    const res = this.#res;
    this.#res = undefined;
    res?.end();
  }

  /** A resumption: replay what followed `lastEventId`, then go on live (or end if done). */
  resume(res: ServerResponse, lastEventId: string, headers: Record<string, string> = {}): void {
    this.cutAfter = undefined;
    this.attach(res, headers);
    if (this.cutResumes) {
      this.cut();
      return;
    }
    const at = this.events.findIndex((e) => e.id === lastEventId);
    for (const e of this.events.slice(at + 1)) this.#send(e);
    if (this.done) this.finish();
  }

  /** Writes raw text to the open connection (a malformed event). */
  raw(text: string): void {
    this.#res?.write(text);
  }

  destroy(): void {
    this.#res?.destroy();
    this.#res = undefined;
  }
}

/** The stream an event id belongs to (ids are `<stream>_<n>`). */
export function streamOfEventId(id: string): string {
  const at = id.lastIndexOf("_");
  return at === -1 ? id : id.slice(0, at);
}
