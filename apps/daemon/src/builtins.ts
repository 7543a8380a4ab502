import authBasic from "@mcpx/auth-basic";
import authBearer from "@mcpx/auth-bearer";
import authEnv from "@mcpx/auth-env";
import authHeader from "@mcpx/auth-header";
import authOauth from "@mcpx/auth-oauth";
import authQuery from "@mcpx/auth-query";
import type { Plugin } from "@mcpx/core";
import elicitationBroker from "@mcpx/elicitation-broker";
import revision20241105 from "@mcpx/revision-2024-11-05";
import revision20250326 from "@mcpx/revision-2025-03-26";
import revision20250618 from "@mcpx/revision-2025-06-18";
import revision20251125 from "@mcpx/revision-2025-11-25";
import revision20260728 from "@mcpx/revision-2026-07-28";
import transportHttpSse from "@mcpx/transport-http-sse";
import transportStdio from "@mcpx/transport-stdio";
import transportStreamableHttp from "@mcpx/transport-streamable-http";

/**
 * The plugins every mcpx applies before the ones its config lists, in this order: the protocol
 * revisions, the transports, the auth schemes, the elicitation broker. A config's own plugins then
 * come on top, as first-class as these (webpack applies its built-ins the same way). A config that
 * lists a built-in by its name gives it options (`["@mcpx/elicitation-broker", { "timeoutMs": 60000 }]`)
 * rather than applying it twice.
 */
export const builtinPlugins: readonly Plugin<unknown>[] = [
  revision20241105,
  revision20250326,
  revision20250618,
  revision20251125,
  revision20260728,
  transportStdio,
  transportStreamableHttp,
  transportHttpSse,
  authBearer,
  authBasic,
  authHeader,
  authEnv,
  authQuery,
  authOauth,
  elicitationBroker,
] as readonly Plugin<unknown>[];

/** Store types of built-in plugins that are imported only when `store.type` selects them. */
export const LAZY_BUILTIN_STORES: readonly string[] = ["redis"];

/**
 * The built-in plugin of a store type, imported now: @mcpx/store-redis (and ioredis) load only
 * for `"store": { "type": "redis" }`. Another type is a third-party plugin's, listed in `plugins`.
 */
export async function lazyBuiltinStore(type: string): Promise<Plugin<unknown> | undefined> {
  if (type !== "redis") return undefined;
  return (await import("@mcpx/store-redis")).default as Plugin<unknown>;
}

/** The source recorded for a built-in plugin (host.plugins), where a config's plugin has its spec. */
export const BUILTIN_SOURCE = "(built-in)";
