/** A host with the built-in plugins, and scripted upstreams connected through it. */
import { type ClientHandlers, UpstreamClient, type UpstreamClientOptions } from "@mcpx/client";
import {
  DEFAULT_UPSTREAM_SETTINGS,
  type LifecycleEvent,
  silentLogger,
  type UpstreamSettings,
} from "@mcpx/core";
import { loadBuiltinPlugins } from "@mcpx/daemon";
import { createHost, type Host } from "@mcpx/host";
import { ScriptedServer, type ScriptedServerOptions, type StdioScript, stdioScript } from "@mcpx/testkit";
import { afterEach } from "vitest";

export async function testHost(): Promise<Host & { events: LifecycleEvent[] }> {
  const host = createHost({ log: silentLogger });
  // The same plugins, in the same order, as every mcpx applies before a config's own.
  for (const p of await loadBuiltinPlugins()) await host.use(p);
  const events: LifecycleEvent[] = [];
  host.hooks.lifecycle.tap("e2e", (e) => events.push(e));
  return Object.assign(host, { events });
}

/** Fast settings for tests: short timeouts so a hang shows in seconds. */
export function settings(overrides: Partial<UpstreamSettings> = {}): UpstreamSettings {
  return {
    ...DEFAULT_UPSTREAM_SETTINGS,
    requestTimeout: 3000,
    handshakeTimeout: 3000,
    closeGrace: 500,
    ...overrides,
  };
}

const cleanups: (() => Promise<void>)[] = [];

/** Runs `fn` after the current test (closing servers and clients), newest first. */
export function afterThisTest(fn: () => Promise<void>): void {
  cleanups.push(fn);
}
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn().catch(() => {});
});

export interface StdioCase {
  server: ScriptedServer;
  script: StdioScript;
  host: Host & { events: LifecycleEvent[] };
  connect(opts?: Partial<Omit<UpstreamClientOptions, "target" | "env">>): Promise<UpstreamClient>;
}

/** A scripted server of `versions` over stdio, and a way to connect mcpx to it. */
export async function stdioCase(options: ScriptedServerOptions): Promise<StdioCase> {
  const server = new ScriptedServer(options);
  const script = await stdioScript(server);
  const host = await testHost();
  cleanups.push(() => script.close());
  return {
    server,
    script,
    host,
    async connect(opts = {}) {
      const client = await UpstreamClient.connect({
        target: { name: "scripted", command: script.command, args: script.args },
        env: host,
        settings: settings(),
        ...opts,
      });
      cleanups.push(() => client.close());
      return client;
    },
  };
}

export function handlers(partial: Partial<ClientHandlers>): ClientHandlers {
  return { elicitation: [], sampling: [], roots: () => [], ...partial };
}

export const TOOLS = [
  {
    name: "echo",
    description: "echoes",
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
  },
  {
    name: "add",
    inputSchema: { type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } } },
  },
];
export const RESOURCES = [{ uri: "file:///a.txt", name: "a" }];
export const PROMPTS = [{ name: "greet", description: "greets" }];
