/**
 * A plugin package default-exports a Plugin. The host checks `apiVersion` and the options (against
 * `optionsSchema`) before `apply`, and names the plugin in anything it throws.
 */
import type { AuthScheme } from "./auth.js";
import type { ControlRoute } from "./control.js";
import type { LifecycleEvent } from "./events.js";
import type { ElicitationHandler, SamplingHandler } from "./handlers.js";
import type { HostHooks, ServerWarning } from "./hooks.js";
import type { JSONObject } from "./jsonrpc.js";
import type { Logger } from "./log.js";
import type { RegistryView } from "./registry.js";
import type { Revision } from "./revision.js";
import type { StateStore, StoreFactory } from "./store.js";
import type { TelemetryFactory } from "./telemetry.js";
import type { TransportFactory } from "./transport.js";

export const PLUGIN_API_VERSION = 1;

export interface Plugin<Options = JSONObject> {
  /** The package name, or a name unique among loaded plugins. */
  readonly name: string;
  readonly version?: string;
  readonly apiVersion: typeof PLUGIN_API_VERSION;
  /** JSON Schema of the options; they are checked before apply. */
  readonly optionsSchema?: JSONObject;
  apply(host: PluginHost, options: Options): void | Promise<void>;
}

/** What a plugin sees of the host. Every register call records the plugin for error messages. */
export interface PluginHost {
  readonly apiVersion: typeof PLUGIN_API_VERSION;
  readonly hooks: HostHooks;
  /** What is registered so far, read-only: a plugin registers through the register methods. */
  readonly registry: RegistryView;
  readonly log: Logger;
  registerRevision(revision: Revision): void;
  registerTransport(factory: TransportFactory): void;
  registerAuthScheme(scheme: AuthScheme): void;
  registerElicitationHandler(handler: ElicitationHandler): void;
  registerSamplingHandler(handler: SamplingHandler): void;
  /** A kind of state store, selected by the config's `store.type`. */
  registerStore(factory: StoreFactory): void;
  /**
   * The store in use: where state shared between replicas lives (memory in this process until the
   * daemon selects the configured one). Read it when it is needed, not once in apply.
   */
  store(): StateStore;
  /** Adds a route to the daemon's control API (under /.mcpx/). */
  registerControlRoute(route: ControlRoute): void;
  /** The telemetry (traces, metrics) the daemon makes when the config or OTEL_* turn it on; one per host. */
  registerTelemetry(factory: TelemetryFactory): void;
  /** Publishes a lifecycle event (the `lifecycle` hook). */
  emit(event: LifecycleEvent): void;
  /** Reports a server warning: the `serverWarning` hook and a `server.warning` event. */
  warn(warning: ServerWarning): void;
}

/** Identity, for typing: `export default definePlugin({ ... })`. */
export function definePlugin<Options = JSONObject>(plugin: Plugin<Options>): Plugin<Options> {
  return plugin;
}

/** Whether a module's export is a Plugin (structurally). */
export function isPlugin(value: unknown): value is Plugin<unknown> {
  if (typeof value !== "object" || value === null) return false;
  const p = value as Partial<Plugin<unknown>>;
  return typeof p.name === "string" && typeof p.apply === "function" && "apiVersion" in p;
}
