/**
 * Whether telemetry is on and how, from the config's `telemetry` and the OTEL_* environment
 * variables the OpenTelemetry SDK reads. Precedence (the plugin README has the table):
 * OTEL_SDK_DISABLED=true turns it off whatever else says (the SDK's own switch); then
 * `telemetry.enabled`; absent, it is on when OTEL_* ask for an exporter. Each setting is the
 * config's key, else its OTEL_* variable, else the default.
 */
import type { TelemetrySettings } from "@mcpx/core";
import type { Env } from "./load.js";
import type { TelemetryConfig } from "./types.js";

const TRACE_EXPORTERS = ["otlp", "console", "none"] as const;
const METRIC_EXPORTERS = ["otlp", "prometheus", "none"] as const;

/** The first of a comma-separated OTEL_*_EXPORTER list that mcpx knows. */
function listed<T extends string>(value: string | undefined, known: readonly T[]): T | undefined {
  if (!value) return undefined;
  for (const part of value.split(",")) {
    const name = part.trim().toLowerCase() as T;
    if (known.includes(name)) return name;
  }
  return undefined;
}

/** The OTLP/HTTP URL of one signal: its own variable as given, else the base one with /v1/<signal>. */
function otlpEndpoint(env: Env, signal: "traces" | "metrics"): string | undefined {
  const own = env[`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_ENDPOINT`];
  if (own) return own;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return base ? `${base.replace(/\/+$/, "")}/v1/${signal}` : undefined;
}

function number(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** Whether the environment alone asks for telemetry (an exporter, or where to send OTLP). */
function envAsks(env: Env): boolean {
  const traces = env.OTEL_TRACES_EXPORTER;
  const metrics = env.OTEL_METRICS_EXPORTER;
  return (
    (traces !== undefined && traces.trim() !== "" && traces.trim() !== "none") ||
    (metrics !== undefined && metrics.trim() !== "" && metrics.trim() !== "none") ||
    Boolean(
      env.OTEL_EXPORTER_OTLP_ENDPOINT ||
        env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ||
        env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT,
    )
  );
}

/** The settings telemetry runs with, or undefined when it is off. */
export function resolveTelemetry(config: TelemetryConfig, env: Env): TelemetrySettings | undefined {
  if ((env.OTEL_SDK_DISABLED ?? "").trim().toLowerCase() === "true") return undefined;
  if (config.enabled === false) return undefined;
  if (config.enabled !== true && !envAsks(env)) return undefined;

  const tracesEndpoint = config.traces?.endpoint ?? otlpEndpoint(env, "traces");
  const metricsEndpoint = config.metrics?.endpoint ?? otlpEndpoint(env, "metrics");
  const traceExporter =
    config.traces?.exporter ?? listed(env.OTEL_TRACES_EXPORTER, TRACE_EXPORTERS) ?? "otlp";
  // The SDK's default is otlp; with no collector named, the Prometheus endpoint needs nothing else.
  const metricExporter =
    config.metrics?.exporter ??
    listed(env.OTEL_METRICS_EXPORTER, METRIC_EXPORTERS) ??
    (metricsEndpoint ? "otlp" : "prometheus");
  const sampler = (env.OTEL_TRACES_SAMPLER ?? "").trim();
  const envRatio = sampler.endsWith("traceidratio") ? number(env.OTEL_TRACES_SAMPLER_ARG) : undefined;
  const ratio = config.sampleRatio ?? envRatio ?? 1;
  const intervalMs = config.metrics?.intervalMs ?? number(env.OTEL_METRIC_EXPORT_INTERVAL);

  return {
    serviceName: config.serviceName ?? (env.OTEL_SERVICE_NAME || "mcpx"),
    traces: {
      exporter: traceExporter,
      ...(traceExporter === "otlp" && tracesEndpoint ? { endpoint: tracesEndpoint } : {}),
    },
    metrics: {
      exporter: metricExporter,
      ...(metricExporter === "otlp" && metricsEndpoint ? { endpoint: metricsEndpoint } : {}),
      ...(intervalMs !== undefined ? { intervalMs } : {}),
    },
    sampleRatio: Math.min(1, Math.max(0, ratio)),
  };
}
