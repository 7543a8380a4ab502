/**
 * A Transport moves frames between mcpx and one upstream. It knows nothing of methods: what a frame
 * means is the client's and the revision's business. What differs by revision (sessions, the GET
 * stream, resumption) reaches it once, through `negotiated`, as data.
 */
import type { LiveCredentials } from "./auth.js";
import type { JSONRPCMessage, RequestId } from "./jsonrpc.js";
import type { Logger } from "./log.js";
import type { Era, RevisionFeatures } from "./revision.js";
import type { UpstreamSettings } from "./settings.js";

export type TransportKind = "stdio" | "streamable-http" | "http+sse" | (string & {});

/** Where an upstream is, with its credentials already applied by its auth scheme. */
export interface UpstreamTarget {
  /** The server's key in config; names it in logs and events. */
  name: string;
  command?: string;
  args?: string[];
  cwd?: string;
  env?: Record<string, string>;
  url?: string;
  /** Headers sent on every HTTP request to the configured origin, and never to another. */
  headers?: Record<string, string>;
  /**
   * The credentials on this target, in every form they may be echoed in (@mcpx/host's
   * expandSecrets): what applyAuth put in its headers, env or URL. The connection takes them out of
   * every error it raises, since a server's error may quote what it received.
   */
  secrets?: readonly string[];
  /**
   * Credentials that change while connected (an auth scheme's AuthEffect.live): the HTTP transports
   * ask them for headers before each request and tell them of each 401 or 403. Unset for every
   * static scheme, whose headers are in `headers`.
   */
  auth?: LiveCredentials;
}

/** Where a frame arrived. */
export type FrameSource =
  | { kind: "stdio" }
  | { kind: "post"; requestId?: RequestId }
  | { kind: "get" }
  | { kind: "sse" };

export interface FrameMeta {
  via: FrameSource;
  /** The SSE event id the frame came with, if any. */
  eventId?: string;
}

/** What a transport reports to its connection. */
export interface TransportSink {
  /** Every frame the upstream sends, batches already split into their elements. */
  message(msg: JSONRPCMessage, meta: FrameMeta): void;
  /** The answer to this request can no longer arrive (its stream broke and cannot be resumed). */
  requestFailed(id: RequestId, err: Error): void;
  /** The connection ended; every pending request fails. */
  closed(err?: Error): void;
}

export interface SendOptions {
  /** Aborting it ends the request's response stream (the cancellation of modern HTTP). */
  signal?: AbortSignal;
  /** Headers the revision derives from this frame (MCP-Protocol-Version, Mcp-Method, Mcp-Param-*). */
  headers?: Record<string, string>;
  /**
   * The era of the revision the frame belongs to, as its sender knows it: given to a transport that
   * declares `sessions`, since a modern frame belongs to no session (a probe, or a server/discover
   * moving a legacy connection on) while the legacy negotiation is still the one in force. Unset:
   * the era the transport was last told through `negotiated`.
   */
  era?: Era;
}

/**
 * What a transport can do, as data. The engine and the client ask these, never the transport's kind,
 * so a new transport gets the behaviour it declares and nothing it does not: one that declares
 * nothing gets NO_TRANSPORT_CAPABILITIES (what stdio does), read through transportCapabilities().
 */
export interface TransportCapabilities {
  /**
   * Per-frame headers reach the server (SendOptions.headers). Without it the revision's headers are
   * not worked out for a frame, and x-mcp-header arguments are not mirrored into Mcp-Param-*, which
   * the spec defines for Streamable HTTP only (2026-07-28 basic/transports/streamable-http).
   */
  readonly headers: boolean;
  /**
   * Each send is an exchange of its own that SendOptions.signal ends (an HTTP request). Without it
   * the engine makes no AbortController per request: one costs measurably on the call path.
   */
  readonly abortableSends: boolean;
  /**
   * The answer to a request comes on a response stream of its own, and closing that stream is a
   * cancellation the server sees (Streamable HTTP). Without it a revision's "close-stream"
   * cancellation is sent as notifications/cancelled, as stdio requires (2026-07-28
   * basic/transports/stdio, "Cancellation").
   */
  readonly perRequestStreams: boolean;
  /**
   * The transport keeps a session the server minted (Mcp-Session-Id; HTTP+SSE's endpoint), and is
   * told each frame's era (SendOptions.era) to know whether the frame belongs to it.
   */
  readonly sessions: boolean;
}

/** The conservative behaviour, for a transport that declares nothing: that of stdio. */
export const NO_TRANSPORT_CAPABILITIES: TransportCapabilities = Object.freeze({
  headers: false,
  abortableSends: false,
  perRequestStreams: false,
  sessions: false,
});

/** What a transport declared, or NO_TRANSPORT_CAPABILITIES when it declared nothing. */
export function transportCapabilities(transport: Pick<Transport, "capabilities">): TransportCapabilities {
  return transport.capabilities ?? NO_TRANSPORT_CAPABILITIES;
}

/** What the handshake settled, as far as a transport cares. */
export interface NegotiatedSession {
  version: string;
  era: Era;
  features: RevisionFeatures;
}

export interface Transport {
  readonly kind: TransportKind;
  /**
   * What it can do (see TransportCapabilities). Optional so a transport written before it still
   * loads; it then gets the conservative behaviour, never that of HTTP.
   */
  readonly capabilities?: TransportCapabilities;
  /** Starts the transport (spawns the child, opens the SSE stream of HTTP+SSE). */
  open(): Promise<void>;
  /**
   * Sends one frame. Resolves once the upstream has it (written to stdin; HTTP answered with a
   * 2xx or with a JSON-RPC body, which arrives through the sink). Rejects when it could not be
   * delivered, e.g. HttpStatusError for a bare HTTP error status.
   */
  send(msg: JSONRPCMessage, opts?: SendOptions): Promise<void>;
  /** The handshake is done: from now on the revision's transport features apply. */
  negotiated(session: NegotiatedSession): void;
  /** Ends the connection politely (DELETE the session, close stdin), then forcefully. */
  close(): Promise<void>;
}

export interface TransportContext {
  upstream: string;
  sink: TransportSink;
  log: Logger;
  settings: UpstreamSettings;
}

/** What a transport plugin registers. */
export interface TransportFactory {
  readonly kind: TransportKind;
  /**
   * What a server entry needs for this transport: a program to run or an endpoint. The config check
   * refuses a pin of this transport on an entry without it; unset, the pin is not checked there.
   */
  readonly reaches?: "command" | "url";
  /**
   * Whether this transport can reach the target by itself (a command for stdio, a URL for HTTP):
   * what picks a transport for an entry that pins none.
   */
  accepts(target: UpstreamTarget): boolean;
  /**
   * The transport this one stands in for when an endpoint refuses it as a server from before it
   * would (LegacyHTTPRefusedError: a bare 400/404/405 to the initialize POST). HTTP+SSE declares
   * "streamable-http" (2025-03-26 basic/transports, "Backwards Compatibility"); the era probe of an
   * unpinned upstream then tries it, offering the newest registered revision without sessions.
   */
  readonly fallbackFor?: TransportKind;
  create(target: UpstreamTarget, ctx: TransportContext): Transport;
}
