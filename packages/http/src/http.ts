/**
 * The HTTP client of one upstream: a pooled keep-alive undici Agent of its own (closed with the
 * transport, so no socket outlives it) and one rule on top: what goes out carries the configured
 * credentials, so it goes only to the configured origin. A same-origin 307/308 is followed (the
 * method and body stay what they were); any other redirect is an error naming where it pointed.
 * A request that a reused keep-alive socket lost before any answer byte is sent once more, on a
 * fresh connection (see `staleSocketErrors`).
 */
import { subscribe } from "node:diagnostics_channel";
import type { Socket } from "node:net";
import { ConnectionClosedError, ForeignOriginError, HttpStatusError } from "@mcpx/core";
import type { Agent, Client, Dispatcher } from "undici";

// undici is some 20 MiB of RSS once loaded: a gateway whose upstreams are all stdio never loads it.
let undici: Promise<typeof import("undici")> | undefined;
const loadUndici = () => {
  if (!undici) {
    watchSockets();
    undici = import("undici");
  }
  return undici;
};

/**
 * Keep-alive timing. Node's HTTP server (most MCP servers) closes a socket idle for 5 s and says so
 * (`Keep-Alive: timeout=5`); undici's default is to reuse it for 5 - 2 = 3 s. A busy gateway's event
 * loop can run seconds late, so the socket is picked up after the server closed it and the POST fails
 * ("other side closed"). So: an announced timeout less 3 s (5 s → 2 s), 2 s when none is announced
 * (undici's 4 s is near that same 5 s), and never more than 30 s whatever is announced (a middlebox may
 * drop a quiet socket sooner than the server would). A new connection now and then costs little on
 * the LAN-ish paths upstreams sit on; a lost call costs a failed tool call.
 */
const KEEP_ALIVE = {
  keepAliveTimeout: 2_000,
  keepAliveTimeoutThreshold: 3_000,
  keepAliveMaxTimeout: 30_000,
} as const;
const DISPATCHER_OPTIONS = { headersTimeout: 0, bodyTimeout: 0, ...KEEP_ALIVE } as const;

/**
 * The errors of requests that failed on a reused socket closed by the server before any byte of their
 * answer: told apart with undici's diagnostics channels (its errors do not say whether the socket was
 * new). A socket has "served" once an answer's headers came on it; a request sent on a served socket
 * that fails with "other side closed" or ECONNRESET while the socket has read nothing since it was
 * sent lost the race with the server's idle close.
 */
const staleSocketErrors = new WeakSet<object>();
const servedSockets = new WeakSet<Socket>();
const sentOn = new WeakMap<object, { socket: Socket; reused: boolean; bytesRead: number }>();
let watching = false;
function watchSockets(): void {
  if (watching) return;
  watching = true;
  subscribe("undici:client:sendHeaders", (message) => {
    const { request, socket } = message as { request: object; socket: Socket };
    sentOn.set(request, { socket, reused: servedSockets.has(socket), bytesRead: socket.bytesRead });
  });
  subscribe("undici:request:headers", (message) => {
    const sent = sentOn.get((message as { request: object }).request);
    if (sent) servedSockets.add(sent.socket);
  });
  subscribe("undici:request:error", (message) => {
    const { request, error } = message as { request: object; error: unknown };
    const sent = sentOn.get(request);
    if (!sent?.reused || sent.socket.bytesRead !== sent.bytesRead) return;
    const code = (error as { code?: string } | undefined)?.code;
    const message_ = (error as { message?: string } | undefined)?.message;
    const closed = (code === "UND_ERR_SOCKET" && message_ === "other side closed") || code === "ECONNRESET";
    if (closed && typeof error === "object" && error !== null) staleSocketErrors.add(error);
  });
}

export type HttpMethod = "GET" | "POST" | "DELETE";
export type Body = Dispatcher.ResponseData["body"];

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Body;
}

const MAX_REDIRECTS = 5;

export class HttpClient {
  readonly #upstream: string;
  // No header or body timeout: the engine owns request timeouts, and an SSE stream may idle for long.
  // Made on the first request (with undici itself), so a client closed unused never loaded either.
  #agent: Agent | undefined;
  // The one-connection clients of retries, each closed when its answer's body is done.
  readonly #fresh = new Set<Client>();
  #destroyed = false;

  constructor(upstream: string) {
    this.#upstream = upstream;
  }

  async send(
    method: HttpMethod,
    target: URL,
    headers: Record<string, string>,
    body?: string,
    signal?: AbortSignal,
  ): Promise<HttpAnswer> {
    let url = target;
    const { Agent, Client, request } = await loadUndici();
    if (this.#destroyed)
      throw networkError(this.#upstream, method, url, new Error("the client is closed"), signal);
    this.#agent ??= new Agent(DISPATCHER_OPTIONS);
    let retried = false;
    for (let hop = 0; ; hop++) {
      let res: Dispatcher.ResponseData;
      try {
        res = await request(url, { method, headers, body, signal, dispatcher: this.#agent });
      } catch (err) {
        // Safe to send again, POST included, only when a REUSED socket was closed by the server
        // before any byte of the answer: the server closed it idle, before reading this request, so
        // it never saw it. A reset on a fresh socket, or after answer bytes, may have reached the
        // server: that error surfaces as before. Once only, and on a fresh connection (the pool's
        // other idle sockets may be just as stale).
        if (retried || signal?.aborted || this.#destroyed || !staleSocketErrors.has(err as object)) {
          throw networkError(this.#upstream, method, url, err, signal);
        }
        retried = true;
        res = await this.#sendFresh(Client, request, method, url, headers, body, signal);
      }
      if (res.statusCode < 300 || res.statusCode >= 400) {
        return { status: res.statusCode, headers: res.headers, body: res.body };
      }
      await discard(res.body);
      const location = header(res.headers, "location");
      const next = location === undefined ? undefined : safeUrl(location, url);
      if (next && next.origin !== url.origin) {
        throw new ForeignOriginError(
          `upstream ${this.#upstream}: ${method} ${where(url)} was redirected (HTTP ${res.statusCode}) to another origin, ${next.origin}; mcpx sends the credentials of ${url.origin} nowhere else and did not follow it`,
          { status: res.statusCode, origin: url.origin, redirectOrigin: next.origin },
        );
      }
      // The target without its query (it may carry a credential), as every URL mcpx shows.
      const to = next ? where(next) : location === undefined ? "nowhere" : "an invalid URL";
      const answered = `upstream ${this.#upstream}: ${method} ${where(url)} answered HTTP ${res.statusCode} redirecting to ${to}`;
      if (!next || (res.statusCode !== 307 && res.statusCode !== 308)) {
        throw new HttpStatusError(
          res.statusCode,
          "",
          `${answered}; mcpx follows only same-origin 307 and 308 redirects (they keep the method and body)`,
        );
      }
      if (hop >= MAX_REDIRECTS) {
        throw new HttpStatusError(
          res.statusCode,
          "",
          `${answered}; mcpx gave up after ${MAX_REDIRECTS} redirects in a row (a redirect loop?)`,
        );
      }
      url = next;
    }
  }

  /** One request on a connection of its own, closed once the answer's body is read or dropped. */
  async #sendFresh(
    ClientClass: typeof Client,
    request: typeof import("undici").request,
    method: HttpMethod,
    url: URL,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Dispatcher.ResponseData> {
    const client = new ClientClass(url.origin, DISPATCHER_OPTIONS);
    this.#fresh.add(client);
    const done = () => {
      this.#fresh.delete(client);
      client.close().catch(() => {});
    };
    try {
      const res = await request(url, { method, headers, body, signal, dispatcher: client });
      res.body.once("close", done);
      return res;
    } catch (err) {
      done();
      throw networkError(this.#upstream, method, url, err, signal);
    }
  }

  /** Ends every connection at once; pending requests fail. */
  async destroy(): Promise<void> {
    this.#destroyed = true;
    const fresh = [...this.#fresh];
    this.#fresh.clear();
    await Promise.all([
      this.#agent?.destroy().catch(() => {}),
      ...fresh.map((c) => c.destroy().catch(() => {})),
    ]);
  }
}

/** A header of a response, case-insensitively (undici lower-cases names), first value if repeated. */
export function header(headers: HttpAnswer["headers"], name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/** The URL as it may appear in logs and errors: without its query, which may carry a credential. */
export function where(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

/** What a bounded read got: the text, and whether the body was longer than allowed. */
export interface BoundedText {
  /** The body as UTF-8, or its first maxBytes when cut (empty when refused on Content-Length). */
  text: string;
  cut: boolean;
  /** The body's declared length, when it is what refused it. */
  declared?: number;
}

/**
 * Reads a body as UTF-8, at most `maxBytes` of it: past that it stops reading and destroys the body,
 * so memory stays bounded whatever the server sends; a Content-Length over it refuses the body before
 * reading a byte. Rejects when the body breaks.
 */
export async function readBounded(
  body: Body,
  maxBytes: number,
  contentLength?: string,
): Promise<BoundedText> {
  const declared = contentLength === undefined ? Number.NaN : Number(contentLength);
  if (declared > maxBytes) {
    body.destroy();
    return { text: "", cut: true, declared };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let cut = false;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    const room = maxBytes - size;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      size += room;
      cut = true;
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  // Leaving the loop early destroyed the body (and its socket): nothing more is read.
  if (cut) body.destroy();
  return { text: Buffer.concat(chunks, size).toString("utf8"), cut };
}

/** The most of an error status's body that is read: the error shows 200 characters of it anyway. */
export const ERROR_BODY_BYTES = 64 * 1024;

/** Reads a body as text, never failing: what an error status came with, for the error to show. */
export async function readText(body: Body, maxBytes = ERROR_BODY_BYTES): Promise<string> {
  try {
    return (await readBounded(body, maxBytes)).text;
  } catch {
    return "";
  }
}

/** Frees the socket of a response whose body nobody needs. */
export async function discard(body: Body): Promise<void> {
  await body.dump().catch(() => {});
}

function safeUrl(location: string, base: URL): URL | undefined {
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

function networkError(
  upstream: string,
  method: string,
  url: URL,
  err: unknown,
  signal: AbortSignal | undefined,
): ConnectionClosedError {
  if (signal?.aborted) {
    return new ConnectionClosedError(`upstream ${upstream}: ${method} ${where(url)} was aborted`);
  }
  const e = err as { message?: string; code?: string; cause?: { message?: string; code?: string } };
  const cause = e.cause?.message ?? e.message ?? String(err);
  return new ConnectionClosedError(
    `upstream ${upstream}: ${method} ${where(url)} failed: ${cause}`,
    { url: where(url), code: e.cause?.code ?? e.code },
    { cause: err },
  );
}
