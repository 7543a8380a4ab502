/**
 * How the HTTP server answers outside the SSE streams: a JSON body, a bare 202, and a refusal (an
 * HTTP status with a JSON-RPC error that says what was wrong). Checks throw an HttpRefusal; the
 * router writes it.
 */
import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { JSONRPCErrorObject, JSONRPCResponse, RequestId } from "@mcpx/core";

/** A request refused before it reached the protocol: the status, the error, and any headers. */
export class HttpRefusal extends Error {
  readonly status: number;
  readonly error: JSONRPCErrorObject;
  readonly headers: OutgoingHttpHeaders | undefined;
  readonly id: RequestId | undefined;

  constructor(
    status: number,
    code: number,
    message: string,
    opts: { headers?: OutgoingHttpHeaders; id?: RequestId; data?: unknown } = {},
  ) {
    super(message);
    this.name = "HttpRefusal";
    this.status = status;
    this.error = opts.data === undefined ? { code, message } : { code, message, data: opts.data };
    this.headers = opts.headers;
    this.id = opts.id;
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers?: OutgoingHttpHeaders,
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/**
 * A JSON-RPC error response; without the request's id when it is not known (2025-11-25 and
 * 2026-07-28 make the id optional on errors and never null).
 */
export function errorBody(id: RequestId | undefined, error: JSONRPCErrorObject): JSONRPCResponse {
  return (id === undefined ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id, error }) as JSONRPCResponse;
}

export function refuse(res: ServerResponse, r: HttpRefusal): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, r.status, errorBody(r.id, r.error), r.headers);
}

export function accepted(res: ServerResponse, headers?: OutgoingHttpHeaders): void {
  res.writeHead(202, headers);
  res.end();
}
