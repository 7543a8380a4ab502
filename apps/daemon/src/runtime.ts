/**
 * From a config file to a ready gateway: load and check the config, make the host (its logger
 * redacts every secret the config holds), apply the built-in plugins and then the config's, and
 * build the gateway with the era store in the state directory.
 */
import * as path from "node:path";
import { applyAuth, type ClientHandlers, checkAuth } from "@mcpx/client";
import { type Env, loadConfig, type McpxConfig, resolvePlugins } from "@mcpx/config";
import {
  AuthError,
  ConfigError,
  createHost,
  createLogger,
  type Host,
  type LogLevel,
  redact,
} from "@mcpx/core";
import { FileEraStore, Gateway } from "@mcpx/gateway";
import { BUILTIN_SOURCE, builtinPlugins } from "./builtins.js";

export interface RuntimeOptions {
  configFile: string;
  env?: Env;
  /** Where log lines go (stderr by default: stdout may carry MCP). */
  writeLog?: (line: string) => void;
  logLevel?: LogLevel;
  stateDir?: string;
  /** One-shot commands (the CLI without a daemon) never reconnect. */
  oneShot?: boolean;
}

export interface Runtime {
  config: McpxConfig;
  host: Host;
  gateway: Gateway;
  eraStore: FileEraStore;
}

export async function loadRuntime(opts: RuntimeOptions): Promise<Runtime> {
  const config = await loadConfig(path.resolve(opts.configFile), opts.env ? { env: opts.env } : {});
  const secrets = config.secrets;
  const host = createHost({
    log: createLogger({
      level: opts.logLevel ?? config.log.level,
      json: config.log.json,
      secrets: () => secrets,
      ...(opts.writeLog ? { write: opts.writeLog } : {}),
    }),
  });
  for (const plugin of builtinPlugins) await host.use(plugin, undefined, BUILTIN_SOURCE);
  await resolvePlugins(config, host);
  checkAuthTypes(config, host);
  const eraStore = new FileEraStore(opts.stateDir ?? config.stateDir);
  const roots = config.roots;
  const handlers: ClientHandlers = {
    elicitation: host.registry.elicitationHandlers(),
    sampling: host.registry.samplingHandlers(),
    roots: () => roots,
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
    // Credentials are added at connect time; the values they produce join the logger's secrets.
    authorize: async (server, base) => {
      const { target, secrets: produced } = await applyAuth(host.registry, server, base);
      secrets.push(...produced);
      return target;
    },
    ...(opts.oneShot ? { reconnect: false } : {}),
  });
  return { config, host, gateway, eraStore };
}

/**
 * Every server's auth, checked once its plugins are in: an unknown type or options its scheme
 * refuses are config errors (all of them at once, each naming the server). OAuth is not one: that
 * upstream alone is refused when it connects, and the others still run.
 */
function checkAuthTypes(config: McpxConfig, host: Host): void {
  const problems: string[] = [];
  for (const server of Object.values(config.servers)) {
    if (server.disabled) continue;
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
