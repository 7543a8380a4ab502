import type { ElicitationHandler, InstalledHandlers, Root, SamplingHandler } from "@mcpx/core";

/** What answers a server's questions on this connection. */
export interface ClientHandlers {
  elicitation: readonly ElicitationHandler[];
  sampling: readonly SamplingHandler[];
  /** The roots mcpx declares (config `roots`). */
  roots: () => readonly Root[];
}

export const NO_HANDLERS: ClientHandlers = Object.freeze({
  elicitation: [],
  sampling: [],
  roots: () => [],
});

/** What may be declared: form always (cancel is truthful), url and sampling only with a handler. */
export function installedHandlers(h: ClientHandlers): InstalledHandlers {
  return {
    elicitation: { form: true, url: h.elicitation.some((e) => e.modes.includes("url")) },
    sampling: h.sampling.length > 0,
  };
}
