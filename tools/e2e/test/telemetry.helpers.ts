/**
 * A real `mcpx serve` (in the test process) with telemetry on, its spans and metrics kept in memory
 * (the SDK's InMemorySpanExporter and a pull MetricReader added to @mcpx/telemetry-otel), in front
 * of scripted Streamable HTTP upstreams of a chosen revision.
 */
import { join } from "node:path";
import { type JSONObject, MetaKey } from "@mcpx/core";
import { type Serving, serve } from "@mcpx/daemon";
import { telemetryPlugin } from "@mcpx/telemetry-otel";
import { type HttpScript, httpScript, ScriptedServer } from "@mcpx/testkit";
import { type DataPoint, MetricReader, type ResourceMetrics } from "@opentelemetry/sdk-metrics";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterThisTest, configDir, freePort } from "../src/index.js";

export const MODERN = "2026-07-28";
export const TOKEN = "the-token";

export const echo = {
  name: "echo",
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
};

/** A metric reader the test pulls from (the SDK's documented way to read metrics in process). */
export class PullReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
  async read(): Promise<ResourceMetrics> {
    return (await this.collect()).resourceMetrics;
  }
}

/** The data points of one metric, by name. */
export function points(metrics: ResourceMetrics, name: string): DataPoint<unknown>[] {
  for (const scope of metrics.scopeMetrics) {
    for (const m of scope.metrics)
      if (m.descriptor.name === name) return m.dataPoints as DataPoint<unknown>[];
  }
  return [];
}

/** A scripted upstream over Streamable HTTP with an `echo` tool that fails on "fail". */
export async function httpUpstream(name: string, version: string): Promise<HttpScript> {
  const server = new ScriptedServer({
    label: `telemetry upstream "${name}" (${version})`,
    versions: [version],
    capabilities: { tools: {} },
    tools: [echo],
  });
  server.on("tools/call", async (req) => {
    const args = ((req.params as JSONObject | undefined)?.arguments ?? {}) as JSONObject;
    return { content: [{ type: "text", text: `${name}: ${String(args.text)}` }] };
  });
  const script = await httpScript(server);
  afterThisTest(() => script.close());
  return script;
}

export interface TelemetryDaemon {
  serving: Serving;
  url: string;
  base: string;
  spans: InMemorySpanExporter;
  reader: PullReader;
  /** A 2026-07-28 request to mcpx, with its mirrored headers (and any extra ones). */
  call(method: string, params: JSONObject, headers?: Record<string, string>): Promise<JSONObject>;
}

export async function telemetryDaemon(
  upstreams: Record<string, { script: HttpScript; revision: string }>,
  telemetry: JSONObject = {
    enabled: true,
    traces: { exporter: "none" },
    metrics: { exporter: "prometheus" },
  },
): Promise<TelemetryDaemon> {
  const port = await freePort();
  const servers: Record<string, JSONObject> = {};
  for (const [name, u] of Object.entries(upstreams))
    servers[name] = { url: u.script.url, revision: u.revision };
  const dir = await configDir({
    listen: { host: "127.0.0.1", port, token: TOKEN },
    servers,
    stateDir: ".state",
    console: false,
    reload: { watch: false },
    telemetry,
  });
  const spans = new InMemorySpanExporter();
  const reader = new PullReader();
  const serving = await serve({
    configFile: join(dir, "mcpx.json"),
    env: {},
    writeLog: () => {},
    logLevel: "error",
    plugins: [telemetryPlugin({ spanProcessors: [new SimpleSpanProcessor(spans)], metricReaders: [reader] })],
  });
  afterThisTest(() => serving.stop());
  let id = 1;
  const call = async (method: string, params: JSONObject, headers: Record<string, string> = {}) => {
    const meta = {
      [MetaKey.protocolVersion]: MODERN,
      [MetaKey.clientCapabilities]: {},
      ...((params._meta as JSONObject | undefined) ?? {}),
    };
    const mirrored: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${TOKEN}`,
      "mcp-protocol-version": MODERN,
      "mcp-method": method,
    };
    if (typeof params.name === "string") mirrored["mcp-name"] = params.name;
    const res = await fetch(serving.url, {
      method: "POST",
      headers: { ...mirrored, ...headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: id++, method, params: { ...params, _meta: meta } }),
    });
    return (await res.json()) as JSONObject;
  };
  return { serving, url: serving.url, base: new URL("/.mcpx/", serving.url).href, spans, reader, call };
}
