/**
 * The broker's control routes, under /.mcpx/ (loopback only, behind the daemon's token):
 *
 *   GET  elicitations                { pending, settled, watchers }
 *   GET  elicitations/watch          server-sent events: a snapshot, then each question and settlement;
 *                                    while one is open, questions are held for an answer
 *   GET  elicitations/:id            one pending question
 *   POST elicitations/:id/answer     { action: "accept" | "decline" | "cancel", content? }
 */
import { type ControlRoute, InvalidParamsError, type JSONObject } from "@mcpx/core";
import type { Answer, ElicitationBroker } from "./broker.js";

export function brokerRoutes(broker: ElicitationBroker): ControlRoute[] {
  return [
    { method: "GET", path: "elicitations", handle: () => broker.listAll() },
    { method: "GET", path: "elicitations/watch", handle: (req) => broker.watch(req.signal) },
    {
      method: "GET",
      path: "elicitations/:id",
      handle: async (req) => {
        const id = req.params.id ?? "";
        const found = await broker.getAnywhere(id);
        if (!found) throw new InvalidParamsError(`no pending elicitation ${JSON.stringify(id)}`);
        return found;
      },
    },
    {
      method: "POST",
      path: "elicitations/:id/answer",
      handle: (req) => broker.answerAnywhere(req.params.id ?? "", answerOf(req.body)),
    },
  ];
}

function answerOf(body: unknown): Answer {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new InvalidParamsError("the body must be a JSON object: { action, content? }");
  }
  const { action, content } = body as { action?: unknown; content?: unknown };
  if (action !== "accept" && action !== "decline" && action !== "cancel") {
    throw new InvalidParamsError(`action must be "accept", "decline" or "cancel"`);
  }
  if (content !== undefined && (typeof content !== "object" || content === null || Array.isArray(content))) {
    throw new InvalidParamsError("content must be a JSON object");
  }
  return content === undefined ? { action } : { action, content: content as JSONObject };
}
