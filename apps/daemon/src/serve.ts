/**
 * `mcpx serve`: the gateway at http://<listen.host>:<listen.port><listen.path>, its control API
 * beside it under /.mcpx/, every upstream connecting in the background.
 */
import { createControlHandler, startHttpServer } from "@mcpx/gateway";
import { loadRuntime, type Runtime, type RuntimeOptions } from "./runtime.js";

export interface ServeOptions extends RuntimeOptions {
  host?: string;
  port?: number;
}

export interface Serving {
  runtime: Runtime;
  /** The MCP endpoint. */
  url: string;
  stop(): Promise<void>;
}

export const VERSION = "0.1.0";

export async function serve(opts: ServeOptions): Promise<Serving> {
  const runtime = await loadRuntime(opts);
  const { config, gateway, host } = runtime;
  const listen = config.listen;
  const security = {
    ...(listen.token ? { token: listen.token } : {}),
    ...(listen.allowedOrigins ? { allowedOrigins: listen.allowedOrigins } : {}),
  };
  const info = { version: VERSION, startedAt: new Date().toISOString() } as {
    version: string;
    startedAt: string;
    url?: string;
  };
  const control = createControlHandler(gateway, { ...security, info, routes: host.registry.controlRoutes() });
  gateway.start();
  const http = await startHttpServer(gateway, {
    ...security,
    host: opts.host ?? listen.host,
    port: opts.port ?? listen.port,
    path: listen.path,
    maxBodyBytes: listen.maxBodyBytes,
    maxSessions: listen.sessions.max,
    maxSessionsPerClient: listen.sessions.perClient,
    sessionIdleMs: listen.sessions.idleTimeout,
    sessionHandshakeMs: listen.sessions.handshakeTimeout,
    headersTimeoutMs: listen.headersTimeout,
    requestTimeoutMs: listen.requestTimeout,
    maxConnections: listen.maxConnections,
    log: host.log,
    extraHandlers: [control],
  });
  info.url = http.url;
  host.log.info(`mcpx serving ${Object.keys(config.servers).length} upstream(s) at ${http.url}`);
  let stopped: Promise<void> | undefined;
  return {
    runtime,
    url: http.url,
    stop: () => {
      stopped ??= (async () => {
        await http.close();
        await gateway.stop();
      })();
      return stopped;
    },
  };
}
