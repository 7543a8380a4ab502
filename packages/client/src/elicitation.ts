/**
 * Answering an elicitation: in a mode the revision in use defines and mcpx declared, by the first
 * handler that takes the mode (and the caller, when it asks about it); cancel when there is none
 * (truthful: nobody is there to answer). An accepted form answer's missing fields are filled from
 * the requested schema's defaults.
 */
import {
  type ElicitationHandler,
  type ElicitationMode,
  type ElicitRequestParams,
  type ElicitResult,
  InvalidParamsError,
  type JSONObject,
  type Revision,
  type ServerRequestContext,
} from "@mcpx/core";
import { elicitationHandlerFor } from "./handlers.js";

export function elicitationMode(params: ElicitRequestParams): ElicitationMode | string {
  return params.mode ?? "form";
}

export async function answerElicitation(
  params: ElicitRequestParams,
  revision: Revision,
  declared: { form: boolean; url: boolean },
  handlers: readonly ElicitationHandler[],
  ctx: ServerRequestContext,
): Promise<ElicitResult> {
  const mode = elicitationMode(params);
  if (!revision.features.elicitationModes.includes(mode as ElicitationMode)) {
    throw new InvalidParamsError(
      `elicitation mode ${JSON.stringify(mode)} is not defined in protocol revision ${revision.version}`,
    );
  }
  if ((mode === "url" && !declared.url) || (mode === "form" && !declared.form)) {
    throw new InvalidParamsError(`elicitation mode ${JSON.stringify(mode)} was not declared by mcpx`);
  }
  // A forwarding handler takes the question only when the caller's own client can answer it.
  const handler = elicitationHandlerFor(handlers, mode as ElicitationMode, params, ctx.caller);
  if (!handler) return { action: "cancel" };
  const result = await handler.handle(params, ctx);
  if (result.action === "accept" && mode === "form" && params.requestedSchema) {
    return { ...result, content: fillDefaults(result.content, params.requestedSchema) };
  }
  return result;
}

/** The answer with each missing field set to its schema default; a field the answerer set is kept. */
export function fillDefaults(
  content: Record<string, unknown> | undefined,
  schema: JSONObject,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...content };
  const properties = schema.properties;
  if (typeof properties !== "object" || properties === null) return out;
  for (const [key, prop] of Object.entries(properties as Record<string, unknown>)) {
    if (out[key] !== undefined) continue;
    if (typeof prop === "object" && prop !== null && "default" in prop) {
      out[key] = (prop as { default: unknown }).default;
    }
  }
  return out;
}
