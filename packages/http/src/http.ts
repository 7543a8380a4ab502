/**
 * The HTTP client of one upstream: a pooled keep-alive undici Agent of its own (closed with the
 * transport, so no socket outlives it) and one rule on top: what goes out carries the configured
 * credentials, so it goes only to the configured origin. A same-origin 307/308 is followed (the
 * method and body stay what they were); any other redirect is an error naming where it pointed.
 */
import { ConnectionClosedError, ForeignOriginError, HttpStatusError } from "@mcpx/core";
import { Agent, type Dispatcher, request } from "undici";

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
  readonly #agent = new Agent({ headersTimeout: 0, bodyTimeout: 0 });

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
      if (!next || (res.statusCode !== 307 && res.statusCode !== 308) || hop >= MAX_REDIRECTS) {
        throw new HttpStatusError(
          res.statusCode,
          "",
          `upstream ${this.#upstream}: ${method} ${where(url)} answered HTTP ${res.statusCode} redirecting to ${location ?? "nowhere"}; mcpx follows only same-origin 307 and 308 redirects, at most ${MAX_REDIRECTS}`,
        );
      }
      url = next;
    }
  }

  /** Ends every connection at once; pending requests fail. */
  async destroy(): Promise<void> {
    await this.#agent.destroy().catch(() => {});
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

/** Reads a body as text, never failing: what an error status came with, for the error to show. */
export async function readText(body: Body): Promise<string> {
  try {
    return await body.text();
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
