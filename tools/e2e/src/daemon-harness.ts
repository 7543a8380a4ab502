/**
 * A real mcpx daemon (`serve` from @mcpx/daemon: the built-in plugins, the elicitation broker, the
 * gateway's forwarding, the control API) in the test process, on a config file written to a
 * temporary directory, in front of scripted upstreams over stdio. The CLI runs in-process against it.
 */
import { createServer } from "node:net";
import { join } from "node:path";
import type { JSONObject } from "@mcpx/core";
import { type Serving, serve } from "@mcpx/daemon";
import { ScriptedServer, type ScriptedServerOptions, stdioScript } from "@mcpx/testkit";
import { configDir, mcpx } from "./cli-harness.js";
import { afterThisTest } from "./harness.js";

export interface DaemonUpstream extends ScriptedServerOptions {
  name: string;
}

export interface DaemonCase {
  dir: string;
  serving: Serving;
  /** The MCP endpoint. */
  url: string;
  /** The control API's base, ending in /.mcpx/. */
  control: string;
  scripted: Record<string, ScriptedServer>;
  /** `mcpx <args>` in the config's directory. */
  cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  get<T = JSONObject>(route: string): Promise<T>;
  post<T = JSONObject>(route: string, body: unknown): Promise<{ status: number; body: T }>;
  /** Attaches to elicitations/watch until the test ends (or stop()); collects the events. */
  watch(): Promise<{ events: JSONObject[]; stop(): void }>;
  /** Resolves with the pending elicitations once there are `n` (polling the control API). */
  pending(n?: number): Promise<JSONObject[]>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function daemonCase(
  upstreams: DaemonUpstream[],
  extra: {
    roots?: JSONObject[];
    plugins?: unknown[];
    upstream?: JSONObject;
    requestTimeoutMs?: number;
    /** Added to `listen` (host and port are the harness's). */
    listen?: JSONObject;
    /** The config's `store` and `replica` (replicas on one shared store). */
    store?: JSONObject;
    replica?: JSONObject;
  } = {},
): Promise<DaemonCase> {
  const scripted: Record<string, ScriptedServer> = {};
  const servers: Record<string, JSONObject> = {};
  for (const { name, ...options } of upstreams) {
    const server = new ScriptedServer({ label: `daemon upstream "${name}"`, ...options });
    const script = await stdioScript(server);
    afterThisTest(() => script.close());
    scripted[name] = server;
    const request = extra.requestTimeoutMs ?? 15_000;
    servers[name] = { command: script.command, args: script.args, timeouts: { request } };
  }
  const port = await freePort();
  const config: JSONObject = {
    listen: { ...extra.listen, host: "127.0.0.1", port },
    servers,
    stateDir: ".state",
  };
  if (extra.roots) config.roots = extra.roots;
  if (extra.plugins) config.plugins = extra.plugins;
  if (extra.upstream) config.upstream = extra.upstream;
  if (extra.store) config.store = extra.store;
  if (extra.replica) config.replica = extra.replica;
  const dir = await configDir(config);
  const serving = await serve({ configFile: join(dir, "mcpx.json"), writeLog: () => {}, logLevel: "error" });
  afterThisTest(() => serving.stop());
  await serving.runtime.gateway.pool.settled();
  const control = `http://127.0.0.1:${port}/.mcpx/`;

  const get = async <T>(route: string): Promise<T> => {
    const res = await fetch(`${control}${route}`);
    return (await res.json()) as T;
  };
  const post = async <T>(route: string, body: unknown) => {
    const res = await fetch(`${control}${route}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as T };
  };

  return {
    dir,
    serving,
    url: serving.url,
    control,
    scripted,
    cli: (...args) => mcpx(dir, ...args),
    get,
    post,
    async watch() {
      const abort = new AbortController();
      afterThisTest(async () => abort.abort());
      const res = await fetch(`${control}elicitations/watch`, { signal: abort.signal });
      const events: JSONObject[] = [];
      void (async () => {
        const decoder = new TextDecoder();
        let buffer = "";
        try {
          for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
            buffer += decoder.decode(chunk, { stream: true });
            let end = buffer.indexOf("\n\n");
            while (end !== -1) {
              const data = buffer.slice(0, end).replace(/^data: /, "");
              buffer = buffer.slice(end + 2);
              if (data) events.push(JSON.parse(data) as JSONObject);
              end = buffer.indexOf("\n\n");
            }
          }
        } catch {
          // stopped
        }
      })();
      // Attached once the snapshot arrived.
      for (let i = 0; i < 200 && events.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      return { events, stop: () => abort.abort() };
    },
    async pending(n = 1) {
      for (let i = 0; i < 500; i++) {
        const listing = await get<{ pending: JSONObject[] }>("elicitations");
        if (listing.pending.length >= n) return listing.pending;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`fewer than ${n} elicitation(s) became pending`);
    },
  };
}
