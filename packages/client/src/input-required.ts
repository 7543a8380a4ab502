/**
 * input_required (2026-07-28 "multi round-trip requests"): every entry of inputRequests goes to the
 * handler for its method, and the caller retries the same request with inputResponses and the exact
 * requestState, under a new id.
 */
import {
  type ElicitRequestParams,
  type HostHooks,
  InvalidResultError,
  type JSONObject,
  type Revision,
  type ServerRequestContext,
} from "@mcpx/core";
import { answerElicitation } from "./elicitation.js";
import { type ClientHandlers, installedHandlers, listRoots, samplingHandlerFor } from "./handlers.js";

export interface InputScope {
  upstream: string;
  handlers: ClientHandlers;
  hooks: HostHooks;
  revision: Revision;
  version: string;
  signal: AbortSignal;
  related: { method: string; params?: JSONObject };
  /** RequestOptions.context of the request that got input_required. */
  caller?: unknown;
}

export async function fulfilInputRequests(
  inputRequests: unknown,
  scope: InputScope,
): Promise<Record<string, JSONObject>> {
  if (inputRequests === undefined) return {};
  if (typeof inputRequests !== "object" || inputRequests === null || Array.isArray(inputRequests)) {
    throw new InvalidResultError(`${scope.related.method}: inputRequests is not an object`);
  }
  const ctx: ServerRequestContext = {
    upstream: scope.upstream,
    version: scope.version,
    signal: scope.signal,
    related: scope.related,
  };
  if (scope.caller !== undefined) ctx.caller = scope.caller;
  // All at once: each goes to its own handler, and one that passes questions on (the gateway, to
  // its own client) can put them to that client together, as the server asked them.
  const entries = Object.entries(inputRequests as Record<string, unknown>);
  const answers = await Promise.all(
    entries.map(([key, value]) => fulfilOne(key, value, scope, { ...ctx, inputKey: key })),
  );
  // fromEntries defines each key: the server's key "__proto__" stays a key, as it came.
  return Object.fromEntries(entries.map(([key], i) => [key, answers[i] as JSONObject]));
}

/**
 * fulfilInputRequests within `ms`, what is left of the request's maximum total: past it the
 * handlers' signal aborts (a question put to a person or to a client is withdrawn) and `expired()`
 * is thrown, whether or not a handler heeds its signal.
 */
export async function fulfilWithin(
  inputRequests: unknown,
  scope: InputScope,
  ms: number,
  expired: () => Error,
): Promise<Record<string, JSONObject>> {
  if (!Number.isFinite(ms)) return fulfilInputRequests(inputRequests, scope);
  if (ms <= 0) throw expired();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(expired()), ms);
  const ended = new Promise<never>((_, reject) =>
    deadline.signal.addEventListener("abort", () => reject(deadline.signal.reason), { once: true }),
  );
  try {
    const signal = AbortSignal.any([scope.signal, deadline.signal]);
    return await Promise.race([fulfilInputRequests(inputRequests, { ...scope, signal }), ended]);
  } finally {
    clearTimeout(timer);
  }
}

async function fulfilOne(
  key: string,
  value: unknown,
  scope: InputScope,
  ctx: ServerRequestContext,
): Promise<JSONObject> {
  const req = value as { method?: unknown; params?: JSONObject } | null;
  const params = req?.params ?? {};
  switch (req?.method) {
    case "elicitation/create": {
      const elicit = params as ElicitRequestParams;
      scope.hooks.elicitation.call(scope.upstream, elicit);
      const declared = installedHandlers(scope.handlers).elicitation;
      return answerElicitation(elicit, scope.revision, declared, scope.handlers.elicitation, ctx);
    }
    case "sampling/createMessage": {
      // Sampling was declared on this request only if a handler could answer for its caller.
      const handler = samplingHandlerFor(scope.handlers.sampling, params, scope.caller);
      if (!handler) {
        throw new InvalidResultError(
          scope.handlers.sampling.length === 0
            ? `${scope.related.method}: the server asked for sampling (input request ${key}), which mcpx did not declare`
            : `${scope.related.method}: the server asked for sampling (input request ${key}), which mcpx did not declare on this request (its client cannot sample)`,
        );
      }
      return handler.handle(params, ctx);
    }
    case "roots/list":
      return { roots: [...(await listRoots(scope.handlers, ctx))] } as unknown as JSONObject;
    default:
      throw new InvalidResultError(
        `${scope.related.method}: input request ${key} has method ${JSON.stringify(req?.method)}, which is not one a server may ask for`,
      );
  }
}
