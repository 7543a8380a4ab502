/** The CallContext of one HTTP request: its peer, its abort signal, its progress token, its stream. */
import type { Cancellation, JSONObject, JSONRPCRequest } from "@mcpx/core";
import { type CallContext, type Peer, requestContext } from "../peer.js";

export function progressTokenOf(msg: JSONRPCRequest): string | number | undefined {
  const token = (msg.params?._meta as JSONObject | undefined)?.progressToken;
  return typeof token === "string" || typeof token === "number" ? token : undefined;
}

export function callContext(
  peer: Peer,
  cancellation: Cancellation,
  token: string | number | undefined,
  notify: (method: string, params: JSONObject) => void,
  request?: CallContext["request"],
  headers?: CallContext["headers"],
): CallContext {
  const ctx = requestContext(peer, cancellation, notify);
  if (headers) ctx.headers = headers;
  if (token !== undefined) ctx.progressToken = token;
  if (request) ctx.request = request;
  return ctx;
}

export const ignore = (): void => {};
