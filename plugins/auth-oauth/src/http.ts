/**
 * How the plugin talks to authorization servers and metadata documents: HTTPS, except to a loopback
 * address (a server on the same machine, and every test), as OAuth 2.1 §1.5 and each revision's
 * "Communication Security" allow for localhost; a timeout on every request; documents read up to a
 * bound, as everything read from a server.
 */
import { allowInsecureRequests } from "oauth4webapi";

/** No authorization server request waits longer (the MCP request it serves has its own timeout). */
export const REQUEST_TIMEOUT_MS = 15_000;
/** Larger than any metadata document or token response; the rest is not read. */
export const MAX_DOCUMENT_BYTES = 256 * 1024;

export function isLoopback(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/** Whether a request may go to `url`: HTTPS, or HTTP to a loopback address. */
export function allowedUrl(url: URL): boolean {
  return url.protocol === "https:" || (url.protocol === "http:" && isLoopback(url));
}

/** oauth4webapi's options for a request to `url`: plain HTTP allowed for loopback only. */
export function requestOptions(url: string | URL | undefined): {
  [allowInsecureRequests]?: boolean;
  signal: AbortSignal;
} {
  const parsed = url === undefined ? undefined : parseUrl(String(url));
  const insecure = parsed?.protocol === "http:" && isLoopback(parsed);
  return {
    ...(insecure ? { [allowInsecureRequests]: true } : {}),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  };
}

export function parseUrl(text: string, base?: URL): URL | undefined {
  try {
    return new URL(text, base);
  } catch {
    return undefined;
  }
}

export interface FetchedJson {
  status: number;
  /** The body as JSON: undefined when it is not JSON (or not an object). */
  json: Record<string, unknown> | undefined;
}

/** GETs a JSON document, reading at most MAX_DOCUMENT_BYTES of it. */
export async function fetchJson(url: URL, headers: Record<string, string> = {}): Promise<FetchedJson> {
  const res = await fetch(url, {
    headers: { Accept: "application/json", ...headers },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await readBounded(res);
  let json: unknown;
  try {
    json = text === undefined ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  const object = typeof json === "object" && json !== null && !Array.isArray(json);
  return { status: res.status, json: object ? (json as Record<string, unknown>) : undefined };
}

async function readBounded(res: Response): Promise<string | undefined> {
  if (!res.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > MAX_DOCUMENT_BYTES) {
      await res.body.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
