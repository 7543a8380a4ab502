/**
 * Every error mcpx raises, in one place. Each is a named class carrying the JSON-RPC code it is sent
 * with when it crosses the wire. Two families, never mixed:
 *  - McpError and its subclasses: an error a peer sent (or one mcpx sends to its own clients), with a
 *    code the protocol defines;
 *  - LocalError and its subclasses: something mcpx itself detected (a timeout, a closed connection, a
 *    bad config), with a code of mcpx's own: -32000…-32013 were allocated before 2026-07-28 closed
 *    that range to new codes; every code since is in -31000…-31099, outside the range JSON-RPC
 *    reserves (2026-07-28 basic/index.mdx §Error codes: new codes SHOULD be allocated outside
 *    -32768…-32000, and MUST NOT be in -32000…-32019).
 */
import type { JSONRPCErrorObject, RequestId } from "./jsonrpc.js";
import { formatBytes } from "./line-framer.js";

export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Resource not found, every legacy revision (and accepted from modern servers). */
  ResourceNotFound: -32002,
  /** 2026-07-28: HTTP headers disagree with the body, or a required one is missing. */
  HeaderMismatch: -32020,
  /** 2026-07-28: the request needs a client capability the request did not declare. */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28: the protocol version in _meta is not one the server speaks. */
  UnsupportedProtocolVersion: -32022,
  /** 2025-11-25: the request needs a URL-mode elicitation first. */
  URLElicitationRequired: -32042,
  /** A client declined a server's request (sampling.mdx's example: "User rejected sampling request"). */
  RequestDeclined: -1,

  // Local, implementation-defined range.
  ConnectionClosed: -32000,
  RequestTimeout: -32001,
  InvalidResult: -32003,
  UnsupportedVersion: -32004,
  LegacyHTTPRefused: -32005,
  RequestCancelled: -32006,
  ForeignOrigin: -32007,
  ParamHeader: -32008,
  HttpStatus: -32009,
  SessionExpired: -32013,
  Config: -32010,
  Plugin: -32011,
  Auth: -32012,
  // mcpx's own codes from 2026-07-28 on, outside the JSON-RPC reserved range.
  /** A frame from an upstream over upstream.maxFrameBytes. */
  FrameTooLarge: -31001,
  /**
   * An upstream is down or still connecting: a fault on mcpx's side of the call that the request did
   * not cause and that may pass (not -32602, "fix your request", nor -32002, "no such resource").
   */
  UpstreamUnavailable: -31002,
  /** An upstream needs a user to log in (OAuth) and nobody can here: the error names the command. */
  AuthorizationRequired: -31003,
  /** The authorization flow of an upstream failed or was refused, for the reason the message gives. */
  AuthorizationFailed: -31004,
  /** An upstream still refuses with insufficient_scope after the step-ups allowed. */
  InsufficientScope: -31005,
  /**
   * The state store (Redis, …) cannot be reached or lost its connection: a fault on mcpx's side
   * that may pass once the store is back (its client reconnects).
   */
  StoreUnavailable: -31006,
  /**
   * A skill file (SEP-2640 skills extension) failed verification against its skill entry: unlisted,
   * wrong size, wrong digest, or a SKILL.md whose frontmatter differs from the entry's. The SEP
   * defines no code for it: it is the host's refusal, not a wire error.
   */
  SkillVerification: -31020,
} as const;

export abstract class McpxError extends Error {
  abstract readonly code: number;
  readonly data: unknown;

  constructor(message: string, data?: unknown, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.data = data;
  }

  /** The error as a JSON-RPC error object, ready to send. */
  toJSONRPC(): JSONRPCErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

// ---------------------------------------------------------------------------------------------
// Wire errors

/** A JSON-RPC error with a protocol-defined code. `code` is whatever the peer sent. */
export class McpError extends McpxError {
  readonly code: number;

  constructor(code: number, message: string, data?: unknown, options?: { cause?: unknown }) {
    super(message, data, options);
    this.code = code;
  }
}

export class ParseError extends McpError {
  constructor(message: string, data?: unknown) {
    super(ErrorCode.ParseError, message, data);
  }
}

export class InvalidRequestError extends McpError {
  constructor(message: string, data?: unknown) {
    super(ErrorCode.InvalidRequest, message, data);
  }
}

export class MethodNotFoundError extends McpError {
  constructor(message: string, data?: unknown) {
    super(ErrorCode.MethodNotFound, message, data);
  }
}

export class InvalidParamsError extends McpError {
  constructor(message: string, data?: unknown) {
    super(ErrorCode.InvalidParams, message, data);
  }
}

/**
 * A message nested deeper than MAX_NESTING_DEPTH (jsonrpc.ts), refused as it is decoded: deeper JSON
 * would overflow the stack of what serialises it on the way (JSON.stringify recurses). A request is
 * answered with this and its id (`requestId`); a notification is dropped.
 */
export class NestingTooDeepError extends InvalidParamsError {
  readonly requestId: RequestId | undefined;
  constructor(message: string, data: { depth: number; limit: number }, requestId?: RequestId) {
    super(message, data);
    this.requestId = requestId;
  }
}

export class InternalError extends McpError {
  constructor(message: string, data?: unknown) {
    super(ErrorCode.InternalError, message, data);
  }
}

/**
 * The resource does not exist. Raised for -32002 in every revision and for -32602 to resources/read
 * from a modern server; `wireCode` keeps what the server actually sent.
 */
export class ResourceNotFoundError extends McpError {
  readonly wireCode: number;
  constructor(message: string, data?: unknown, wireCode: number = ErrorCode.ResourceNotFound) {
    super(ErrorCode.ResourceNotFound, message, data);
    this.wireCode = wireCode;
  }
}

export class HeaderMismatchError extends McpError {
  constructor(message: string, data?: unknown) {
    super(ErrorCode.HeaderMismatch, message, data);
  }
}

export class MissingRequiredClientCapabilityError extends McpError {
  /** The capabilities the server said it needs (data.requiredCapabilities). */
  readonly requiredCapabilities: Record<string, unknown>;
  constructor(message: string, data?: unknown) {
    super(ErrorCode.MissingRequiredClientCapability, message, data);
    const required = (data as { requiredCapabilities?: unknown } | undefined)?.requiredCapabilities;
    this.requiredCapabilities =
      typeof required === "object" && required !== null ? (required as Record<string, unknown>) : {};
  }
}

export class UnsupportedProtocolVersionError extends McpError {
  readonly supported: string[];
  readonly requested: string | undefined;
  constructor(message: string, data?: unknown) {
    super(ErrorCode.UnsupportedProtocolVersion, message, data);
    const d = (data ?? {}) as { supported?: unknown; requested?: unknown };
    this.supported = Array.isArray(d.supported) ? d.supported.filter((v) => typeof v === "string") : [];
    this.requested = typeof d.requested === "string" ? d.requested : undefined;
  }
}

export class URLElicitationRequiredError extends McpError {
  constructor(message: string, data?: unknown) {
    super(ErrorCode.URLElicitationRequired, message, data);
  }
}

/** A client's refusal of a server's request (no sampling for it, nobody to ask). */
export class RequestDeclinedError extends McpError {
  constructor(message: string, data?: unknown) {
    super(ErrorCode.RequestDeclined, message, data);
  }
}

const wireClasses: Record<number, new (message: string, data?: unknown) => McpError> = {
  [ErrorCode.ParseError]: ParseError,
  [ErrorCode.InvalidRequest]: InvalidRequestError,
  [ErrorCode.MethodNotFound]: MethodNotFoundError,
  [ErrorCode.InvalidParams]: InvalidParamsError,
  [ErrorCode.InternalError]: InternalError,
  [ErrorCode.ResourceNotFound]: ResourceNotFoundError,
  [ErrorCode.HeaderMismatch]: HeaderMismatchError,
  [ErrorCode.MissingRequiredClientCapability]: MissingRequiredClientCapabilityError,
  [ErrorCode.UnsupportedProtocolVersion]: UnsupportedProtocolVersionError,
  [ErrorCode.URLElicitationRequired]: URLElicitationRequiredError,
};

/**
 * The named class for an error object a peer sent. Meanings that differ by revision (a modern
 * -32602 to resources/read) are decided by the revision's mapError, not here.
 */
export function errorFromWire(err: JSONRPCErrorObject): McpError {
  const Cls = wireClasses[err.code];
  return Cls ? new Cls(err.message, err.data) : new McpError(err.code, err.message, err.data);
}

// ---------------------------------------------------------------------------------------------
// Local errors

export abstract class LocalError extends McpxError {}

/** The connection to the peer ended (child exited, stream closed) before the answer arrived. */
export class ConnectionClosedError extends LocalError {
  readonly code = ErrorCode.ConnectionClosed;
}

/** No answer within the request's timeout (or its maximum total, progress notwithstanding). */
export class RequestTimeoutError extends LocalError {
  readonly code = ErrorCode.RequestTimeout;
}

/** The caller cancelled the request. */
export class RequestCancelledError extends LocalError {
  readonly code = ErrorCode.RequestCancelled;
}

/** A result mcpx cannot accept, e.g. a resultType it does not know. Never passed on as an answer. */
export class InvalidResultError extends LocalError {
  readonly code = ErrorCode.InvalidResult;
}

/** initialize returned a protocol version mcpx does not speak. */
export class UnsupportedVersionError extends LocalError {
  readonly code = ErrorCode.UnsupportedVersion;
  readonly version: string;
  constructor(version: string, spoken: readonly string[]) {
    super(
      `server answered initialize with protocol version ${JSON.stringify(version)}, which mcpx does not speak (it speaks ${spoken.join(", ")})`,
      { version, supported: [...spoken] },
    );
    this.version = version;
  }
}

/**
 * A Streamable HTTP endpoint refused both the modern probe and initialize with a bare 400, 404 or
 * 405: it is a 2024-11-05 HTTP+SSE server.
 */
export class LegacyHTTPRefusedError extends LocalError {
  readonly code = ErrorCode.LegacyHTTPRefused;
  readonly status: number;
  constructor(status: number, message?: string) {
    super(message ?? `the endpoint refused the request with a bare HTTP ${status}`, { status });
    this.status = status;
  }
}

/** An HTTP answer that carries no JSON-RPC message: a bare status (and whatever body came with it). */
export class HttpStatusError extends LocalError {
  readonly code = ErrorCode.HttpStatus;
  readonly status: number;
  readonly body: string;
  constructor(status: number, body: string, message?: string) {
    super(message ?? `HTTP ${status}${body ? `: ${body.slice(0, 200)}` : " with an empty body"}`, { status });
    this.status = status;
    this.body = body;
  }
}

/**
 * A Streamable HTTP server answered 404 to a request that carried its session id: the session is
 * gone, and the spec says to start a new one with initialize.
 */
export class SessionExpiredError extends LocalError {
  readonly code = ErrorCode.SessionExpired;
}

/**
 * An upstream sent a frame (a stdio line, a JSON body, an SSE event) larger than
 * upstream.maxFrameBytes. Its bytes were dropped as they came, so memory stayed bounded; the request
 * it answered fails with this error, which names the upstream, the size and the limit.
 */
export class FrameTooLargeError extends LocalError {
  readonly code = ErrorCode.FrameTooLarge;
  /** The frame's size in bytes; with `atLeast`, only how far reading went before it stopped. */
  readonly size: number;
  readonly limit: number;
  constructor(upstream: string, frame: { what?: string; size: number; atLeast?: boolean }, limit: number) {
    const size = `${frame.atLeast ? "more than " : ""}${formatBytes(frame.size)}`;
    super(
      `upstream ${upstream} sent ${frame.what ?? "a frame"} of ${size}, over upstream.maxFrameBytes (${formatBytes(limit)}); it was dropped`,
      { size: frame.size, maxFrameBytes: limit },
    );
    this.size = frame.size;
    this.limit = limit;
  }
}

/**
 * A call, get or read went to an upstream that is down (its last error says why) or still making its
 * first connection: the name is not unknown, and the same request may succeed later.
 */
export class UpstreamUnavailableError extends LocalError {
  readonly code = ErrorCode.UpstreamUnavailable;
  /** The upstream's config key. */
  readonly upstream: string;
  constructor(upstream: string, message: string, data?: unknown) {
    super(message, data);
    this.upstream = upstream;
  }
}

/**
 * The state store cannot be reached (at start: refused, unknown host, timed out, refused the
 * credentials) or lost its connection later. The message names the store's address with any
 * password redacted, and why.
 */
export class StoreUnavailableError extends LocalError {
  readonly code = ErrorCode.StoreUnavailable;
  /** The store's type ("redis"). */
  readonly store: string;
  constructor(store: string, message: string, options?: { cause?: unknown }) {
    super(message, { store }, options);
    this.store = store;
  }
}

/** A URL the peer named is on another origin than the one configured (HTTP+SSE endpoint, redirect). */
/** Why a skill file failed verification (SEP-2640 §Integrity and verification). */
export type SkillVerificationReason = "unlisted" | "size" | "digest" | "frontmatter";

/**
 * A skill file failed verification against its skill entry. The host must not use the file, and
 * for a SKILL.md must not load the skill (SEP-2640 §Integrity and verification).
 */
export class SkillVerificationError extends LocalError {
  readonly code = ErrorCode.SkillVerification;
  readonly reason: SkillVerificationReason;
  readonly uri: string;
  /** For `frontmatter`: one line per differing field. */
  readonly differences: readonly string[];
  constructor(
    reason: SkillVerificationReason,
    uri: string,
    message: string,
    differences: readonly string[] = [],
  ) {
    super(message, { reason, uri, differences: [...differences] });
    this.reason = reason;
    this.uri = uri;
    this.differences = differences;
  }
}

export class ForeignOriginError extends LocalError {
  readonly code = ErrorCode.ForeignOrigin;
}

/** An x-mcp-header value that cannot be mirrored into its header; refused before sending. */
export class ParamHeaderError extends LocalError {
  readonly code = ErrorCode.ParamHeader;
}

/** A config file that fails its schema, names an unset variable, or cannot be read. */
export class ConfigError extends LocalError {
  readonly code = ErrorCode.Config;
  /** Every problem found, each naming its key path. */
  readonly problems: string[];
  constructor(message: string, problems: string[] = [message], options?: { cause?: unknown }) {
    super(message, undefined, options);
    this.problems = problems;
  }
}

/** A plugin that cannot be loaded, does not export a Plugin, or threw; names the plugin. */
export class PluginError extends LocalError {
  readonly code = ErrorCode.Plugin;
  readonly plugin: string;
  constructor(plugin: string, message: string, options?: { cause?: unknown }) {
    super(`plugin ${plugin}: ${message}`, undefined, options);
    this.plugin = plugin;
  }
}

/** Credentials that cannot be applied (unknown scheme, OAuth not available yet). */
export class AuthError extends LocalError {
  readonly code = ErrorCode.Auth;
}

/**
 * An upstream answered 401 and its credentials need a user to log in (an OAuth authorization),
 * which nobody can do where this ran (a daemon has no browser). The message names the command that
 * does it; it never holds a token, a code or a secret.
 */
export class AuthorizationRequiredError extends LocalError {
  readonly code = ErrorCode.AuthorizationRequired;
  /** The upstream's config key. */
  readonly upstream: string;
  constructor(upstream: string, message?: string) {
    super(message ?? `upstream ${upstream} needs a login: run \`mcpx auth login ${upstream}\``, { upstream });
    this.upstream = upstream;
  }
}

/**
 * The authorization of an upstream failed or was refused: discovery found no authorization server,
 * metadata failed a check (issuer, PKCE), the authorization response or the token endpoint was
 * refused. The message says which; it never holds a token, a code or a secret.
 */
export class AuthorizationFailedError extends LocalError {
  readonly code = ErrorCode.AuthorizationFailed;
  /** The upstream's config key. */
  readonly upstream: string;
  constructor(upstream: string, message: string, data?: unknown) {
    super(message, data ?? { upstream });
    this.upstream = upstream;
  }
}

/** An upstream refused a request for insufficient scope after the step-up authorizations allowed. */
export class InsufficientScopeError extends LocalError {
  readonly code = ErrorCode.InsufficientScope;
  readonly upstream: string;
  /** The scopes the upstream last asked for. */
  readonly scopes: string[];
  constructor(upstream: string, message: string, scopes: string[]) {
    super(message, { upstream, scopes });
    this.upstream = upstream;
    this.scopes = scopes;
  }
}
