import type {
  ElicitationHandler,
  ElicitationMode,
  ElicitRequestParams,
  InstalledHandlers,
  JSONObject,
  Root,
  RootsHandler,
  SamplingHandler,
  ServerRequestContext,
} from "@mcpx/core";

/** What answers a server's questions on this connection. */
export interface ClientHandlers {
  /** Asked in order: the first that takes the mode (and, if it says, the caller) answers. */
  elicitation: readonly ElicitationHandler[];
  /** Asked in order, the same way. */
  sampling: readonly SamplingHandler[];
  /** The roots mcpx declares (config `roots`). */
  roots: () => readonly Root[];
  /** Asked first when a server lists roots: the first that takes the caller answers (else `roots`). */
  rootsHandlers?: readonly RootsHandler[];
}

export const NO_HANDLERS: ClientHandlers = Object.freeze({
  elicitation: [],
  sampling: [],
  roots: () => [],
});

/**
 * What may be declared: form always (cancel is truthful), url and sampling only with a handler that
 * can answer them. With `caller`, for the requests of that caller alone (a modern request declares
 * per request); without, connection-wide (a legacy initialize).
 */
export function installedHandlers(h: ClientHandlers, caller?: unknown): InstalledHandlers {
  const scope = caller === undefined ? {} : { caller };
  return {
    elicitation: { form: true, url: h.elicitation.some((e) => takes(e, "url", scope)) },
    sampling: h.sampling.some((s) => s.canAnswer?.(scope) ?? true),
  };
}

function takes(
  h: ElicitationHandler,
  mode: ElicitationMode,
  scope: { caller?: unknown; params?: ElicitRequestParams },
): boolean {
  return h.modes.includes(mode) && (h.canAnswer?.(mode, scope) ?? true);
}

/** The elicitation handler that answers this question: the first that takes its mode and caller. */
export function elicitationHandlerFor(
  handlers: readonly ElicitationHandler[],
  mode: ElicitationMode,
  params: ElicitRequestParams,
  caller: unknown,
): ElicitationHandler | undefined {
  const scope = caller === undefined ? { params } : { params, caller };
  return handlers.find((h) => takes(h, mode, scope));
}

/** The sampling handler that answers this request, if any will. */
export function samplingHandlerFor(
  handlers: readonly SamplingHandler[],
  params: JSONObject,
  caller: unknown,
): SamplingHandler | undefined {
  const scope = caller === undefined ? { params } : { params, caller };
  return handlers.find((h) => h.canAnswer?.(scope) ?? true);
}

/** The roots to answer a server's roots/list with: a roots handler that takes the caller, else the configured ones. */
export async function listRoots(h: ClientHandlers, ctx: ServerRequestContext): Promise<readonly Root[]> {
  const scope = ctx.caller === undefined ? { params: {} } : { params: {}, caller: ctx.caller };
  const handler = h.rootsHandlers?.find((r) => r.canAnswer?.(scope) ?? true);
  return handler ? handler.handle(ctx) : h.roots();
}
