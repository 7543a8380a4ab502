/**
 * From a config file to a ready gateway: load and check the config, make the host (its logger
 * redacts every secret the config holds), apply the built-in plugins and then the config's, and
 * build the gateway with the era store in the state directory.
 */
import * as path from "node:path";
import type { EraStore } from "@mcpx/client";
import { applyAuth, type ClientHandlers, checkAuth } from "@mcpx/client";
import {
  type Env,
  loadConfig,
  type McpxConfig,
  pinProblems,
  resolvePlugins,
  resolveTelemetry,
} from "@mcpx/config";
import {
  AuthError,
  ConfigError,
  type LogLevel,
  type Plugin,
  type StateStore,
  type Telemetry,
} from "@mcpx/core";
import { FileEraStore, forwardingHandlers, Gateway, StoreEraStore } from "@mcpx/gateway";
import { createHost, createLogger, createStore, type Host, redact } from "@mcpx/host";
import {
  BUILTIN_NAMES,
  BUILTIN_SOURCE,
  builtinsNeeded,
  LAZY_BUILTIN_STORES,
  LAZY_BUILTINS,
  lazyBuiltinStore,
  loadBuiltinPlugins,
  loadLazyBuiltins,
} from "./builtins.js";

export interface RuntimeOptions {
  configFile: string;
  /**
   * A config already loaded (the CLI's ad-hoc servers, or a subset of the file's servers): used as
   * it is, and configFile is not read.
   */
  config?: McpxConfig;
  env?: Env;
  /** Where log lines go (stderr by default: stdout may carry MCP). */
  writeLog?: (line: string) => void;
  logLevel?: LogLevel;
  stateDir?: string;
  /** One-shot commands (the CLI without a daemon) never reconnect. */
  oneShot?: boolean;
  /**
   * Built-ins of this run alone, applied before the standard ones, so their handlers are asked
   * first: the CLI's one-shot commands on a terminal add @mcpx/elicitation-tty (before the broker).
   */
  plugins?: readonly Plugin<unknown>[];
  /**
   * Make the state store the config's `store` selects and put it in the host (serve and stdio
   * do); without it, the host keeps its embedded store. The runtime's closeStore closes it.
   */
  store?: boolean;
  /**
   * Apply every built-in, not only those the config uses (`mcpx plugins list` and `mcpx config
   * check` show what is installed).
   */
  allBuiltins?: boolean;
}

export interface Runtime {
  config: McpxConfig;
  host: Host;
  gateway: Gateway;
  /** In the state store when it is shared (a replica set), in the state directory otherwise. */
  eraStore: EraStore;
  /** Closes the configured state store, if one was made (at shutdown, after the gateway stops). */
  closeStore(): Promise<void>;
}

export async function loadRuntime(opts: RuntimeOptions): Promise<Runtime> {
  const config =
    opts.config ?? (await loadConfig(path.resolve(opts.configFile), opts.env ? { env: opts.env } : {}));
  const secrets = config.secrets;
  const host = createHost({
    log: createLogger({
      level: opts.logLevel ?? config.log.level,
      json: config.log.json,
      secrets: () => secrets,
      ...(opts.writeLog ? { write: opts.writeLog } : {}),
    }),
  });
  await applyPlugins(config, host, opts.plugins, opts.allBuiltins ? { all: true } : {});
  checkAuthTypes(config, host);
  // A one-shot command exports nothing: its calls are the user's, not a service's.
  const telemetry = opts.oneShot ? undefined : await startTelemetry(config, host, opts.env ?? process.env);
  const stateDir = opts.stateDir ?? config.stateDir;
  let store: StateStore | undefined;
  if (opts.store && config.store) {
    store = await createStore(
      host.registry,
      config.store,
      { stateDir, log: host.log.child({ store: config.store.type }) },
      LAZY_BUILTIN_STORES,
    );
    host.setStore(store);
  }
  const made = store;
  const eraStore: EraStore = made?.shared ? new StoreEraStore(made) : new FileEraStore(stateDir);
  // Set below; the roots handler reads the config of the moment (a reload may change them).
  let runtime: Runtime | undefined;
  // The gateway's forwarding comes first: a question goes back to the client whose call caused it
  // when that client can answer, and on to the broker (and the config's handlers) when not. A
  // one-shot command has no client to forward to, so it declares no more than its plugins answer.
  const forward = opts.oneShot ? undefined : forwardingHandlers();
  const handlers: ClientHandlers = {
    elicitation: [...(forward ? [forward.elicitation] : []), ...host.registry.elicitationHandlers()],
    sampling: [...(forward ? [forward.sampling] : []), ...host.registry.samplingHandlers()],
    roots: () => (runtime?.config ?? config).roots,
    // A caller that declared roots is asked for its own; the config's roots answer the rest.
    rootsHandlers: forward ? [forward.roots] : [],
  };
  const gateway = new Gateway({
    servers: Object.values(config.servers),
    // What the pool publishes (an upstream's error in its state and lifecycle events) is redacted
    // as the logger's lines are.
    env: {
      registry: host.registry,
      hooks: host.hooks,
      log: host.log,
      redact: (text: string) => redact(text, secrets),
    },
    handlers,
    eraStore,
    // Credentials are added at connect time; the values they produce join the logger's secrets
    // (and the gateway's, for what clients are sent). The target carries its own to its connection.
    authorize: async (server, base) => {
      const { target, secrets: produced } = await applyAuth(host.registry, server, base, {
        stateDir: opts.stateDir ?? config.stateDir,
      });
      addSecrets(secrets, produced);
      return target;
    },
    ...(opts.oneShot ? { reconnect: false } : {}),
    ...(telemetry ? { telemetry } : {}),
  });
  let closed: Promise<void> | undefined;
  const closeStore = () => {
    closed ??= made ? made.close() : Promise.resolve();
    return closed;
  };
  runtime = { config, host, gateway, eraStore, closeStore };
  return runtime;
}

/**
 * The telemetry the config and the OTEL_* environment ask for (resolveTelemetry), or none. The
 * telemetry plugin is imported only here, when it is on: a gateway without telemetry never loads
 * the OpenTelemetry SDK. A plugin the config or the app applied (one that registered a telemetry
 * factory) is used in its place.
 */
async function startTelemetry(config: McpxConfig, host: Host, env: Env): Promise<Telemetry | undefined> {
  const settings = resolveTelemetry(config.telemetry, env);
  if (!settings) return undefined;
  if (!host.registry.telemetry()) {
    const { default: plugin } = await import("@mcpx/telemetry-otel");
    await host.use(plugin, undefined, BUILTIN_SOURCE);
  }
  const factory = host.registry.telemetry();
  if (!factory) return undefined;
  return factory.create(settings, {
    log: host.log.child({ plugin: factory.name }),
    registerControlRoute: (route) => host.registerControlRoute(route),
  });
}

/**
 * A reloaded config becomes the runtime's (the servers are the gateway's to apply): the logger
 * redacts its secrets as well as the old ones (a call of the old config may still be logging).
 */
export function adoptConfig(runtime: Runtime, next: McpxConfig): void {
  addSecrets(runtime.config.secrets, next.secrets);
  next.secrets = runtime.config.secrets;
  runtime.config = next;
}

/**
 * Adds the ones not there yet (each reconnection applies auth again), keeping the longest first so
 * that a credential inside a longer one (`tok` in `Bearer tok`) leaves nothing of the longer behind.
 */
function addSecrets(secrets: string[], produced: readonly string[]): void {
  const known = new Set(secrets);
  const added = produced.filter((s) => !known.has(s));
  if (added.length === 0) return;
  secrets.push(...added);
  secrets.sort((a, b) => b.length - a.length);
}

/**
 * The built-in plugins (this run's `extra` first), then the config's. A built-in the config lists by
 * its name takes the options given there (`["@mcpx/elicitation-broker", { "timeoutMs": 60000 }]`)
 * and is applied once. An `extra` with a built-in's name replaces it: an app that can reach a user
 * applies `@mcpx/auth-oauth` made with an authorizer in place of the one that has none.
 */
export async function applyPlugins(
  config: McpxConfig,
  host: Host,
  extra: readonly Plugin<unknown>[] = [],
  opts: { all?: boolean } = {},
): Promise<void> {
  const replaced = new Set(extra.map((p) => p.name));
  const named = config.plugins.map((p) => p.spec);
  // The transports and auth schemes are imported only when an enabled server (or `plugins`) uses them.
  const needed = opts.all ? undefined : builtinsNeeded(Object.values(config.servers), named);
  for (const name of replaced) needed?.delete(name);
  // A built-in store plugin (and its client library) is imported only when the config selects it.
  const lazy = config.store ? await lazyBuiltinStore(config.store.type) : undefined;
  const loaded = await loadBuiltinPlugins(needed);
  const standard = lazy ? [...loaded, lazy] : loaded;
  const builtins = [...extra, ...standard.filter((p) => !replaced.has(p.name))];
  // Every built-in's name, loaded or not: `plugins` naming one gives it options, never imports it twice.
  const builtinNames = new Set([...BUILTIN_NAMES, ...builtins.map((p) => p.name)]);
  const builtinOptions = new Map<string, unknown>();
  for (const spec of config.plugins) {
    if (builtinNames.has(spec.spec)) builtinOptions.set(spec.spec, spec.options);
  }
  for (const plugin of builtins) await host.use(plugin, builtinOptions.get(plugin.name), BUILTIN_SOURCE);
  await resolvePlugins({ ...config, plugins: config.plugins.filter((p) => !builtinNames.has(p.spec)) }, host);
  await applyMissingBuiltins(config, host);
}

/**
 * The built-ins a config needs that are not applied yet (a reload's added upstream, before the new
 * config is checked). When an enabled server asks for an auth type or a transport nothing applied
 * provides (nor any built-in: a typo), every built-in is applied, so that the error lists them all.
 */
export async function applyMissingBuiltins(config: McpxConfig, host: Host): Promise<void> {
  const applied = new Set(host.plugins.map((p) => p.name));
  const wanted = builtinsNeeded(Object.values(config.servers));
  const r = host.registry;
  const enabled = Object.values(config.servers).filter((s) => !s.disabled);
  const unknown = enabled.some(
    (s) => (s.auth && !r.authScheme(s.auth.type)) || (s.transport !== undefined && !r.transport(s.transport)),
  );
  if (unknown) for (const b of LAZY_BUILTINS) wanted.add(b.name);
  for (const name of applied) wanted.delete(name);
  if (wanted.size === 0) return;
  const options = new Map(config.plugins.map((p) => [p.spec, p.options]));
  for (const plugin of await loadLazyBuiltins(wanted)) {
    await host.use(plugin, options.get(plugin.name), BUILTIN_SOURCE);
  }
}

/**
 * Every server's auth and pins, checked once its plugins are in: an unknown auth type or options its
 * scheme refuses, and a revision or transport pin no installed plugin provides, are config errors
 * (all of them at once, each naming the server). OAuth is not one: that upstream alone is refused
 * when it connects, and the others still run.
 */
export function checkAuthTypes(config: McpxConfig, host: Host): void {
  const enabled = Object.values(config.servers).filter((s) => !s.disabled);
  const problems: string[] = pinProblems(enabled, host.registry);
  for (const server of enabled) {
    try {
      checkAuth(host.registry, server);
    } catch (err) {
      if (err instanceof ConfigError) problems.push(...err.problems);
      else if (!(err instanceof AuthError)) throw err;
    }
  }
  if (problems.length > 0) {
    const summary =
      problems.length === 1 ? problems[0] : `${problems.length} problems: ${problems.join("; ")}`;
    throw new ConfigError(`${config.path ?? "(config)"}: ${summary}`, problems);
  }
}
