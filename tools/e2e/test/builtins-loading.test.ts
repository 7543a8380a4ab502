/**
 * The built-in transports and auth schemes are imported only when the config uses them. A real
 * `mcpx serve` (the built @mcpx/daemon) runs in a child process whose module loader reports every
 * module it resolves (a `module.register` hook), as in telemetry-loading.test.ts. It needs a build of
 * @mcpx/daemon and what it uses (turbo build --filter=@mcpx/daemon...).
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import type { JSONObject } from "@mcpx/core";
import { describe, expect, it } from "vitest";
import { configDir, freePort, runModuleProbe } from "../src/index.js";

const everything = createRequire(import.meta.url).resolve(
  "@modelcontextprotocol/server-everything/dist/index.js",
);

const CHILD = `
const { serve } = await import("@mcpx/daemon");
const serving = await serve({ configFile: process.argv[1], writeLog: () => {}, logLevel: "error" });
await serving.runtime.gateway.pool.settled();
const states = await (await fetch(new URL("/.mcpx/status", serving.url), { headers: { authorization: "Bearer t" } })).json();
const plugins = serving.runtime.host.plugins.map((p) => p.name);
await serving.stop();
await new Promise((r) => setTimeout(r, 100));
port1.close();
const of = (part) => [...loaded].filter((u) => u.includes(part)).length;
process.stdout.write(JSON.stringify({
  status: states.upstreams.map((s) => s.status),
  plugins,
  stdio: of("transport-stdio"),
  http: of("transport-streamable-http") + of("transport-http-sse"),
  auth: of("/plugins/auth-"),
}));
`;

interface Outcome {
  status: string[];
  plugins: string[];
  stdio: number;
  http: number;
  auth: number;
}

async function run(servers: Record<string, JSONObject>): Promise<Outcome> {
  const port = await freePort();
  const dir = await configDir({
    listen: { host: "127.0.0.1", port, token: "t" },
    servers,
    stateDir: ".state",
    console: false,
    reload: { watch: false },
  });
  return runModuleProbe<Outcome>(CHILD, [join(dir, "mcpx.json")]);
}

describe("built-ins loading", () => {
  it("memory/idle-serve-loads-only-what-the-config-uses", async () => {
    const one = await run({ fs: { command: process.execPath, args: [everything, "stdio"] } });
    expect(one.status).toEqual(["connected"]);
    expect(one.stdio).toBeGreaterThan(0);
    expect(one.http).toBe(0);
    expect(one.auth).toBe(0);
    expect(one.plugins).toContain("@mcpx/transport-stdio");
    expect(one.plugins).toContain("@mcpx/elicitation-broker");
    expect(one.plugins.filter((p) => p.startsWith("@mcpx/revision-"))).toHaveLength(5);
    expect(one.plugins.some((p) => p.startsWith("@mcpx/auth-") || p.includes("http"))).toBe(false);
    // A disabled url upstream with auth loads nothing more.
    const disabled = await run({
      fs: { command: process.execPath, args: [everything, "stdio"] },
      web: { url: "http://127.0.0.1:9/mcp", auth: { type: "bearer", token: "x" }, disabled: true },
    });
    expect(disabled.http).toBe(0);
    expect(disabled.auth).toBe(0);
    // Each case starts a node process: more than the default test time on a loaded machine.
  }, 120_000);
});
