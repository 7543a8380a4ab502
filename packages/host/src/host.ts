/**
 * The plugin host: hooks, the registry, and `use`, which checks a plugin before applying it. Plugins
 * get a PluginHost scoped to their name, whose registry is the read-only view; the mutable Registry
 * stays here.
 */

import {
  createHooks,
  type HostHooks,
  isPlugin,
  type JSONObject,
  type Logger,
  PLUGIN_API_VERSION,
  PluginError,
  type PluginHost,
  type StateStore,
} from "@mcpx/core";
import type { Ajv } from "ajv";
import { tapBuiltins } from "./built-ins.js";
import { loadAjv } from "./lazy-ajv.js";
import { createLogger } from "./log.js";
import { MemoryStore } from "./memory-store.js";
import { Registry } from "./registry.js";
import { describeSchemaErrors } from "./schema-errors.js";

export interface Host extends PluginHost {
  /** Checks and applies a plugin. Errors are PluginError naming it. */
  use(plugin: unknown, options?: unknown, source?: string): Promise<void>;
  /** The plugins applied so far, in order. */
  readonly plugins: readonly { name: string; version?: string; source?: string }[];
  /** Puts a store in place of the current one (the daemon, once the configured store is made). */
  setStore(store: StateStore): void;
}

export function createHost(options: { log?: Logger } = {}): Host {
  const hooks: HostHooks = createHooks();
  const registry = new Registry();
  const view = registry.view();
  const log = options.log ?? createLogger();
  const applied: { name: string; version?: string; source?: string }[] = [];
  let ajv: Ajv | undefined;
  let store: StateStore = new MemoryStore();
  // mcpx's own features on the typed hooks, before any plugin taps them.
  tapBuiltins(hooks);

  const scoped = (pluginName: string): PluginHost => ({
    apiVersion: PLUGIN_API_VERSION,
    hooks,
    registry: view,
    log: log.child({ plugin: pluginName }),
    registerRevision: (r) => registry.addRevision(r, pluginName),
    registerTransport: (t) => registry.addTransport(t, pluginName),
    registerAuthScheme: (a) => registry.addAuthScheme(a, pluginName),
    registerElicitationHandler: (h) => registry.addElicitationHandler(h, pluginName),
    registerSamplingHandler: (h) => registry.addSamplingHandler(h, pluginName),
    registerControlRoute: (r) => registry.addControlRoute(r, pluginName),
    registerStore: (f) => registry.addStore(f, pluginName),
    registerTelemetry: (f) => registry.addTelemetry(f, pluginName),
    store: () => store,
    emit: (event) => hooks.lifecycle.call(event),
    // The `server.warning` event is the serverWarning hook's built-in tap (built-ins.ts).
    warn: (w) => hooks.serverWarning.call(w),
  });

  const host: Host = {
    ...scoped("(host)"),
    // The host's own lines carry no plugin name.
    log,
    plugins: applied,
    setStore(next) {
      store = next;
    },
    async use(plugin, pluginOptions, source) {
      const label = source ?? (isPlugin(plugin) ? plugin.name : "(anonymous)");
      if (!isPlugin(plugin)) {
        throw new PluginError(label, "does not export a Plugin (an object with name, apiVersion and apply)");
      }
      if (plugin.apiVersion !== PLUGIN_API_VERSION) {
        throw new PluginError(
          plugin.name,
          `needs plugin API version ${String(plugin.apiVersion)}, this mcpx provides ${PLUGIN_API_VERSION}`,
        );
      }
      let opts = (pluginOptions ?? {}) as JSONObject;
      // A plugin given no options gets its schema's defaults, which need no validator (and so no
      // ajv: its load and a compile cost a daemon ~6 MiB and a one-shot command ~0.5 s of CPU).
      const defaults = pluginOptions === undefined ? defaultsOf(plugin.optionsSchema) : undefined;
      if (defaults) opts = defaults;
      else if (plugin.optionsSchema) {
        ajv ??= new (loadAjv())({ allErrors: true, useDefaults: true, strict: false });
        const validate = ajv.compile(plugin.optionsSchema);
        if (!validate(opts)) {
          const problems = describeSchemaErrors(validate.errors, "options");
          throw new PluginError(plugin.name, `invalid options: ${problems.join("; ")}`);
        }
      }
      try {
        await plugin.apply(scoped(plugin.name), opts);
      } catch (err) {
        if (err instanceof PluginError) throw err;
        const reason = err instanceof Error ? err.message : String(err);
        throw new PluginError(plugin.name, `apply failed: ${reason}`, { cause: err });
      }
      const entry: { name: string; version?: string; source?: string } = { name: plugin.name };
      if (plugin.version !== undefined) entry.version = plugin.version;
      if (source !== undefined) entry.source = source;
      applied.push(entry);
    },
  };
  return host;
}

/** Keywords under which `{}` could fail or a default could depend on the data: ajv decides then. */
const DATA_DEPENDENT = [
  "required",
  "minProperties",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "$ref",
  "dependencies",
];

/**
 * What ajv's useDefaults makes of `{}` under a plain object schema: each property's default (a copy),
 * the defaults of its own properties filled in the same way. Undefined when the schema is not that
 * plain (ajv then validates, as for any options given).
 */
export function defaultsOf(schema: JSONObject | undefined): JSONObject | undefined {
  if (schema === undefined) return {};
  if (schema.type !== "object" || DATA_DEPENDENT.some((k) => k in schema)) return undefined;
  const out: JSONObject = {};
  const properties = (schema.properties ?? {}) as Record<string, JSONObject>;
  for (const [key, property] of Object.entries(properties)) {
    if (property.default === undefined) continue;
    const value = structuredClone(property.default);
    if (typeof value === "object" && value !== null && !Array.isArray(value) && property.properties) {
      const nested = defaultsOf(property);
      if (nested === undefined) return undefined;
      out[key] = { ...nested, ...(value as JSONObject) };
    } else {
      out[key] = value;
    }
  }
  return out;
}
