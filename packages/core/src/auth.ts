/** An auth scheme turns a server's `auth` config into headers, environment or query parameters. */
import type { JSONObject } from "./jsonrpc.js";

export interface AuthEffect {
  /** Sent on every HTTP request to the configured origin, never to another. */
  headers?: Record<string, string>;
  /** Added to a stdio child's environment. */
  env?: Record<string, string>;
  /** Added to the URL's query string (only when a config declares it: tokens do not belong there). */
  query?: Record<string, string>;
  /**
   * Credentials that change while the upstream is connected (OAuth's tokens): asked before each HTTP
   * request and again when the upstream refuses one. HTTP upstreams only. A static scheme has none,
   * and nothing on the path of a call changes for it.
   */
  live?: LiveCredentials;
}

export interface AuthTarget {
  name: string;
  url?: string;
  command?: string;
  /** Where a scheme may keep what it must remember across runs (tokens): the state directory. */
  stateDir?: string;
}

/**
 * What an upstream answered when it refused a request (HTTP 401 or 403), as data. Never the body:
 * what a scheme acts on is the status and the challenge (RFC 9110 §11.6.1, RFC 6750 §3).
 */
export interface AuthChallenge {
  status: number;
  /** The WWW-Authenticate header; its values joined with ", " when it came more than once. */
  wwwAuthenticate: string | undefined;
  /** The refused request's URL, origin and path (its query may hold a credential). */
  url: string;
  /** How many challenges the same request met before this one, from 0. */
  attempt: number;
  /**
   * The Authorization header the refused request carried: a credential renewed since it was sent
   * needs no new flow, only a second try.
   */
  authorization: string | undefined;
  /**
   * The DPoP proof the refused request carried (RFC 9449 §4), if any: which nonce it already had
   * tells a scheme whether a use_dpop_nonce refusal is worth one more try.
   */
  dpop?: string;
  /** The refusal's DPoP-Nonce header (RFC 9449 §9): the nonce the next proof must carry. */
  dpopNonce?: string;
}

/**
 * What a scheme may learn from an answer the upstream did not refuse: a DPoP-Nonce header (RFC 9449
 * §9), the nonce the upstream wants in the proofs that follow. Nothing else, and never the body.
 */
export interface AuthAnswer {
  status: number;
  /** The request's URL, origin and path. */
  url: string;
  dpopNonce: string;
}

/**
 * The live facet of a scheme (AuthEffect.live). The transports ask it for headers before each
 * request and tell it of each 401 or 403; the request is sent again once per renewal, at most
 * AUTH_CHALLENGE_LIMIT times.
 */
export interface LiveCredentials {
  /**
   * The headers of a request about to go out: at once while the credential is fresh, a promise when
   * it must be renewed first (a token about to expire).
   */
  headers(method: string, url: URL): Record<string, string> | Promise<Record<string, string>>;
  /**
   * The upstream refused a request. Resolves true when the credentials were renewed and the request
   * should go again, false to let the refusal stand; rejects with a named error (the user must log
   * in, the authorization server was refused) when neither.
   */
  challenged(challenge: AuthChallenge): Promise<boolean>;
  /**
   * An answer that was not a refusal carried something for the credentials (a DPoP-Nonce). Optional:
   * only a scheme that signs each request (DPoP) has a use for it.
   */
  answered?(answer: AuthAnswer): void;
  /** The text with every credential this facet produced taken out (for error paths only). */
  redact(text: string): string;
}

/** At most this many renewals per request: a server refusing every credential ends in an error. */
export const AUTH_CHALLENGE_LIMIT = 3;

export interface AuthScheme {
  /** The `auth.type` this scheme answers to. */
  readonly type: string;
  /** JSON Schema of the rest of the `auth` object, checked before apply. */
  readonly optionsSchema?: JSONObject;
  apply(options: JSONObject, target: AuthTarget): AuthEffect | Promise<AuthEffect>;
}

// ---------------------------------------------------------------------------------------------
// What an AuthEffect may hold. Each check returns the rule broken (to follow a key path, as
// @mcpx/host's describeSchemaErrors does) or undefined; a rule never quotes the value, which may
// be a credential.

/** RFC 9110 field-name: 1*tchar. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** RFC 9110 field-value: visible ASCII or obs-text, inner spaces and tabs, nothing around it. */
const FIELD_VALUE = /^(?:[\x21-\x7e\x80-\xff](?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)?$/;

/**
 * Headers no auth scheme may set: those HTTP itself owns (framing, the connection, the host), and
 * the MCP protocol headers the revision and the transport derive from each frame (Mcp-Param-* too).
 */
export const RESERVED_HEADERS: readonly string[] = [
  "Host",
  "Content-Length",
  "Transfer-Encoding",
  "Connection",
  "MCP-Protocol-Version",
  "Mcp-Session-Id",
  "Mcp-Method",
  "Mcp-Name",
  "Mcp-Param-*",
];

export function authHeaderNameProblem(name: string): string | undefined {
  if (!TOKEN.test(name))
    return "must be a header name (an RFC 9110 token: letters, digits and !#$%&'*+-.^_`|~)";
  const lower = name.toLowerCase();
  const reserved = RESERVED_HEADERS.find((h) =>
    h.endsWith("*") ? lower.startsWith(h.slice(0, -1).toLowerCase()) : lower === h.toLowerCase(),
  );
  if (reserved === undefined) return undefined;
  return reserved.toLowerCase().startsWith("mcp")
    ? `${name} is an MCP protocol header, which mcpx sets from each frame; credentials cannot go there`
    : `${name} is set by HTTP itself; credentials cannot go there`;
}

export function authHeaderValueProblem(value: string): string | undefined {
  return FIELD_VALUE.test(value)
    ? undefined
    : "must be a header value: printable text without line breaks, control characters or surrounding spaces";
}

export function envNameProblem(name: string): string | undefined {
  return name === "" || /[=\0]/.test(name)
    ? "must be an environment variable name (not empty, without = or NUL)"
    : undefined;
}

export function envValueProblem(value: string): string | undefined {
  return value.includes("\0") ? "must not contain a NUL character" : undefined;
}
