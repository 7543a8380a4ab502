/**
 * A request to an upstream whose credentials change while it is connected (core LiveCredentials,
 * an OAuth token): the credentials' headers go on top of the request's, and a 401 or 403 is told to
 * them as data (status, WWW-Authenticate, URL, never the body). When they renew, the same request
 * goes again, at most AUTH_CHALLENGE_LIMIT times; otherwise the refusal is the answer, for the
 * transport to report as it would any status. A DPoP-Nonce on any answer goes to them too (the
 * refusal's in the challenge, another's through answered()), so that the transports stay
 * auth-agnostic. Without live credentials (a static scheme, whose
 * headers are already in the request's) it is the one HttpClient.send it always was: no extra await.
 */
import { AUTH_CHALLENGE_LIMIT, type LiveCredentials } from "@mcpx/core";
import { discard, type HttpAnswer, type HttpClient, type HttpMethod, where } from "./http.js";

export function sendWithCredentials(
  http: HttpClient,
  auth: LiveCredentials | undefined,
  method: HttpMethod,
  url: URL,
  headers: Record<string, string>,
  body?: string,
  signal?: AbortSignal,
): Promise<HttpAnswer> {
  return auth === undefined
    ? http.send(method, url, headers, body, signal)
    : sendLive(http, auth, method, url, headers, body, signal);
}

async function sendLive(
  http: HttpClient,
  auth: LiveCredentials,
  method: HttpMethod,
  url: URL,
  headers: Record<string, string>,
  body: string | undefined,
  signal: AbortSignal | undefined,
): Promise<HttpAnswer> {
  for (let attempt = 0; ; attempt++) {
    const own = auth.headers(method, url);
    const sent = withHeaders(headers, own instanceof Promise ? await own : own);
    const res = await http.send(method, url, sent, body, signal);
    const nonce = first(res.headers["dpop-nonce"]);
    const refused = res.status === 401 || res.status === 403;
    if (!refused && nonce !== undefined)
      auth.answered?.({ status: res.status, url: where(url), dpopNonce: nonce });
    if (!refused || attempt >= AUTH_CHALLENGE_LIMIT) return res;
    let again: boolean;
    try {
      const proof = headerOf(sent, "dpop");
      again = await auth.challenged({
        status: res.status,
        wwwAuthenticate: joined(res.headers["www-authenticate"]),
        url: where(url),
        attempt,
        authorization: headerOf(sent, "authorization"),
        ...(proof === undefined ? {} : { dpop: proof }),
        ...(nonce === undefined ? {} : { dpopNonce: nonce }),
      });
    } catch (err) {
      await discard(res.body);
      throw err;
    }
    if (!again) return res;
    await discard(res.body);
  }
}

/** The request's headers with the credentials' on top, whatever the case of their names. */
function withHeaders(base: Record<string, string>, own: Record<string, string>): Record<string, string> {
  const names = Object.keys(own);
  if (names.length === 0) return base;
  const lower = new Set(names.map((n) => n.toLowerCase()));
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (!lower.has(k.toLowerCase())) out[k] = v;
  return Object.assign(out, own);
}

/** A header that came more than once is one list (RFC 9110 §5.3): WWW-Authenticate may. */
function joined(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(", ") : value;
}

/** A header the request carried, whatever the case of its name (`name` in lower case). */
function headerOf(headers: Record<string, string>, name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}

/** A header that must come once (DPoP-Nonce): its first value. */
function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
