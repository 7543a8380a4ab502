/**
 * A Transport moves frames between mcpx and one upstream. It knows nothing of methods: what a frame
 * means is the client's and the revision's business. What differs by revision (sessions, the GET
 * stream, resumption) reaches it once, through `negotiated`, as data.
 */
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
   * The credentials on this target, in every form they may be echoed in (core expandSecrets): what
   * applyAuth put in its headers, env or URL. The connection takes them out of every error it
   * raises, since a server's error may quote what it received.
   */
  secrets?: readonly string[];
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
}

/** What the handshake settled, as far as a transport cares. */
export interface NegotiatedSession {
  version: string;
  era: Era;
  features: RevisionFeatures;
}

export interface Transport {
  readonly kind: TransportKind;
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
  /** Whether this transport can reach the target (a command for stdio, a URL for HTTP). */
  accepts(target: UpstreamTarget): boolean;
  create(target: UpstreamTarget, ctx: TransportContext): Transport;
}
