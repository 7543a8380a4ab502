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
import { type ClientHandlers, installedHandlers, samplingHandlerFor } from "./handlers.js";

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
  const responses: Record<string, JSONObject> = {};
  if (inputRequests === undefined) return responses;
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
  // One at a time: a person may be answering them.
  for (const [key, value] of Object.entries(inputRequests as Record<string, unknown>)) {
    const req = value as { method?: unknown; params?: JSONObject } | null;
    const params = req?.params ?? {};
    switch (req?.method) {
      case "elicitation/create": {
        const elicit = params as ElicitRequestParams;
        scope.hooks.elicitation.call(scope.upstream, elicit);
        const declared = installedHandlers(scope.handlers).elicitation;
        responses[key] = await answerElicitation(
          elicit,
          scope.revision,
          declared,
          scope.handlers.elicitation,
          ctx,
        );
        break;
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
        responses[key] = await handler.handle(params, ctx);
        break;
      }
      case "roots/list":
        responses[key] = { roots: [...scope.handlers.roots()] };
        break;
      default:
        throw new InvalidResultError(
          `${scope.related.method}: input request ${key} has method ${JSON.stringify(req?.method)}, which is not one a server may ask for`,
        );
    }
  }
  return responses;
}
