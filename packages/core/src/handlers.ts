/** Whoever answers a server's questions: elicitation, sampling and roots handlers. */
import type { JSONObject } from "./jsonrpc.js";
import type { ElicitationMode, ElicitRequestParams, ElicitResult, Root } from "./mcp.js";

export interface ServerRequestContext {
  upstream: string;
  /** The protocol version in use with that upstream. */
  version: string;
  /**
   * Aborted when the server withdraws the question, the connection ends, or mcpx ends the request
   * the question is about (its maximum total, its caller's cancellation).
   */
  signal: AbortSignal;
  /** The request of mcpx's that the question belongs to, when the server said so. */
  related?: { method: string; params?: JSONObject };
  /**
   * Whatever the caller of that request passed as RequestOptions.context (the gateway passes the
   * downstream call, so a question can be forwarded to the client that caused it).
   */
  caller?: unknown;
  /**
   * The key the server gave the question in an input_required result (2026-07-28), so that whoever
   * passes it on (the gateway, to its own modern client) can ask it under the same key.
   */
  inputKey?: string;
}

/**
 * What a handler is asked before it is given a question, or before mcpx declares a capability:
 *  - `params` present: this question, asked about a request of `caller` (undefined when the server
 *    did not relate it to one) — false hands the question to the next handler;
 *  - `params` absent: may it answer questions of requests made by `caller`? With `caller` undefined
 *    the declaration is connection-wide (legacy initialize), and the answer is whether it ever can.
 */
export interface AnswerScope<P> {
  caller?: unknown;
  params?: P;
}

export interface ElicitationHandler {
  readonly name: string;
  readonly modes: readonly ElicitationMode[];
  /**
   * Whether it answers in this mode for this caller (see AnswerScope). Absent: always, in its
   * modes. A forwarding handler answers only when the caller's own client can.
   */
  canAnswer?(mode: ElicitationMode, scope: AnswerScope<ElicitRequestParams>): boolean;
  handle(req: ElicitRequestParams, ctx: ServerRequestContext): Promise<ElicitResult>;
  /** notifications/elicitation/complete (2025-11-25): the URL-mode interaction finished. */
  complete?(elicitationId: string, ctx: { upstream: string }): void;
}

export interface SamplingHandler {
  readonly name: string;
  /** Whether it answers for this caller (see AnswerScope). Absent: always. */
  canAnswer?(scope: AnswerScope<JSONObject>): boolean;
  handle(params: JSONObject, ctx: ServerRequestContext): Promise<JSONObject>;
}

/**
 * Answers roots/list for the requests of some callers (the gateway asks its own client when that
 * client declared roots); the configured roots answer the rest.
 */
export interface RootsHandler {
  readonly name: string;
  /** Whether it answers for this caller (see AnswerScope). Absent: always. */
  canAnswer?(scope: AnswerScope<JSONObject>): boolean;
  handle(ctx: ServerRequestContext): Promise<readonly Root[]>;
}
