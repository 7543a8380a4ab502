import type { ClientCapabilities, InstalledHandlers, RevisionFeatures } from "@mcpx/core";

/**
 * What mcpx declares in initialize: only what it really does, in the shape this revision defines.
 * roots is always declared (mcpx answers roots/list from config) without listChanged; elicitation
 * from 2025-06-18 on (form always: with nobody listening the answer is cancel, which is truthful),
 * where 2025-06-18 says it as `{}` (its only mode) and 2025-11-25 as `{form: {}}`, with url only
 * when a handler can take it; sampling only with a handler.
 */
export function legacyCapabilities(
  features: RevisionFeatures,
  installed: InstalledHandlers,
): ClientCapabilities {
  const caps: ClientCapabilities = { roots: { listChanged: false } };
  if (installed.sampling) caps.sampling = {};
  const modes = features.elicitationModes;
  if (modes.length === 1) {
    caps.elicitation = {};
  } else if (modes.length > 1) {
    const elicitation: { form?: Record<string, never>; url?: Record<string, never> } = { form: {} };
    if (modes.includes("url") && installed.elicitation.url) elicitation.url = {};
    caps.elicitation = elicitation;
  }
  return caps;
}
