/**
 * The HTTP client of one upstream: a pooled keep-alive undici Agent of its own (closed with the
 * transport, so no socket outlives it) and one rule on top: what goes out carries the configured
 * credentials, so it goes only to the configured origin. A same-origin 307/308 is followed (the
 * method and body stay what they were); any other redirect is an error naming where it pointed.
 */
import { ConnectionClosedError, ForeignOriginError, HttpStatusError } from "@mcpx/core";
import type { Agent, Dispatcher } from "undici";

// undici is some 20 MiB of RSS once loaded: a gateway whose upstreams are all stdio never loads it.
let undici: Promise<typeof import("undici")> | undefined;
const loadUndici = () => {
  undici ??= import("undici");
  return undici;
};

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
    const { Agent, request } = await loadUndici();
    if (this.#destroyed)
      throw networkError(this.#upstream, method, url, new Error("the client is closed"), signal);
    this.#agent ??= new Agent({ headersTimeout: 0, bodyTimeout: 0 });
    for (let hop = 0; ; hop++) {
      let res: Dispatcher.ResponseData;
      try {
        res = await request(url, { method, headers, body, signal, dispatcher: this.#agent });
      } catch (err) {
        throw networkError(this.#upstream, method, url, err, signal);
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

  /** Ends every connection at once; pending requests fail. */
  async destroy(): Promise<void> {
    this.#destroyed = true;
    await this.#agent?.destroy().catch(() => {});
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
