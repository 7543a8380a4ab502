/**
 * Requests a legacy server sends to mcpx: ping, roots/list, sampling/createMessage and
 * elicitation/create. Each is answered with its id exactly as it came (a string id is as valid as a
 * number); a method mcpx did not declare gets -32601, a bad mode -32602.
 */
import {
  type ElicitRequestParams,
  errorResponse,
  type HostHooks,
  InternalError,
  type JSONObject,
  type JSONRPCRequest,
  type Logger,
  McpxError,
  MethodNotFoundError,
  RequestDeclinedError,
  type RequestId,
  type Revision,
  resultResponse,
  type ServerRequestContext,
} from "@mcpx/core";
import { answerElicitation } from "./elicitation.js";
import type { RelatedRequest } from "./engine.js";
import { type ClientHandlers, installedHandlers, listRoots, samplingHandlerFor } from "./handlers.js";

export interface ServerRequestScope {
  upstream: string;
  handlers: ClientHandlers;
  hooks: HostHooks;
  log: Logger;
  revision(): Revision | undefined;
  version(): string;
  respond(msg: ReturnType<typeof resultResponse> | ReturnType<typeof errorResponse>): Promise<void>;
}

export class ServerRequests {
  readonly #scope: ServerRequestScope;
  /**
   * Server requests being answered, each with what stops it unanswered: notifications/cancelled
   * from the server, or the connection's end.
   */
  readonly #running = new Map<RequestId, () => void>();

  constructor(scope: ServerRequestScope) {
    this.#scope = scope;
  }

  handle(req: JSONRPCRequest, related?: RelatedRequest): void {
    const abort = new AbortController();
    // The server withdrew it or the connection ended: nobody is waiting for the answer.
    let unanswered = false;
    this.#running.set(req.id, () => {
      unanswered = true;
      abort.abort();
    });
    // While mcpx answers, the request the question is about does not time out (mcpx is the slow
    // one) but for its maximum total; when mcpx ends that request, the handler is stopped and its
    // answer (a cancel, a refusal) still goes to the server, which asked and waits.
    const release = related?.hold((reason) => abort.abort(reason));
    this.#answer(req, abort.signal, related)
      .finally(() => release?.())
      .then((result) => resultResponse(req.id, result))
      .catch((err: unknown) => {
        const e = err instanceof McpxError ? err : new InternalError((err as Error)?.message ?? String(err));
        return errorResponse(req.id, e.toJSONRPC());
      })
      .then((response) => {
        this.#running.delete(req.id);
        // A request the server withdrew gets no answer.
        if (!unanswered) return this.#scope.respond(response);
      })
      .catch((err: Error) =>
        this.#scope.log.warn("could not answer a server request", { error: err.message }),
      );
  }

  /** notifications/cancelled from the server for one of its requests. */
  cancelled(requestId: RequestId): void {
    this.#running.get(requestId)?.();
  }

  /** The connection ended. */
  abortAll(): void {
    for (const stop of this.#running.values()) stop();
    this.#running.clear();
  }

  async #answer(
    req: JSONRPCRequest,
    signal: AbortSignal,
    related: { method: string; context: unknown } | undefined,
  ): Promise<JSONObject> {
    const s = this.#scope;
    const revision = s.revision();
    const params = req.params ?? {};
    const ctx: ServerRequestContext = { upstream: s.upstream, version: s.version(), signal };
    if (related) {
      ctx.related = { method: related.method };
      if (related.context !== undefined) ctx.caller = related.context;
    }
    switch (req.method) {
      case "ping":
        return {};
      case "roots/list":
        return { roots: [...(await listRoots(s.handlers, ctx))] } as unknown as JSONObject;
      case "sampling/createMessage": {
        if (s.handlers.sampling.length === 0) {
          throw new MethodNotFoundError("sampling/createMessage: mcpx did not declare sampling");
        }
        const handler = samplingHandlerFor(s.handlers.sampling, params, ctx.caller);
        // Declared (a client of mcpx may sample), but not the client behind this request.
        if (!handler) throw new RequestDeclinedError(declinedSampling(ctx));
        return handler.handle(params, ctx);
      }
      case "elicitation/create": {
        if (!revision || revision.features.elicitationModes.length === 0) {
          throw new MethodNotFoundError(
            `elicitation/create is not in protocol revision ${revision?.version ?? "(none)"}`,
          );
        }
        const elicit = params as ElicitRequestParams;
        s.hooks.elicitation.call(s.upstream, elicit);
        const declared = installedHandlers(s.handlers).elicitation;
        return answerElicitation(elicit, revision, declared, s.handlers.elicitation, ctx);
      }
      default:
        throw new MethodNotFoundError(`mcpx does not answer ${req.method}`);
    }
  }
}

export function declinedSampling(ctx: ServerRequestContext): string {
  return ctx.caller === undefined
    ? "sampling/createMessage declined: it belongs to no request of a client of mcpx that can sample"
    : `sampling/createMessage declined: the client behind ${ctx.related?.method ?? "the request"} cannot sample`;
}
