/**
 * The OpenTelemetry SDK is loaded only when telemetry is on. A real `mcpx serve` (the built
 * @mcpx/daemon) runs in a child process whose module loader reports every module it resolves (a
 * `module.register` hook); the child answers a request, asks for GET /.mcpx/metrics, and says which
 * modules came in. It needs a build of @mcpx/daemon and what it uses (turbo build --filter=@mcpx/daemon...).
 */
import { join } from "node:path";
import type { JSONObject } from "@mcpx/core";
import { describe, expect, it } from "vitest";
import { configDir, freePort, runModuleProbe } from "../src/index.js";

const CHILD = `
const { serve } = await import("@mcpx/daemon");
const serving = await serve({ configFile: process.argv[1], writeLog: () => {}, logLevel: "error" });
const headers = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  authorization: "Bearer t",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/list",
};
const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const answer = await fetch(serving.url, {
  method: "POST",
  headers,
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } }),
});
const listed = await answer.json();
const metrics = await fetch(new URL("/.mcpx/metrics", serving.url), { headers: { authorization: "Bearer t" } });
await metrics.text();
await serving.stop();
await new Promise((r) => setTimeout(r, 100));
port1.close();
const otel = [...loaded].filter((u) => u.includes("/@opentelemetry/"));
const plugin = [...loaded].filter((u) => u.includes("telemetry-otel"));
process.stdout.write(JSON.stringify({ listed: "result" in listed, metrics: metrics.status, otel: otel.length, plugin: plugin.length }));
`;

interface Outcome {
  listed: boolean;
  metrics: number;
  otel: number;
  plugin: number;
}

/** A `mcpx serve` in a child with this config's telemetry and these OTEL_* variables. */
async function run(
  telemetry: JSONObject | undefined,
  otelEnv: Record<string, string> = {},
): Promise<Outcome> {
  const port = await freePort();
  const dir = await configDir({
    listen: { host: "127.0.0.1", port, token: "t" },
    servers: {},
    stateDir: ".state",
    console: false,
    reload: { watch: false },
    ...(telemetry ? { telemetry } : {}),
  });
  // The test's own OTEL_* (if any) stay out: only what each case sets.
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("OTEL_")) env[k] = v;
  return runModuleProbe<Outcome>(CHILD, [join(dir, "mcpx.json")], { ...env, ...otelEnv });
}

describe("telemetry loading", () => {
  it("telemetry/off-by-default-nothing-loaded", async () => {
    // No telemetry key, no OTEL_*: nothing of OpenTelemetry is loaded, and there is no /.mcpx/metrics.
    const off = await run(undefined);
    expect(off).toEqual({ listed: true, metrics: 404, otel: 0, plugin: 0 });
    // OTEL_SDK_DISABLED wins over an exporter asked for.
    const disabled = await run(undefined, { OTEL_SDK_DISABLED: "true", OTEL_METRICS_EXPORTER: "prometheus" });
    expect(disabled).toEqual({ listed: true, metrics: 404, otel: 0, plugin: 0 });
    // `enabled: false` wins over the environment.
    const refused = await run({ enabled: false }, { OTEL_METRICS_EXPORTER: "prometheus" });
    expect(refused).toEqual({ listed: true, metrics: 404, otel: 0, plugin: 0 });
    // Each case starts a node process: more than the default test time on a loaded machine.
  }, 120_000);

  it("memory/opentelemetry-loads-only-when-telemetry-is-on", async () => {
    const on = await run({
      enabled: true,
      traces: { exporter: "none" },
      metrics: { exporter: "prometheus" },
    });
    expect(on.listed).toBe(true);
    expect(on.metrics).toBe(200);
    expect(on.plugin).toBeGreaterThan(0);
    expect(on.otel).toBeGreaterThan(0);
    // The environment alone turns it on, as the SDK defines OTEL_METRICS_EXPORTER.
    const byEnv = await run(undefined, { OTEL_METRICS_EXPORTER: "prometheus", OTEL_TRACES_EXPORTER: "none" });
    expect(byEnv.metrics).toBe(200);
    expect(byEnv.otel).toBeGreaterThan(0);
    const off = await run({ enabled: false });
    expect(off.otel).toBe(0);
  }, 120_000);
});
