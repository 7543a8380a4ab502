/**
 * The control API: what the `mcpx` CLI asks a running daemon (status, events, the catalog, pending
 * elicitations). It is loopback-only and behind the endpoint's token. Plugins add routes of their
 * own with host.registerControlRoute, under /.mcpx/.
 */
export interface ControlRequest {
  /** Path parameters (`:id` in the route's path). */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body of a POST (undefined for GET). */
  body: unknown;
  /** Aborted when the caller goes away (ends a stream). */
  signal: AbortSignal;
}

export interface ControlRoute {
  method: "GET" | "POST" | "DELETE";
  /** Under /.mcpx/, e.g. "elicitations/:id"; a segment starting with ":" is a parameter. */
  path: string;
  /**
   * The JSON answer, or an async iterable streamed as server-sent events until the caller closes
   * it. A thrown McpxError becomes a 4xx with its JSON-RPC error; anything else a 500.
   */
  handle(req: ControlRequest): unknown | Promise<unknown> | AsyncIterable<unknown>;
}

/** A control route's answer that is not JSON (the Prometheus text format of GET /.mcpx/metrics). */
export class ControlText {
  constructor(
    readonly body: string,
    readonly contentType: string,
  ) {}
}

export const CONTROL_PREFIX = "/.mcpx/";
