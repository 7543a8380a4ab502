/**
 * The plugin on its own, with the SDK's in-memory exporter: the sample ratio decides which requests
 * are recorded, a client's trace context is continued into the upstream carrier, and the
 * Prometheus route exists only for the prometheus exporter. (The gateway's use of it is in
 * tools/e2e/test/telemetry*.test.ts.)
 */
import { type ControlRoute, ControlText, silentLogger, type TelemetrySettings } from "@mcpx/core";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { createOtelTelemetry } from "../src/index.js";

function settings(overrides: Partial<TelemetrySettings> = {}): TelemetrySettings {
  return {
    serviceName: "mcpx-test",
    traces: { exporter: "none" },
    metrics: { exporter: "none" },
    sampleRatio: 1,
    ...overrides,
  };
}

async function make(over: Partial<TelemetrySettings> = {}) {
  const exporter = new InMemorySpanExporter();
  const routes: ControlRoute[] = [];
  const telemetry = await createOtelTelemetry(
    settings(over),
    { log: silentLogger, registerControlRoute: (r) => routes.push(r) },
    { spanProcessors: [new SimpleSpanProcessor(exporter)] },
  );
  return { telemetry, exporter, routes };
}

const TRACE = "0af7651916cd43dd8448eb211c80319c";

describe("telemetry-otel", () => {
  it("telemetry-otel/client-trace-context-continued-into-the-upstream-carrier", async () => {
    const { telemetry, exporter } = await make();
    const span = telemetry.startRequest({
      method: "tools/call",
      id: 1,
      name: "echo",
      version: "2025-11-25",
      headers: { traceparent: `00-${TRACE}-b7ad6b7169203331-01` },
    });
    const call = span.upstreamCall("up", "2025-11-25", "stdio");
    expect(call.carrier.traceparent).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-01$`));
    call.end();
    span.end();
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name).sort()).toEqual(["tools/call echo", "tools/call echo"].sort());
    expect(spans.every((s) => s.spanContext().traceId === TRACE)).toBe(true);
    await telemetry.shutdown();
  });

  it("telemetry-otel/sample-ratio-zero-records-no-span", async () => {
    const { telemetry, exporter } = await make({ sampleRatio: 0 });
    const span = telemetry.startRequest({ method: "tools/list", id: 2, version: "2026-07-28" });
    span.upstreamCall("up", "2026-07-28", "streamable-http").end();
    span.end();
    expect(exporter.getFinishedSpans()).toEqual([]);
    await telemetry.shutdown();
  });

  it("telemetry-otel/prometheus-route-only-for-the-prometheus-exporter", async () => {
    const none = await make();
    expect(none.routes).toEqual([]);
    await none.telemetry.shutdown();
    const prom = await make({ metrics: { exporter: "prometheus" } });
    expect(prom.routes.map((r) => `${r.method} ${r.path}`)).toEqual(["GET metrics"]);
    const span = prom.telemetry.startRequest({
      method: "tools/call",
      id: 3,
      name: "echo",
      version: "2025-11-25",
    });
    span.end();
    const answer = await prom.routes[0]?.handle({ params: {}, query: {}, body: undefined } as never);
    expect(answer).toBeInstanceOf(ControlText);
    expect((answer as ControlText).body).toContain("mcpx_calls");
    await prom.telemetry.shutdown();
  });
});
