/**
 * One Streamable HTTP upstream. Every frame is its own POST; the answer is a JSON body (one message,
 * a batch, or JSON lines), an SSE stream, or 202. What differs by revision reaches it through `negotiated`:
 * sessions, the standalone GET stream, resumption. It never interprets a frame beyond its id.
 */
import {
  ConnectionClosedError,
  encodeFrame,
  FrameTooLargeError,
  HttpStatusError,
  isRequest,
  type JSONRPCMessage,
  type NegotiatedSession,
  type RequestId,
  type SendOptions,
  SessionExpiredError,
  type Transport,
  type TransportCapabilities,
  type TransportContext,
  type UpstreamTarget,
} from "@mcpx/core";
import {
  discard,
  type HttpAnswer,
  HttpClient,
  header,
  readText,
  sendWithCredentials,
  where,
} from "@mcpx/http";
import { parseQuietly } from "./error-body.js";
import { answers } from "./frames.js";
import { GetStream } from "./get-stream.js";
import { type JsonBodyEnd, readJsonBody } from "./json-body.js";
import { followResponseStream } from "./resumption.js";
import { mergeHeaders, SESSION_HEADER, Session } from "./session.js";

const POST_HEADERS = { Accept: "application/json, text/event-stream", "Content-Type": "application/json" };
/** The longest close() waits for the DELETE of the session. */
const DELETE_TIMEOUT_MS = 1000;

/**
 * Every frame is a POST of its own, with the revision's headers; a request's answer comes on its own
 * response, which closing cancels (2026-07-28); legacy servers mint sessions.
 */
export const STREAMABLE_HTTP_CAPABILITIES: TransportCapabilities = Object.freeze({
  headers: true,
  abortableSends: true,
  perRequestStreams: true,
  sessions: true,
});

export class StreamableHttpTransport implements Transport {
  readonly kind = "streamable-http";
  readonly capabilities = STREAMABLE_HTTP_CAPABILITIES;
  readonly #target: UpstreamTarget;
  readonly #ctx: TransportContext;
  readonly #url: URL;
  readonly #http: HttpClient;
  readonly #session = new Session();
  /** Every POST (and its stream) in flight, so close() can end them. */
  readonly #inflight = new Set<AbortController>();
  #get: GetStream | undefined;
  #closed = false;

  constructor(target: UpstreamTarget, ctx: TransportContext) {
    this.#url = httpUrl(target);
    this.#target = target;
    this.#ctx = ctx;
    this.#http = new HttpClient(target.name);
  }

  /** The session id the server gave, while there is one (for tests and status). */
  get sessionId(): string | undefined {
    return this.#session.id;
  }

  open(): Promise<void> {
    // Nothing to open: every frame is a POST of its own.
    return this.#closed ? Promise.reject(this.#closedError()) : Promise.resolve();
  }

  async send(msg: JSONRPCMessage, opts: SendOptions = {}): Promise<void> {
    if (this.#closed) throw this.#closedError();
    const requestId = isRequest(msg) ? msg.id : undefined;
    const controller = new AbortController();
    const outer = opts.signal;
    const onAbort = () => controller.abort(outer?.reason);
    if (outer?.aborted) throw this.#aborted();
    outer?.addEventListener("abort", onAbort, { once: true });
    this.#inflight.add(controller);
    const release = () => {
      outer?.removeEventListener("abort", onAbort);
      this.#inflight.delete(controller);
    };

    const sessionHeader = this.#session.headerFor(opts.era);
    const headers = mergeHeaders(this.#target.headers, opts.headers, POST_HEADERS, sessionHeader);
    let res: HttpAnswer;
    // Live credentials (OAuth) are asked for and answer the upstream's 401 or 403; a static scheme's
    // headers are already in the target's, and its POST is the one send it always was.
    try {
      res = await sendWithCredentials(
        this.#http,
        this.#target.auth,
        "POST",
        this.#url,
        headers,
        encodeFrame(msg),
        controller.signal,
      );
    } catch (err) {
      release();
      throw err;
    }
    this.#session.adopt(res);
    let streaming = false;
    try {
      const sentSession = sessionHeader[SESSION_HEADER];
      if (res.status === 404 && sentSession !== undefined) {
        await discard(res.body);
        this.#expire(sentSession);
        throw new SessionExpiredError(
          `upstream ${this.#target.name}: the server no longer knows the session (HTTP 404); a new one is needed`,
        );
      }
      if (res.status < 200 || res.status >= 300) return await this.#errorStatus(res, requestId);
      if (this.#isStream(res)) {
        streaming = true;
        this.#follow(res, requestId, controller.signal).finally(release);
        return;
      }
      await this.#jsonBody(res, requestId, controller.signal);
    } finally {
      if (!streaming) release();
    }
  }

  /** An error status: a JSON-RPC answer to the request goes to the sink; anything else rejects. */
  async #errorStatus(res: HttpAnswer, requestId: RequestId | undefined): Promise<void> {
    const body = await readText(res.body);
    const messages = requestId === undefined ? undefined : parseQuietly(body);
    if (requestId === undefined || !messages) {
      throw new HttpStatusError(
        res.status,
        body,
        `upstream ${this.#target.name}: POST ${where(this.#url)} answered HTTP ${res.status}${body ? `: ${body.slice(0, 200)}` : " with an empty body"}`,
      );
    }
    // An error with id null here answers this POST's request: the client matches it by `via.requestId`.
    this.#deliverPost(messages, requestId);
  }

  /**
   * A JSON body: one message, or JSON lines delivered in order as they arrive (json-body.ts). The
   * request is answered by its line; a line that cannot be read is skipped, logged by its number,
   * and named again when the request goes unanswered.
   */
  async #jsonBody(res: HttpAnswer, requestId: RequestId | undefined, signal: AbortSignal): Promise<void> {
    const limit = this.#ctx.settings.maxFrameBytes;
    const upstream = this.#target.name;
    let answered = false;
    let skipped: string | undefined;
    let end: JsonBodyEnd;
    try {
      end = await readJsonBody(res.body, limit, header(res.headers, "content-length"), {
        deliver: (messages) => {
          if (answers(messages, requestId)) answered = true;
          this.#deliverPost(messages, requestId);
        },
        unreadable: (line, err) => {
          const what = line === 0 ? "a JSON body" : `line ${line} of a JSON body`;
          skipped ??= `${what} could not be read: ${err.message}`;
          this.#ctx.log.warn(
            `upstream ${upstream} sent ${what} that mcpx cannot read; skipped: ${err.message}`,
            {
              upstream,
            },
          );
        },
      });
    } catch (err) {
      if (signal.aborted) throw this.#aborted();
      throw new ConnectionClosedError(
        `upstream ${upstream}: reading the answer of POST ${where(this.#url)} failed: ${(err as Error).message}`,
      );
    }
    if (end.cut) {
      // Read no further than the limit (or not at all, on its Content-Length): the POST's request fails.
      const size = end.declared ?? limit;
      const error = new FrameTooLargeError(
        upstream,
        { what: "a JSON body", size, atLeast: end.declared === undefined },
        limit,
      );
      this.#ctx.log.warn(error.message, { upstream, maxFrameBytes: limit });
      if (!answered) throw error;
      return;
    }
    if (requestId !== undefined && !answered) {
      // A request is answered on its own POST or not at all (a legacy server answers 202 only to
      // notifications and responses): say so now rather than at the deadline.
      this.#ctx.sink.requestFailed(
        requestId,
        new ConnectionClosedError(
          `upstream ${upstream}: POST ${where(this.#url)} answered HTTP ${res.status} without the response to request ${requestId}${skipped ? ` (${skipped})` : ""}`,
        ),
      );
    }
  }

  /** Messages of a JSON body: no event ids there. */
  #deliverPost(messages: JSONRPCMessage[], requestId: RequestId | undefined): void {
    for (const msg of messages) this.#ctx.sink.message(msg, { via: { kind: "post", requestId } });
  }

  #follow(res: HttpAnswer, requestId: RequestId | undefined, signal: AbortSignal): Promise<void> {
    return followResponseStream(res.body, {
      upstream: this.#target.name,
      log: this.#ctx.log,
      sink: this.#ctx.sink,
      settings: this.#ctx.settings,
      requestId,
      signal,
      features: () => this.#session.negotiated?.features,
      resume: (lastEventId, s) => this.#getRequest(lastEventId, s),
      isStream: (r) => this.#isStream(r),
    }).catch((err: Error) =>
      this.#ctx.log.debug(`a response stream ended: ${err.message}`, { upstream: this.#target.name }),
    );
  }

  /** A GET of the endpoint: the standalone stream, or the resumption of a broken one. */
  #getRequest(lastEventId: string | undefined, signal: AbortSignal): Promise<HttpAnswer> {
    const headers = mergeHeaders(
      this.#target.headers,
      { Accept: "text/event-stream" },
      this.#session.ownHeaders(),
      lastEventId === undefined ? undefined : { "Last-Event-ID": lastEventId },
    );
    return sendWithCredentials(this.#http, this.#target.auth, "GET", this.#url, headers, undefined, signal);
  }

  #isStream(res: HttpAnswer): boolean {
    const type = header(res.headers, "content-type") ?? "";
    return res.status >= 200 && res.status < 300 && type.toLowerCase().includes("text/event-stream");
  }

  negotiated(session: NegotiatedSession): void {
    this.#session.settle(session);
    this.#get?.stop();
    this.#get = undefined;
    if (this.#closed || session.era !== "legacy" || !session.features.standaloneGet) return;
    this.#get = new GetStream({
      upstream: this.#target.name,
      log: this.#ctx.log,
      sink: this.#ctx.sink,
      settings: this.#ctx.settings,
      open: (lastEventId, signal) => this.#getRequest(lastEventId, signal),
      isStream: (r) => this.#isStream(r),
    });
    this.#get.start();
  }

  #expire(sentSession: string): void {
    if (this.#session.id !== sentSession) return;
    this.#session.expire(sentSession);
    this.#get?.stop();
    this.#get = undefined;
  }

  /** Ends the GET stream and every POST stream, then DELETEs the session (a 405 is fine). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#get?.stop();
    this.#get = undefined;
    for (const c of this.#inflight) c.abort();
    this.#inflight.clear();
    const negotiated = this.#session.negotiated;
    if (this.#session.id !== undefined && negotiated?.era === "legacy") {
      const headers = mergeHeaders(this.#target.headers, this.#session.ownHeaders());
      try {
        const signal = AbortSignal.timeout(DELETE_TIMEOUT_MS);
        const res = await sendWithCredentials(
          this.#http,
          this.#target.auth,
          "DELETE",
          this.#url,
          headers,
          undefined,
          signal,
        );
        await discard(res.body);
        this.#ctx.log.debug(`DELETE of the session answered HTTP ${res.status}`, {
          upstream: this.#target.name,
        });
      } catch (err) {
        this.#ctx.log.debug(`DELETE of the session failed: ${(err as Error).message}`, {
          upstream: this.#target.name,
        });
      }
    }
    this.#session.expire();
    await this.#http.destroy();
  }

  #closedError(): ConnectionClosedError {
    return new ConnectionClosedError(`upstream ${this.#target.name}: connection closed`);
  }

  #aborted(): ConnectionClosedError {
    return new ConnectionClosedError(`upstream ${this.#target.name}: POST ${where(this.#url)} was aborted`);
  }
}

function httpUrl(target: UpstreamTarget): URL {
  let url: URL;
  try {
    url = new URL(target.url ?? "");
  } catch {
    throw new ConnectionClosedError(`upstream ${target.name} has no valid http(s) URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConnectionClosedError(`upstream ${target.name}: ${url.protocol} is not an http(s) URL`);
  }
  return url;
}
