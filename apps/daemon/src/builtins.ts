import type { Plugin } from "@mcpx/core";
import elicitationBroker from "@mcpx/elicitation-broker";
import revision20241105 from "@mcpx/revision-2024-11-05";
import revision20250326 from "@mcpx/revision-2025-03-26";
import revision20250618 from "@mcpx/revision-2025-06-18";
import revision20251125 from "@mcpx/revision-2025-11-25";
import revision20260728 from "@mcpx/revision-2026-07-28";

/** What an upstream entry asks of the built-ins: how it is reached, its pin, its auth type. */
export interface BuiltinNeeds {
  command?: string | undefined;
  url?: string | undefined;
  transport?: string | undefined;
  auth?: { type: string } | undefined;
  disabled?: boolean | undefined;
}

/**
 * A built-in imported only when a config uses it: the transport kinds and auth types it provides
 * are written here (not read from the module), so that deciding what to import imports nothing.
 */
export interface LazyBuiltin {
  readonly name: string;
  /** The transport kinds it provides. */
  readonly transports?: readonly string[];
  /** Which entries need it without a pin: `command` ones, `url` ones (the probe tries each). */
  readonly reaches?: "command" | "url";
  /** The auth `type`s it provides. */
  readonly authTypes?: readonly string[];
  load(): Promise<Plugin<unknown>>;
}

const plugin = (m: { default: unknown }) => m.default as Plugin<unknown>;

/** The transports and auth schemes, in the order they are applied (a dynamic import each, so the app's bundle splits them). */
export const LAZY_BUILTINS: readonly LazyBuiltin[] = [
  {
    name: "@mcpx/transport-stdio",
    transports: ["stdio"],
    reaches: "command",
    load: () => import("@mcpx/transport-stdio").then(plugin),
  },
  {
    name: "@mcpx/transport-streamable-http",
    transports: ["streamable-http"],
    reaches: "url",
    load: () => import("@mcpx/transport-streamable-http").then(plugin),
  },
  {
    name: "@mcpx/transport-http-sse",
    transports: ["http+sse"],
    reaches: "url",
    load: () => import("@mcpx/transport-http-sse").then(plugin),
  },
  { name: "@mcpx/auth-bearer", authTypes: ["bearer"], load: () => import("@mcpx/auth-bearer").then(plugin) },
  { name: "@mcpx/auth-basic", authTypes: ["basic"], load: () => import("@mcpx/auth-basic").then(plugin) },
  { name: "@mcpx/auth-header", authTypes: ["header"], load: () => import("@mcpx/auth-header").then(plugin) },
  { name: "@mcpx/auth-env", authTypes: ["env"], load: () => import("@mcpx/auth-env").then(plugin) },
  { name: "@mcpx/auth-query", authTypes: ["query"], load: () => import("@mcpx/auth-query").then(plugin) },
  { name: "@mcpx/auth-oauth", authTypes: ["oauth"], load: () => import("@mcpx/auth-oauth").then(plugin) },
];

/** Every built-in auth type, whether loaded or not (what an unknown type's error can list). */
export const BUILTIN_AUTH_TYPES: readonly string[] = LAZY_BUILTINS.flatMap((b) => b.authTypes ?? []);

/** Every built-in transport kind, whether loaded or not. */
export const BUILTIN_TRANSPORTS: readonly string[] = LAZY_BUILTINS.flatMap((b) => b.transports ?? []);

/**
 * The built-ins always applied: every protocol revision (the era probe offers each of them) and the
 * elicitation broker (it answers elicitations whatever the upstreams).
 */
const EAGER_FIRST = [
  revision20241105,
  revision20250326,
  revision20250618,
  revision20251125,
  revision20260728,
] as readonly Plugin<unknown>[];
const EAGER_LAST = [elicitationBroker] as readonly Plugin<unknown>[];

/** Every built-in's name, in the order they are applied. */
export const BUILTIN_NAMES: readonly string[] = [
  ...EAGER_FIRST.map((p) => p.name),
  ...LAZY_BUILTINS.map((b) => b.name),
  ...EAGER_LAST.map((p) => p.name),
];

/**
 * The lazy built-ins the enabled entries need, and those a config names in `plugins` (to give them
 * options). An auth type or transport pin no built-in provides is a third-party plugin's, or a mistake
 * (then every built-in is loaded before the check, so its error lists them all: see runtime.ts).
 */
export function builtinsNeeded(servers: Iterable<BuiltinNeeds>, named: Iterable<string> = []): Set<string> {
  const names = new Set<string>();
  const namedSet = new Set(named);
  for (const b of LAZY_BUILTINS) if (namedSet.has(b.name)) names.add(b.name);
  for (const s of servers) {
    if (s.disabled) continue;
    for (const b of LAZY_BUILTINS) {
      const pinned = s.transport !== undefined;
      if (pinned && b.transports?.includes(s.transport as string)) names.add(b.name);
      if (!pinned && b.reaches === "command" && s.command !== undefined) names.add(b.name);
      if (!pinned && b.reaches === "url" && s.url !== undefined) names.add(b.name);
      if (s.auth && b.authTypes?.includes(s.auth.type)) names.add(b.name);
    }
  }
  return names;
}

/** Imports the lazy built-ins named (all of them without a filter). */
export async function loadLazyBuiltins(names?: ReadonlySet<string>): Promise<Plugin<unknown>[]> {
  const chosen = LAZY_BUILTINS.filter((b) => !names || names.has(b.name));
  return Promise.all(chosen.map((b) => b.load()));
}

/**
 * The built-ins in the order mcpx applies them — the protocol revisions, the transports, the auth
 * schemes, the elicitation broker — with only the transports and auth schemes named imported (all
 * of them without a filter). A config's own plugins then come on top, as first-class as these
 * (webpack applies its built-ins the same way). A config that lists a built-in by its name gives it
 * options (`["@mcpx/elicitation-broker", { "timeoutMs": 60000 }]`) rather than applying it twice.
 */
export async function loadBuiltinPlugins(names?: ReadonlySet<string>): Promise<Plugin<unknown>[]> {
  return [...EAGER_FIRST, ...(await loadLazyBuiltins(names)), ...EAGER_LAST];
}

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
