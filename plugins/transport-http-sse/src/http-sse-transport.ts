/**
 * The HTTP+SSE transport of 2024-11-05. open() GETs the URL and waits for the `endpoint` event; every
 * frame is then POSTed there, and everything the server says arrives as `message` events on the
 * stream. The endpoint must be on the stream's origin: it is where every message and the configured
 * credentials go, and a server able to name any URL could otherwise have mcpx post them anywhere.
 */
import {
  ConnectionClosedError,
  decodeMessages,
  encodeFrame,
  ForeignOriginError,
  FrameTooLargeError,
  HttpStatusError,
  type JSONRPCMessage,
  type NegotiatedSession,
  type SendOptions,
  type Transport,
  type TransportCapabilities,
  type TransportContext,
  type UpstreamTarget,
} from "@mcpx/core";
import {
  discard,
  type EventSourceMessage,
  type HttpAnswer,
  HttpClient,
  header,
  readSse,
  readText,
  sendWithCredentials,
  where,
} from "@mcpx/http";

/**
 * Every frame is a POST of its own (with headers, ended by its signal), but every answer comes on the
 * one SSE stream: closing a POST cancels nothing. The endpoint the stream names is the session.
 */
export const HTTP_SSE_CAPABILITIES: TransportCapabilities = Object.freeze({
  headers: true,
  abortableSends: true,
  perRequestStreams: false,
  sessions: true,
});

export class HttpSseTransport implements Transport {
  readonly kind = "http+sse";
  readonly capabilities = HTTP_SSE_CAPABILITIES;
  readonly #target: UpstreamTarget;
  readonly #ctx: TransportContext;
  readonly #url: URL;
  readonly #http: HttpClient;
  readonly #stream = new AbortController();
  #endpoint: URL | undefined;
  #closing = false;
  #ended: Error | undefined;

  constructor(target: UpstreamTarget, ctx: TransportContext) {
    this.#url = httpUrl(target);
    this.#target = target;
    this.#ctx = ctx;
    this.#http = new HttpClient(target.name);
  }

  /** Where frames are POSTed, once the endpoint event has named it. */
  get endpoint(): string | undefined {
    return this.#endpoint?.href;
  }

  async open(): Promise<void> {
    const name = this.#target.name;
    const timeout = this.#ctx.settings.handshakeTimeout;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      this.#stream.abort();
    }, timeout);
    try {
      const res = await this.#send(
        "GET",
        this.#url,
        this.#headers({ Accept: "text/event-stream" }),
        undefined,
        this.#stream.signal,
      ).catch((err: Error) => {
        throw timedOut ? this.#noEndpoint(timeout) : err;
      });
      if (!isStream(res)) {
        const body = await readText(res.body);
        throw new HttpStatusError(
          res.status,
          body,
          `upstream ${name}: GET ${where(this.#url)} answered HTTP ${res.status} (${header(res.headers, "content-type") ?? "no content type"}), not an SSE stream`,
        );
      }
      await this.#awaitEndpoint(res, () => (timedOut ? this.#noEndpoint(timeout) : undefined));
    } catch (err) {
      this.#stream.abort();
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Reads the stream in the background; resolves once the endpoint event has been accepted. */
  #awaitEndpoint(res: HttpAnswer, timeoutError: () => Error | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const onEvent = (e: EventSourceMessage) => {
        if (this.#endpoint) return this.#message(e);
        if (e.event !== "endpoint") {
          this.#ctx.log.debug("an SSE event before the endpoint event was ignored", {
            upstream: this.#target.name,
          });
          return;
        }
        try {
          this.#endpoint = this.#acceptEndpoint(e.data.trim());
          resolve();
        } catch (err) {
          this.#stream.abort();
          reject(err);
        }
      };
      readSse(
        res.body,
        {
          event: onEvent,
          retry: () => {},
          problem: (m) => this.#ctx.log.debug(`SSE: ${m}`, { upstream: this.#target.name }),
        },
        { upstream: this.#target.name, maxEventBytes: this.#ctx.settings.maxFrameBytes },
      ).then(
        () => this.#streamEnded(undefined, reject, timeoutError),
        (err: Error) => this.#streamEnded(err, reject, timeoutError),
      );
    });
  }

  #acceptEndpoint(data: string): URL {
    let endpoint: URL;
    try {
      endpoint = new URL(data, this.#url);
    } catch {
      throw new ConnectionClosedError(
        `upstream ${this.#target.name}: the endpoint event names no URL (${JSON.stringify(data.slice(0, 80))})`,
      );
    }
    if (endpoint.origin !== this.#url.origin) {
      throw new ForeignOriginError(
        `upstream ${this.#target.name}: the endpoint event names ${endpoint.origin}, another origin than the stream's ${this.#url.origin}; mcpx sends nothing there`,
        { streamOrigin: this.#url.origin, endpointOrigin: endpoint.origin },
      );
    }
    return endpoint;
  }

  #message(e: EventSourceMessage): void {
    if (e.event !== undefined && e.event !== "message") return;
    let messages: JSONRPCMessage[];
    try {
      messages = decodeMessages(e.data);
    } catch (err) {
      this.#ctx.log.warn(
        `upstream ${this.#target.name} sent an SSE message mcpx cannot read; skipped: ${(err as Error).message}`,
        { upstream: this.#target.name },
      );
      return;
    }
    for (const msg of messages) {
      this.#ctx.sink.message(msg, e.id ? { via: { kind: "sse" }, eventId: e.id } : { via: { kind: "sse" } });
    }
  }

  #streamEnded(
    err: Error | undefined,
    reject: (e: Error) => void,
    timeoutError: () => Error | undefined,
  ): void {
    const name = this.#target.name;
    // An event over upstream.maxFrameBytes ends the channel; its error, naming the limit, is what
    // every pending request (and the open) fails with.
    const tooLarge = err instanceof FrameTooLargeError ? err : undefined;
    if (tooLarge) {
      this.#ctx.log.warn(`${tooLarge.message}; the SSE stream is closed`, {
        upstream: name,
        maxFrameBytes: tooLarge.limit,
      });
    }
    if (!this.#endpoint) {
      reject(
        timeoutError() ??
          tooLarge ??
          new ConnectionClosedError(
            `upstream ${name}: the SSE stream of ${where(this.#url)} ended before the endpoint event${err ? `: ${err.message}` : ""}`,
          ),
      );
      return;
    }
    const error =
      tooLarge ??
      new ConnectionClosedError(
        `upstream ${name}: the SSE stream of ${where(this.#url)} ${err ? `broke: ${err.message}` : "ended"}`,
      );
    this.#ended = error;
    if (this.#closing) return;
    if (!tooLarge) this.#ctx.log.warn("the SSE stream ended", { upstream: name });
    this.#ctx.sink.closed(error);
  }

  async send(msg: JSONRPCMessage, opts: SendOptions = {}): Promise<void> {
    const endpoint = this.#endpoint;
    if (!endpoint || this.#ended || this.#closing) {
      throw this.#ended ?? new ConnectionClosedError(`upstream ${this.#target.name}: not connected`);
    }
    const headers = this.#headers(opts.headers, { "Content-Type": "application/json" });
    const res = await this.#send("POST", endpoint, headers, encodeFrame(msg), opts.signal);
    if (res.status >= 200 && res.status < 300) {
      await discard(res.body);
      return;
    }
    const body = await readText(res.body);
    throw new HttpStatusError(
      res.status,
      body,
      `upstream ${this.#target.name}: POST ${where(endpoint)} answered HTTP ${res.status}${body ? `: ${body.slice(0, 200)}` : ""}`,
    );
  }

  negotiated(_session: NegotiatedSession): void {
    // 2024-11-05 is the only revision of this transport: nothing changes after the handshake.
  }

  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    this.#stream.abort();
    await this.#http.destroy();
  }

  /**
   * One HTTP request. Live credentials (OAuth) are asked for and answer the upstream's 401 or 403; a
   * static scheme's headers are already in the target's, and its request is one send as it was.
   */
  #send(
    method: "GET" | "POST",
    url: URL,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<HttpAnswer> {
    return sendWithCredentials(this.#http, this.#target.auth, method, url, headers, body, signal);
  }

  #headers(...sets: (Record<string, string> | undefined)[]): Record<string, string> {
    const byLower = new Map<string, [string, string]>();
    for (const set of [this.#target.headers, ...sets]) {
      for (const [k, v] of Object.entries(set ?? {})) byLower.set(k.toLowerCase(), [k, v]);
    }
    return Object.fromEntries(byLower.values());
  }

  #noEndpoint(timeout: number): ConnectionClosedError {
    return new ConnectionClosedError(
      `upstream ${this.#target.name}: no endpoint event on ${where(this.#url)} within ${timeout} ms`,
    );
  }
}

function isStream(res: HttpAnswer): boolean {
  const type = header(res.headers, "content-type") ?? "";
  return res.status >= 200 && res.status < 300 && type.toLowerCase().includes("text/event-stream");
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
