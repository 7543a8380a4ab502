/**
 * A downstream client as the gateway sees it: the revision it speaks, what it declared, and how to
 * reach it outside a request. Each transport (stdio, Streamable HTTP, HTTP+SSE) makes its own.
 */
import type {
  Cancellation,
  ClientCapabilities,
  Implementation,
  JSONObject,
  LoggingLevel,
  RequestSpan,
  Revision,
} from "@mcpx/core";

export interface Peer {
  /** Unique among live peers (a session id, "stdio", …). */
  readonly id: string;
  /**
   * The revision the client speaks, from the registry: negotiated at initialize (legacy) or named by
   * the request (modern). Undefined before a legacy client's initialize, and for an in-process
   * caller (the CLI, the control API), which speaks no revision and is never asked anything.
   */
  revision: Revision | undefined;
  capabilities: ClientCapabilities;
  clientInfo?: Implementation;
  /** The level asked with logging/setLevel (legacy); no log lines without one. */
  logLevel?: LoggingLevel;
  /** Private cached upstream results are shared only within one authorization context. */
  readonly authContext: string;
  /**
   * A notification outside any request (list changes, resource updates, log lines). Returns false
   * when the peer has no channel for it (a modern client not listening for it, no GET stream).
   */
  notify(method: string, params: JSONObject): boolean;
}

/** One request being handled for a peer. */
export interface CallContext {
  peer: Peer;
  /** Aborted when the client cancels (notifications/cancelled, or a closed modern stream). */
  signal: AbortSignal;
  /**
   * What `signal` follows, when the transport made one for this request alone: lighter than the
   * signal, which is then made only if something reads it (upstream calls take this instead). An
   * upstream call that outlives the request (input_required) takes it as its own rather than making
   * another: the client closing the request, or mcpx ending the call later, cancels the one.
   */
  cancellation?: Cancellation;
  /** The client's progress token for this request, if it asked for progress. */
  progressToken?: string | number;
  /**
   * inputResponses a modern client sent with a first request (no requestState): answers to no
   * question of mcpx's, passed on to a modern upstream, whose keys they may be.
   */
  inputResponses?: JSONObject;
  /** Sends a notification related to this request (progress, log lines) on its stream. */
  notify(method: string, params: JSONObject): void;
  /** The HTTP request's headers (trace context is read from them when telemetry is on). */
  headers?: Readonly<Record<string, string | string[] | undefined>>;
  /** This request's span, when telemetry is on: upstream calls are its children. */
  span?: RequestSpan;
  /**
   * A question to the client, related to this request (elicitation/create, sampling/createMessage,
   * roots/list).
   * Legacy clients get it as a request on this request's stream (or the session's channel); for a
   * modern client the dispatcher ends the call with input_required and the retry brings the answer.
   * Absent when there is no way to ask (a JSON-only POST with no GET stream, the control API).
   * `key`: the key the upstream gave the question (input_required), kept for a modern client.
   */
  request?(
    method: string,
    params: JSONObject,
    opts?: { signal?: AbortSignal; key?: string },
  ): Promise<JSONObject>;
}

/**
 * The context of one request a transport serves: its signal is made from `cancellation` only if
 * something reads it. The getter is the class's, not one per request; a spread of a context (which
 * copies own properties only) must name `signal` itself, as the task relay's does.
 */
class RequestContext implements CallContext {
  readonly peer: Peer;
  readonly cancellation: Cancellation;
  readonly notify: CallContext["notify"];

  constructor(peer: Peer, cancellation: Cancellation, notify: CallContext["notify"]) {
    this.peer = peer;
    this.cancellation = cancellation;
    this.notify = notify;
  }

  get signal(): AbortSignal {
    return this.cancellation.signal;
  }
}

export function requestContext(
  peer: Peer,
  cancellation: Cancellation,
  notify: CallContext["notify"],
): CallContext {
  return new RequestContext(peer, cancellation, notify);
}
