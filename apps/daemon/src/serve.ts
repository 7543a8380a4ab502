/**
 * `mcpx serve`: the gateway at http://<listen.host>:<listen.port><listen.path>, its control API
 * beside it under /.mcpx/, every upstream connecting in the background. The port is bound before
 * any upstream is started: a busy port fails at once, with no child process left behind.
 */
import type { ControlRoute } from "@mcpx/core";
import {
  createConsoleHandler,
  createControlHandler,
  createHealthHandler,
  type DaemonInfo,
  startHttpServer,
} from "@mcpx/gateway";
import { BrowserLogins } from "./browser-login.js";
import { consoleDir } from "./console-dir.js";
import { ConfigRejectedError, Reloader, type ReloadOutcome, type ReloadTrigger } from "./reload.js";
import { loadRuntime, type Runtime, type RuntimeOptions } from "./runtime.js";

export interface ServeOptions extends RuntimeOptions {
  host?: string;
  port?: number;
  /** The web console's built files (default: found beside mcpx, see console-dir.ts). */
  consoleDir?: string;
  /** Reload when the config file changes (default: the config's `reload.watch`). */
  watch?: boolean;
}

export interface Serving {
  runtime: Runtime;
  /** The MCP endpoint. */
  url: string;
  /** The web console, when it is served (`"console": false` turns it off). */
  consoleUrl?: string;
  /**
   * Loads the config file again and applies it without a restart (SIGHUP and `mcpx reload` come
   * here); a bad config is refused and the running one stays.
   */
  reload(trigger?: ReloadTrigger): Promise<ReloadOutcome>;
  stop(): Promise<void>;
}

export const VERSION = "0.1.0";

/** The endpoint's address cannot be bound (in use, not permitted, not local): nothing was started. */
export class ListenError extends Error {
  /** host:port as asked for. */
  readonly address: string;
  /** The system's error code (EADDRINUSE, EACCES, …), when there is one. */
  readonly code: string | undefined;
  constructor(address: string, code: string | undefined, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ListenError";
    this.address = address;
    this.code = code;
  }
}

function listenError(err: unknown, host: string, port: number, configFile: string): ListenError {
  const code = (err as NodeJS.ErrnoException).code;
  const address = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  const change = `choose another with --port or listen.port in ${configFile}`;
  const why =
    code === "EADDRINUSE"
      ? `the port is in use (another mcpx serve, or another program); stop it, or ${change}`
      : code === "EACCES"
        ? `not permitted (a port under 1024 needs privileges); ${change}`
        : `${(err as Error).message}; ${change}, or listen.host`;
  return new ListenError(address, code, `cannot listen on ${address}: ${why}`, { cause: err });
}

export async function serve(opts: ServeOptions): Promise<Serving> {
  const runtime = await loadRuntime({ ...opts, store: true });
  const { config, gateway, host } = runtime;
  const store = host.store();
  const listen = config.listen;
  const security = {
    ...(listen.token ? { token: listen.token } : {}),
    ...(listen.allowedOrigins ? { allowedOrigins: listen.allowedOrigins } : {}),
  };
  const info: DaemonInfo = {
    version: VERSION,
    startedAt: new Date().toISOString(),
    // Its type only: the options hold the URL and its password.
    store: { type: store.type, shared: store.shared },
    // `mcpx status` compares it with the config it was asked about.
    ...(config.path ? { config: config.path } : {}),
  };
  // The console's Sign in: the daemon runs `mcpx auth login`'s browser flow for an OAuth upstream.
  const logins = new BrowserLogins(runtime, {
    ...(opts.stateDir ? { stateDir: opts.stateDir } : {}),
    ...(opts.writeLog ? { writeLog: opts.writeLog } : {}),
  });
  const reloader = new Reloader(runtime, config.path ?? opts.configFile, opts.env);
  const reloadRoute: ControlRoute = {
    method: "POST",
    path: "reload",
    handle: async () => {
      const outcome = await reloader.reload("control");
      if (!outcome.reloaded) {
        throw new ConfigRejectedError(
          `the new config was refused, the running one stays: ${outcome.errors.join("; ")}`,
          outcome.errors,
        );
      }
      return outcome;
    },
  };
  const control = createControlHandler(gateway, {
    ...security,
    info,
    routes: [...host.registry.controlRoutes(), logins.route(), reloadRoute],
  });
  // Before the control API, which takes all of /.mcpx/ for loopback callers with the token.
  const health = createHealthHandler(gateway, {
    ...(listen.allowedOrigins ? { allowedOrigins: listen.allowedOrigins } : {}),
    rule: () => runtime.config.readiness.require,
  });
  // The console calls the control API, so it takes the same origins; the token it asks the user for.
  const files = config.console ? (opts.consoleDir ?? consoleDir()) : undefined;
  const web = files
    ? createConsoleHandler({
        dir: files,
        ...(listen.allowedOrigins ? { allowedOrigins: listen.allowedOrigins } : {}),
      })
    : undefined;
  const address = { host: opts.host ?? listen.host, port: opts.port ?? listen.port };
  let http: Awaited<ReturnType<typeof startHttpServer>>;
  try {
    http = await startHttpServer(gateway, {
      ...security,
      ...address,
      path: listen.path,
      maxBodyBytes: listen.maxBodyBytes,
      maxSessions: listen.sessions.max,
      maxSessionsPerClient: listen.sessions.perClient,
      sessionIdleMs: listen.sessions.idleTimeout,
      sessionHandshakeMs: listen.sessions.handshakeTimeout,
      headersTimeoutMs: listen.headersTimeout,
      requestTimeoutMs: listen.requestTimeout,
      maxConnections: listen.maxConnections,
      // On a shared store (config `store`), legacy sessions are recorded and proxied between replicas.
      replica: {
        store: () => host.store(),
        ttlMs: config.replica.ttl,
        ...(config.replica.id ? { id: config.replica.id } : {}),
        ...(config.replica.url ? { url: config.replica.url } : {}),
      },
      log: host.log,
      extraHandlers: web ? [health, control, web] : [health, control],
    });
  } catch (err) {
    // No upstream was started; the plugins get their stop all the same.
    await gateway.stop();
    await runtime.closeStore();
    if (typeof (err as NodeJS.ErrnoException).code !== "string") throw err;
    throw listenError(err, address.host, address.port, config.path ?? opts.configFile);
  }
  // Only now: a request that comes in is answered by a gateway whose upstreams are starting (it
  // waits for them), and a port that could not be had left no child behind.
  gateway.start();
  info.url = http.url;
  const consoleUrl = web ? new URL("/", http.url).href : undefined;
  host.log.info(
    `mcpx serving ${Object.keys(config.servers).length} upstream(s) at ${http.url}${consoleUrl ? ` (console: ${consoleUrl})` : ""}`,
  );
  if (config.console && !files) {
    host.log.warn("the web console is not served: its files were not found (build @mcpx/console)");
  }
  // A config built in memory has no file to watch.
  const unwatch = config.path && (opts.watch ?? config.reload.watch) ? reloader.watch() : () => {};
  let stopped: Promise<void> | undefined;
  return {
    runtime,
    url: http.url,
    ...(consoleUrl ? { consoleUrl } : {}),
    reload: (trigger = "signal") => reloader.reload(trigger),
    stop: () => {
      stopped ??= (async () => {
        unwatch();
        await http.close();
        await logins.stop();
        await gateway.stop();
        await runtime.closeStore();
      })();
      return stopped;
    },
  };
}
