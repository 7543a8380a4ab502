import type { Plugin } from "@mcpx/core";

/**
 * The plugins every mcpx applies before the ones its config lists, in this order. The revision,
 * transport and auth plugins (@mcpx/revision-*, @mcpx/transport-*, @mcpx/auth-*) are added here as
 * they land; a config's own plugins then come on top, as first-class as these.
 */
export const builtinPlugins: readonly Plugin<unknown>[] = [];

/** The source recorded for a built-in plugin (host.plugins), where a config's plugin has its spec. */
export const BUILTIN_SOURCE = "(built-in)";
