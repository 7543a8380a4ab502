/**
 * A protocol revision is mostly data: what it has, and the few rules that differ, on both sides.
 * As a client, mcpx asks the negotiated revision how to shape each frame, which headers go with it,
 * how to cancel, when a list ends and what an error means; as a server, it asks the revision of each
 * downstream client (`server`). Which methods exist is its method table (`methods`). The registry
 * is the only list of revisions: nothing else names a version.
 *
 * A revision may be derived from a registered one (`{ ...base, version: "2099-01-01" }`): its
 * methods take what they need from `this` and their arguments, never from a captured constant.
 */
import type { JSONObject, JSONRPCErrorObject, JSONRPCMessage, JSONRPCRequest } from "./jsonrpc.js";
import type {
  ClientCapabilities,
  ElicitationMode,
  Implementation,
  LoggingLevel,
  Result,
  ServerCapabilities,
} from "./mcp.js";
import type { MethodTable } from "./method-table.js";
import type { ToolHeaderRules } from "./param-headers.js";
import type { ServerFacet } from "./server-facet.js";
import type { UpstreamSettings } from "./settings.js";
import type { TransportKind } from "./transport.js";

export type Era = "legacy" | "modern";

/** The eras, newest first: what mcpx serves is listed in this order (then newest first within each). */
export const ERAS: readonly Era[] = Object.freeze(["modern", "legacy"]);

export interface RevisionFeatures {
  /** The initialize handshake (legacy) rather than per-request _meta (modern). */
  initialize: boolean;
  ping: boolean;
  setLevel: boolean;
  /** MCP-Protocol-Version on HTTP requests (after initialize, for legacy). */
  versionHeader: boolean;
  /** Mcp-Session-Id on Streamable HTTP. */
  sessions: boolean;
  /** The standalone GET stream of Streamable HTTP. */
  standaloneGet: boolean;
  /**
   * A broken SSE stream is resumed with GET and Last-Event-ID where the server gave event ids
   * (2025-03-26 on: basic/transports "Resumability and Redelivery", a client SHOULD).
   */
  resumption: boolean;
  /**
   * A server primes each SSE stream with an event id and empty data, and may close the connection
   * early after a `retry` for the client to poll (SEP-1699, 2025-11-25). What mcpx as a server does
   * for a client of this revision; absent is false (a revision written before it does not prime).
   */
  primedStreams?: boolean;
  /** The peer may send JSON-RPC batches. */
  batches: boolean;
  /** The server sends requests (legacy); modern servers ask through input_required instead. */
  serverRequests: boolean;
  /** input_required results are fulfilled and retried with inputResponses and requestState. */
  inputRequired: boolean;
  /** Elicitation modes the revision defines. */
  elicitationModes: readonly ElicitationMode[];
  /** notifications/elicitation/complete. */
  elicitationComplete: boolean;
  /** An empty-string nextCursor is a cursor, not the end. */
  emptyCursorContinues: boolean;
  /** x-mcp-header annotations mirrored into Mcp-Param-* headers (HTTP only). */
  paramHeaders: boolean;
  /** Change notifications arrive on subscriptions/listen, not on the session. */
  subscriptionsListen: boolean;
  /** resources/subscribe and resources/unsubscribe requests. */
  resourceSubscribeRequests: boolean;
  /**
   * A request's `_meta` may carry OpenTelemetry trace context (traceparent, tracestate, baggage;
   * 2026-07-28 basic/index.mdx). Absent is false: those keys are never put in the revision's frames.
   */
  traceContextMeta?: boolean;
}

export type CancelAction = "notify" | "close-stream" | "never";

/** The handlers installed on this connection, which decide what may be declared. */
export interface InstalledHandlers {
  elicitation: { form: boolean; url: boolean };
  sampling: boolean;
}

/** The handshake's outcome. */
export interface Negotiated {
  revision: Revision;
  version: string;
  serverCapabilities: ServerCapabilities;
  serverInfo?: Implementation;
  instructions?: string;
  /** The raw initialize or server/discover result. */
  result: JSONObject;
}

/** What one connection looks like to its revision; one object per connection, reused by every call. */
export interface ConnectionInfo {
  upstream: string;
  transport: TransportKind;
  version: string;
  clientInfo: Implementation;
  capabilities: ClientCapabilities;
  /** The level asked for (modern revisions carry it in every request's _meta). */
  logLevel?: LoggingLevel;
}

export interface HandshakeContext {
  upstream: string;
  transport: TransportKind;
  clientInfo: Implementation;
  handlers: InstalledHandlers;
  settings: UpstreamSettings;
  /** Sends a request exactly as given (not shaped) and returns its result; errors arrive mapped. */
  request(method: string, params: JSONObject, opts?: { cancellable?: boolean }): Promise<Result>;
  notify(method: string, params?: JSONObject): Promise<void>;
  /** The registered revision for a version the server chose; throws UnsupportedVersionError if none. */
  resolve(version: string): Revision;
  /** The version is settled: frames sent from now on (notifications/initialized) are of this revision. */
  agreed(revision: Revision, version: string): void;
  /** Every registered version, newest first. */
  spoken(): readonly string[];
}

/**
 * The JSON Schema of a revision's list items: a document holding the `Tool`, `Prompt`, `Resource` and
 * `ResourceTemplate` definitions and every definition they reference, cut from the revision's
 * schema.json (`definitions` under draft-07, `$defs` under 2020-12, as `$schema` says).
 */
export interface ListItemSchemas {
  readonly $schema: string;
  readonly definitions?: Readonly<Record<string, JSONObject>>;
  readonly $defs?: Readonly<Record<string, JSONObject>>;
}

export interface Revision {
  readonly version: string;
  readonly era: Era;
  readonly features: RevisionFeatures;
  /**
   * What a valid tool, prompt, resource and resource template is in this revision: the client leaves
   * out (with a server.warning) any listed item that does not match. Optional, so a revision written
   * against apiVersion 1 without it still loads; without it only mcpx's own rules on names and URIs apply.
   */
  readonly listItemSchemas?: ListItemSchemas;
  /** The client capabilities to declare in this revision, given the handlers installed. */
  capabilities(installed: InstalledHandlers): ClientCapabilities;
  /** initialize (legacy) or server/discover (modern); settles the revision actually spoken. */
  handshake(ctx: HandshakeContext): Promise<Negotiated>;
  /** The request as this revision sends it (modern: the per-request _meta). */
  shapeRequest(msg: JSONRPCRequest, conn: ConnectionInfo): JSONRPCRequest;
  /** HTTP headers derived from the frame (never credentials: those belong to the auth scheme). */
  headers(msg: JSONRPCMessage, conn: ConnectionInfo): Record<string, string> | undefined;
  /**
   * How a request of this method is cancelled. "close-stream" holds where the transport gives each
   * request a stream of its own (TransportCapabilities.perRequestStreams); elsewhere the engine sends
   * notifications/cancelled instead, so a revision never needs to know which transport it runs on.
   */
  cancel(method: string): CancelAction;
  /** Whether a list ends, given the cursor just sent and the nextCursor received. */
  paginationEnded(sent: string | undefined, next: unknown): boolean;
  /** The named error for an error object the server returned to `method`. */
  mapError(err: JSONRPCErrorObject, method: string): Error;
  /** The requests and notifications of this revision, and its own result and _meta keys (both roles). */
  readonly methods: MethodTable;
  /** x-mcp-header: how a tool's parameter headers are read and a call's written (NO_TOOL_HEADERS if none). */
  readonly toolHeaders: ToolHeaderRules;
  /** The same revision when mcpx serves it to a client. */
  readonly server: ServerFacet;
}

/**
 * The revisions HTTP+SSE carries: those of the initialize era from before Streamable HTTP and its
 * sessions (2024-11-05). A client falling back to HTTP+SSE (the transport whose `fallbackFor` names
 * the refused one) offers the newest of them; mcpx serving
 * an HTTP+SSE client that offers a version it does not serve answers with it.
 */
export function httpSseRevisions(revisions: readonly Revision[]): Revision[] {
  return revisions.filter((r) => r.features.initialize && !r.features.sessions);
}
