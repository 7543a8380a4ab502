/** A gateway over scripted upstreams, and a downstream client talking to it over in-process stdio. */
import { PassThrough } from "node:stream";
import type { ServerConfig } from "@mcpx/config";
import { DEFAULT_UPSTREAM_SETTINGS, type JSONObject, type JSONRPCMessage, silentLogger } from "@mcpx/core";
import { Gateway, StdioServer } from "@mcpx/gateway";
import { ScriptedServer, type ScriptedServerOptions, type StdioScript, stdioScript } from "@mcpx/testkit";
import { afterEach } from "vitest";
import { handlers, settings, testHost } from "./harness.js";

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of stops.splice(0).reverse()) await fn().catch(() => {});
});

/** A response as a downstream client reads it. */
export interface DownstreamResponse {
  id: string | number | null;
  result?: JSONObject;
  error?: { code: number; message: string; data?: unknown };
}

export interface UpstreamSpec extends ScriptedServerOptions {
  name: string;
  namespace?: string;
  namespacing?: boolean;
  tools?: JSONObject[];
  include?: string[];
  exclude?: string[];
}

export interface ScriptedGatewayOptions {
  pageSize?: number;
  /** Keep reconnecting dropped upstreams (off by default in tests), with this backoff. */
  reconnect?: { initialMs: number; maxMs: number };
  /** Do not wait for every upstream's first attempt before returning. */
  noWait?: boolean;
}

export async function scriptedGateway(specs: UpstreamSpec[], opts: ScriptedGatewayOptions = {}) {
  const host = await testHost();
  const servers: ServerConfig[] = [];
  const scripted: Record<string, ScriptedServer> = {};
  const scripts: Record<string, StdioScript> = {};
  for (const spec of specs) {
    const server = new ScriptedServer({ label: `gateway upstream "${spec.name}"`, ...spec });
    const script = await stdioScript(server);
    stops.push(() => script.close());
    scripted[spec.name] = server;
    scripts[spec.name] = script;
    servers.push({
      kind: "command",
      name: spec.name,
      namespace: spec.namespace ?? spec.name,
      namespacing: spec.namespacing ?? true,
      disabled: false,
      command: script.command,
      args: script.args,
      env: {},
      tools: {
        ...(spec.include ? { include: spec.include } : {}),
        ...(spec.exclude ? { exclude: spec.exclude } : {}),
      },
      settings: settings({
        ...DEFAULT_UPSTREAM_SETTINGS,
        requestTimeout: 3000,
        handshakeTimeout: 3000,
        closeGrace: 300,
      }),
    });
  }
  const gateway = new Gateway({
    servers,
    env: host,
    handlers: handlers({}),
    ...(opts.reconnect ? { backoff: opts.reconnect } : { reconnect: false }),
    ...(opts.pageSize ? { pageSize: opts.pageSize } : {}),
  });
  gateway.start();
  stops.push(() => gateway.stop());
  if (!opts.noWait) await gateway.pool.settled();
  return { gateway, host, scripted, scripts };
}

/** A downstream client on an in-process `mcpx stdio`. */
export function stdioClient(gateway: Gateway) {
  const input = new PassThrough();
  const output = new PassThrough();
  const server = new StdioServer(gateway, { input, output, log: silentLogger });
  server.start();
  stops.push(() => server.close());
  const received: JSONRPCMessage[] = [];
  const waiters: { match: (m: JSONRPCMessage) => boolean; resolve: (m: JSONRPCMessage) => void }[] = [];
  let buffer = "";
  output.setEncoding("utf8");
  output.on("data", (chunk: string) => {
    buffer += chunk;
    let nl = buffer.indexOf("\n");
    while (nl !== -1) {
      const msg = JSON.parse(buffer.slice(0, nl)) as JSONRPCMessage;
      buffer = buffer.slice(nl + 1);
      received.push(msg);
      for (const w of [...waiters]) {
        if (w.match(msg)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(msg);
        }
      }
      nl = buffer.indexOf("\n");
    }
  });
  let nextId = 1;
  const waitFor = (match: (m: JSONRPCMessage) => boolean, ms = 5000) => {
    const seen = received.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise<JSONRPCMessage>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error("stdio client: timed out")), ms);
      waiters.push({
        match,
        resolve: (m) => {
          clearTimeout(t);
          resolve(m);
        },
      });
    });
  };
  return {
    received,
    waitFor,
    send(msg: JSONObject) {
      input.write(`${JSON.stringify({ jsonrpc: "2.0", ...msg })}\n`);
    },
    /** Sends a request and resolves with its response. */
    async request(method: string, params?: JSONObject, id: string | number = nextId++) {
      input.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) })}\n`);
      return (await waitFor((m) => !("method" in m) && m.id === id)) as unknown as DownstreamResponse;
    },
  };
}
