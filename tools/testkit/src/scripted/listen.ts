/**
 * subscriptions/listen on a scripted modern server: the stream is acknowledged with the subset the
 * server honours, stays open (no answer) and can be fed notifications, then ended by a response or
 * by notifications/cancelled, as the test likes.
 */
import type { Frame, HandlerContext, Id, JSONObject } from "./server.js";

export const SUBSCRIPTION_ID_KEY = "io.modelcontextprotocol/subscriptionId";

export interface Listen {
  id: Id;
  /** What the client asked for. */
  filter: JSONObject;
  /** What was acknowledged. */
  acked: JSONObject;
  push: (frame: Frame) => void;
  ended: boolean;
}

/** Opens a listen: acknowledges `honour(filter)` as the first message tagged with the listen id. */
export function openListen(
  req: Frame & { id: Id },
  ctx: HandlerContext,
  honour: (filter: JSONObject) => JSONObject,
): Listen {
  const filter = (req.params?.notifications ?? {}) as JSONObject;
  const listen: Listen = { id: req.id, filter, acked: honour(filter), push: ctx.push, ended: false };
  listen.push({
    jsonrpc: "2.0",
    method: "notifications/subscriptions/acknowledged",
    params: { _meta: { [SUBSCRIPTION_ID_KEY]: req.id }, notifications: listen.acked },
  });
  return listen;
}

/** A notification on the listen's stream, tagged with its id (or with `tag` to test correlation). */
export function listenNotify(
  listen: Listen,
  method: string,
  params: JSONObject = {},
  tag: Id | null = listen.id,
): void {
  const meta = tag === null ? {} : { _meta: { [SUBSCRIPTION_ID_KEY]: tag } };
  listen.push({ jsonrpc: "2.0", method, params: { ...params, ...meta } });
}

/** The server ends the stream: gracefully with a response, or with notifications/cancelled. */
export function endListen(listen: Listen, how: "response" | "cancelled"): void {
  listen.ended = true;
  if (how === "response") {
    listen.push({
      jsonrpc: "2.0",
      id: listen.id,
      result: { resultType: "complete", _meta: { [SUBSCRIPTION_ID_KEY]: listen.id } },
    });
  } else {
    listen.push({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: listen.id } });
  }
}
