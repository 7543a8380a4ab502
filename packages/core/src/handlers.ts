/** Whoever answers a server's questions: elicitation and sampling handlers. */
import type { JSONObject } from "./jsonrpc.js";
import type { ElicitationMode, ElicitRequestParams, ElicitResult } from "./mcp.js";

export interface ServerRequestContext {
  upstream: string;
  /** The protocol version in use with that upstream. */
  version: string;
  /** Aborted when the server withdraws the question or the connection ends. */
  signal: AbortSignal;
  /** The request of mcpx's that the question belongs to, when the server said so. */
  related?: { method: string; params?: JSONObject };
  /**
   * Whatever the caller of that request passed as RequestOptions.context (the gateway passes the
   * downstream call, so a question can be forwarded to the client that caused it).
   */
  caller?: unknown;
}

export interface ElicitationHandler {
  readonly name: string;
  readonly modes: readonly ElicitationMode[];
  handle(req: ElicitRequestParams, ctx: ServerRequestContext): Promise<ElicitResult>;
  /** notifications/elicitation/complete (2025-11-25): the URL-mode interaction finished. */
  complete?(elicitationId: string, ctx: { upstream: string }): void;
}

export interface SamplingHandler {
  readonly name: string;
  handle(params: JSONObject, ctx: ServerRequestContext): Promise<JSONObject>;
}
