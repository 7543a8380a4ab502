/**
 * Forwarding an upstream's questions to the downstream client whose request they belong to.
 *
 * mcpx is the client of its upstreams; when one asks for elicitation or sampling during a call, the
 * client that made the call is often the one able to answer. These handlers go first in the daemon's
 * list: a question whose caller (ServerRequestContext.caller, the downstream CallContext) declared
 * the capability goes to it — a legacy client gets elicitation/create or sampling/createMessage on
 * the stream of its request, a modern one an input_required result (see input-bridge.ts) — and any
 * other question goes on to the next handler (the elicitation broker), the last resort being cancel
 * for an elicitation and a refusal for sampling. roots/list goes the same way to a caller that
 * declared roots (its roots are the ones that matter for its call); the configured roots answer the
 * rest. A question an upstream asked in an input_required result keeps its key on the way to a
 * modern client (ServerRequestContext.inputKey).
 *
 * What they make mcpx declare upstream (canAnswer without params): to a modern upstream, on each
 * request, only what that request's client declared; connection-wide (a legacy initialize, made
 * before any client is known), that they can, since some client may.
 */
import { randomUUID } from "node:crypto";
import {
  type AnswerScope,
  ConnectionClosedError,
  type ElicitationHandler,
  type ElicitationMode,
  type ElicitRequestParams,
  type ElicitResult,
  type JSONObject,
  RequestCancelledError,
  RequestDeclinedError,
  type Root,
  type RootsHandler,
  type SamplingHandler,
} from "@mcpx/core";
import type { CallContext, Peer } from "./server/peer.js";

const MAX_TRACKED_URLS = 1000;

/** The downstream call a question belongs to, if the caller is one. */
export function asCall(caller: unknown): CallContext | undefined {
  if (typeof caller !== "object" || caller === null) return undefined;
  const c = caller as Partial<CallContext>;
  return typeof c.peer === "object" && c.peer !== null && typeof c.notify === "function"
    ? (caller as CallContext)
    : undefined;
}

/** Whether this client can be asked an elicitation in this mode (it declared it, in a revision that has it). */
export function peerElicits(peer: Peer, mode: ElicitationMode): boolean {
  if (!peer.revision?.features.elicitationModes.includes(mode)) return false;
  const declared = peer.capabilities.elicitation;
  if (typeof declared !== "object" || declared === null) return false;
  // {} means form only (2025-11-25 and 2026-07-28 keep 2025-06-18's meaning).
  if (mode === "url") return declared.url !== undefined;
  return declared.form !== undefined || Object.keys(declared).length === 0;
}

/** Whether this client can be asked for its roots (it declared roots). */
export function peerRoots(peer: Peer): boolean {
  const declared = peer.capabilities.roots;
  return typeof declared === "object" && declared !== null;
}

/** Whether this client can be asked this sampling request. */
export function peerSamples(peer: Peer, params: JSONObject | undefined): boolean {
  const declared = peer.capabilities.sampling;
  if (typeof declared !== "object" || declared === null) return false;
  // Tool use in sampling needs sampling.tools, in a revision that has it (2025-11-25 on).
  if (params && (params.tools !== undefined || params.toolChoice !== undefined)) {
    return declared.tools !== undefined && peer.revision?.server.samplingTools === true;
  }
  return true;
}

function canAsk<P>(scope: AnswerScope<P>, can: (call: CallContext) => boolean): boolean {
  // Connection-wide declaration: some client of mcpx may be able to.
  if (scope.caller === undefined && scope.params === undefined) return true;
  const call = asCall(scope.caller);
  return call?.request !== undefined && can(call);
}

/** The question as the client's revision writes it. */
function elicitationFor(peer: Peer, req: ElicitRequestParams): JSONObject {
  const { _meta, ...params } = req;
  const features = peer.revision?.features;
  if (!features?.elicitationModes.includes("url")) {
    // A revision with form mode alone (2025-06-18) has no `mode`: form is all there is.
    delete params.mode;
    return params;
  }
  if (!features.elicitationComplete) {
    // No notifications/elicitation/complete, no elicitationId (2026-07-28: URL accept means
    // consent; the retry learns the outcome).
    delete params.elicitationId;
    return params;
  }
  if (params.mode === "url" && typeof params.elicitationId !== "string") params.elicitationId = randomUUID();
  return params;
}

/** mcpx could not get an answer from the client (no channel, it went away, the call ended). */
function unreachable(err: unknown): boolean {
  return (
    err instanceof ConnectionClosedError ||
    err instanceof RequestCancelledError ||
    err instanceof RequestDeclinedError
  );
}

export interface ForwardingHandlers {
  elicitation: ElicitationHandler;
  sampling: SamplingHandler;
  roots: RootsHandler;
}

export function forwardingHandlers(): ForwardingHandlers {
  /** URL elicitations forwarded to a 2025-11-25 client, by upstream and id, for their completion. */
  const urls = new Map<string, { peer: Peer; elicitationId: string }>();

  const elicitation: ElicitationHandler = {
    name: "mcpx-gateway-forward",
    modes: ["form", "url"],
    canAnswer: (mode, scope) => canAsk(scope, (call) => peerElicits(call.peer, mode)),
    async handle(req, ctx) {
      const call = asCall(ctx.caller) as CallContext & Required<Pick<CallContext, "request">>;
      const params = elicitationFor(call.peer, req);
      const key =
        params.mode === "url" && typeof req.elicitationId === "string"
          ? `${ctx.upstream}\u0000${req.elicitationId}`
          : undefined;
      if (key && typeof params.elicitationId === "string") {
        urls.set(key, { peer: call.peer, elicitationId: params.elicitationId });
        // Bounded: a server that never completes cannot grow it without end.
        if (urls.size > MAX_TRACKED_URLS) urls.delete(urls.keys().next().value as string);
      }
      try {
        const result = await call.request("elicitation/create", params, askOptions(ctx));
        const { _meta, ...answer } = result;
        if (answer.action !== "accept" && key) urls.delete(key);
        return answer as ElicitResult;
      } catch (err) {
        if (key) urls.delete(key);
        // The client could not be reached, or went away, or the call was cancelled: nobody answered.
        if (unreachable(err)) return { action: "cancel" };
        // Anything else is the client's own answer (an error it sent), passed on.
        throw err;
      }
    },
    complete(elicitationId, ctx) {
      const key = `${ctx.upstream}\u0000${elicitationId}`;
      const forwarded = urls.get(key);
      if (!forwarded) return;
      urls.delete(key);
      forwarded.peer.notify("notifications/elicitation/complete", {
        elicitationId: forwarded.elicitationId,
      });
    },
  };

  const sampling: SamplingHandler = {
    name: "mcpx-gateway-forward",
    canAnswer: (scope) => canAsk(scope, (call) => peerSamples(call.peer, scope.params)),
    async handle(params, ctx) {
      const call = asCall(ctx.caller) as CallContext & Required<Pick<CallContext, "request">>;
      const { _meta, ...question } = params;
      try {
        const { _meta: _m, ...answer } = await call.request(
          "sampling/createMessage",
          question,
          askOptions(ctx),
        );
        return answer;
      } catch (err) {
        if (unreachable(err) && !(err instanceof RequestDeclinedError)) {
          throw new RequestDeclinedError(`sampling/createMessage declined: ${(err as Error).message}`);
        }
        throw err;
      }
    },
  };

  const roots: RootsHandler = {
    name: "mcpx-gateway-forward",
    canAnswer: (scope) => canAsk(scope, (call) => peerRoots(call.peer)),
    async handle(ctx) {
      const call = asCall(ctx.caller) as CallContext & Required<Pick<CallContext, "request">>;
      try {
        const answer = await call.request("roots/list", {}, askOptions(ctx));
        return Array.isArray(answer.roots) ? (answer.roots as unknown as Root[]) : [];
      } catch (err) {
        // Nobody answered: the caller's client has no roots to give.
        if (unreachable(err)) return [];
        throw err;
      }
    },
  };

  return { elicitation, sampling, roots };
}

/** How a question is put to the caller's client: withdrawn with the upstream's, under the upstream's key. */
function askOptions(ctx: { signal: AbortSignal; inputKey?: string }): { signal: AbortSignal; key?: string } {
  return ctx.inputKey === undefined ? { signal: ctx.signal } : { signal: ctx.signal, key: ctx.inputKey };
}
