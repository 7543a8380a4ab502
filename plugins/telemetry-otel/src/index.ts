/**
 * @mcpx/telemetry-otel: mcpx's Telemetry on the OpenTelemetry SDK. One SERVER span per downstream
 * request with a CLIENT child per upstream call, W3C trace context in and out, and metrics (calls,
 * errors, latency, upstream states) exported by OTLP or served at GET /.mcpx/metrics in the
 * Prometheus text format. The daemon imports this package only when telemetry is on.
 *
 * The providers are this plugin's own, never the global ones: two gateways in one process (tests,
 * an embedding app with its own SDK) do not share or fight over them. Context is passed explicitly
 * (no context manager), so nothing is patched and no async hook is installed.
 */

import {
  ControlText,
  type DownstreamRequest,
  definePlugin,
  type Plugin,
  type RequestSpan,
  type Telemetry,
  type TelemetryContext,
  type TelemetrySettings,
  type TraceCarrier,
  type UpstreamCallSpan,
  type UpstreamHealth,
} from "@mcpx/core";
import {
  type Attributes,
  type Context,
  type Counter,
  type Histogram,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  trace,
} from "@opentelemetry/api";
import { W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { PrometheusExporter, PrometheusSerializer } from "@opentelemetry/exporter-prometheus";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { MeterProvider, type MetricReader, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  type SpanProcessor,
  TraceIdRatioBasedSampler,
} from "@opentelemetry/sdk-trace-base";

export const PLUGIN_NAME = "@mcpx/telemetry-otel";

/** What a test or an embedding app adds to what the settings make (in-memory exporters, readers). */
export interface OtelExtras {
  spanProcessors?: SpanProcessor[];
  metricReaders?: MetricReader[];
}

/**
 * What a client chooses is bounded before it is recorded: an attribute value (a tool name, a URI)
 * is cut at 1 KiB, a span name at 256 characters, and a metric counts at most MAX_METHODS method
 * names (then "other"), so a client inventing methods cannot grow the series without end.
 */
const ATTRIBUTE_VALUE_LIMIT = 1024;
const SPAN_NAME_LIMIT = 256;
const MAX_METHODS = 200;

const spanName = (method: string, target: string | undefined) =>
  (target === undefined ? method : `${method} ${target}`).slice(0, SPAN_NAME_LIMIT);

const traceContext = new W3CTraceContextPropagator();
const baggage = new W3CBaggagePropagator();

/** Reads a header record or a `_meta` object alike (header values may be arrays). */
const getter: TextMapGetter<Readonly<Record<string, unknown>>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const v = carrier[key];
    if (typeof v === "string") return v;
    if (Array.isArray(v) && v.every((x) => typeof x === "string")) return v as string[];
    return undefined;
  },
};

/** The client's trace context: a 2026-07-28 request's `_meta` first, else the HTTP headers. */
function extract(req: DownstreamRequest): Context {
  const carrier = req.meta && typeof req.meta.traceparent === "string" ? req.meta : req.headers;
  if (!carrier) return ROOT_CONTEXT;
  return baggage.extract(traceContext.extract(ROOT_CONTEXT, carrier, getter), carrier, getter);
}

function inject(ctx: Context): TraceCarrier {
  const carrier: Record<string, string> = {};
  const set = {
    set: (c: Record<string, string>, k: string, v: string) => {
      c[k] = v;
    },
  };
  traceContext.inject(ctx, carrier, set);
  baggage.inject(ctx, carrier, set);
  return carrier;
}

/** A JSON-RPC error code of a failed upstream call, if the error carries one. */
function codeOf(err: unknown): number | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "number" ? code : undefined;
}

/** mcp.* and gen_ai.* names follow the OpenTelemetry semantic conventions for MCP (Development). */
function requestAttributes(req: DownstreamRequest): Attributes {
  const attrs: Attributes = {
    "mcp.method.name": req.method,
    "mcp.protocol.version": req.version,
    "jsonrpc.request.id": String(req.id),
    "network.transport": req.headers ? "tcp" : "pipe",
  };
  if (req.method === "tools/call" && req.name !== undefined) {
    attrs["gen_ai.tool.name"] = req.name;
    attrs["gen_ai.operation.name"] = "execute_tool";
  } else if (req.method === "prompts/get" && req.name !== undefined) attrs["gen_ai.prompt.name"] = req.name;
  if (req.uri !== undefined) attrs["mcp.resource.uri"] = req.uri;
  return attrs;
}

class OtelTelemetry implements Telemetry {
  readonly #tracer;
  readonly #tracing: BasicTracerProvider;
  readonly #meters: MeterProvider;
  readonly #calls: Counter;
  readonly #errors: Counter;
  readonly #duration: Histogram;
  readonly #upstreamDuration: Histogram;
  #upstreams: () => readonly UpstreamHealth[] = () => [];
  /** The method names metrics have counted so far (bounded by MAX_METHODS). */
  readonly #methods = new Set<string>();

  constructor(settings: TelemetrySettings, processors: SpanProcessor[], readers: MetricReader[]) {
    const resource = resourceFromAttributes({ "service.name": settings.serviceName });
    this.#tracing = new BasicTracerProvider({
      resource,
      // A client's sampled flag is followed; a trace mcpx starts is sampled at the ratio.
      sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(settings.sampleRatio) }),
      spanProcessors: processors,
      spanLimits: { attributeValueLengthLimit: ATTRIBUTE_VALUE_LIMIT },
    });
    this.#tracer = this.#tracing.getTracer(PLUGIN_NAME);
    this.#meters = new MeterProvider({ resource, readers });
    const meter = this.#meters.getMeter(PLUGIN_NAME);
    this.#calls = meter.createCounter("mcpx.calls", {
      description: "Downstream requests answered, by method, upstream and outcome",
    });
    this.#errors = meter.createCounter("mcpx.errors", {
      description: "Downstream requests answered with an error, by method and JSON-RPC code",
    });
    this.#duration = meter.createHistogram("mcp.server.operation.duration", {
      unit: "s",
      description: "How long mcpx took to answer a downstream request",
    });
    this.#upstreamDuration = meter.createHistogram("mcp.client.operation.duration", {
      unit: "s",
      description: "How long an upstream took to answer mcpx",
    });
    meter
      .createObservableGauge("mcpx.upstream.up", {
        description: "1 for an upstream's current state (connected, connecting, failed, …), per upstream",
      })
      .addCallback((result) => {
        for (const u of this.#upstreams()) result.observe(1, { "mcpx.upstream": u.name, state: u.status });
      });
  }

  observeUpstreams(read: () => readonly UpstreamHealth[]): void {
    this.#upstreams = read;
  }

  /** The method as a metric attribute: the first MAX_METHODS names seen, then "other". */
  #methodLabel(method: string): string {
    if (this.#methods.has(method)) return method;
    if (this.#methods.size >= MAX_METHODS) return "other";
    this.#methods.add(method);
    return method;
  }

  startRequest(req: DownstreamRequest): RequestSpan {
    const parent = extract(req);
    const span = this.#tracer.startSpan(
      spanName(req.method, req.name),
      { kind: SpanKind.SERVER, attributes: requestAttributes(req) },
      parent,
    );
    const ctx = trace.setSpan(parent, span);
    const started = performance.now();
    let upstream: string | undefined;
    return {
      upstreamCall: (name, version, transport) => {
        upstream = name;
        return this.#upstreamCall(ctx, req, name, version, transport);
      },
      end: (errorCode) => {
        const seconds = (performance.now() - started) / 1000;
        const attrs: Attributes = { "mcp.method.name": this.#methodLabel(req.method) };
        if (upstream !== undefined) {
          attrs["mcpx.upstream"] = upstream;
          span.setAttribute("mcpx.upstream", upstream);
        }
        if (errorCode !== undefined) {
          span.setAttribute("rpc.response.status_code", String(errorCode));
          span.setAttribute("error.type", String(errorCode));
          span.setStatus({ code: SpanStatusCode.ERROR });
          attrs["error.type"] = String(errorCode);
          this.#errors.add(1, attrs);
        }
        this.#calls.add(1, { ...attrs, outcome: errorCode === undefined ? "ok" : "error" });
        this.#duration.record(seconds, attrs);
        span.end();
      },
    };
  }

  #upstreamCall(
    parent: Context,
    req: DownstreamRequest,
    upstream: string,
    version: string,
    transport: string,
  ): UpstreamCallSpan {
    const attrs: Attributes = {
      "mcp.method.name": req.method,
      "mcp.protocol.version": version,
      "mcpx.upstream": upstream,
      "network.transport": transport === "stdio" ? "pipe" : "tcp",
    };
    if (req.method === "tools/call" && req.name !== undefined) attrs["gen_ai.tool.name"] = req.name;
    if (req.method === "prompts/get" && req.name !== undefined) attrs["gen_ai.prompt.name"] = req.name;
    const span = this.#tracer.startSpan(
      spanName(req.method, req.name),
      { kind: SpanKind.CLIENT, attributes: attrs },
      parent,
    );
    const started = performance.now();
    return {
      carrier: inject(trace.setSpan(parent, span)),
      end: (error) => {
        const metric: Attributes = {
          "mcp.method.name": this.#methodLabel(req.method),
          "mcpx.upstream": upstream,
        };
        if (error !== undefined) {
          const code = codeOf(error);
          const type = code === undefined ? ((error as Error)?.name ?? "Error") : String(code);
          span.setAttribute("error.type", type);
          if (code !== undefined) span.setAttribute("rpc.response.status_code", String(code));
          span.setStatus({ code: SpanStatusCode.ERROR });
          metric["error.type"] = type;
        }
        this.#upstreamDuration.record((performance.now() - started) / 1000, metric);
        span.end();
      },
    };
  }

  async shutdown(): Promise<void> {
    await Promise.allSettled([this.#tracing.shutdown(), this.#meters.shutdown()]);
  }
}

/** Makes the telemetry the settings describe (and the extras add). */
export async function createOtelTelemetry(
  settings: TelemetrySettings,
  ctx: TelemetryContext,
  extras: OtelExtras = {},
): Promise<Telemetry> {
  const processors: SpanProcessor[] = [...(extras.spanProcessors ?? [])];
  if (settings.traces.exporter === "otlp") {
    processors.push(
      new BatchSpanProcessor(
        new OTLPTraceExporter(settings.traces.endpoint ? { url: settings.traces.endpoint } : {}),
      ),
    );
  } else if (settings.traces.exporter === "console") {
    processors.push(new BatchSpanProcessor(new ConsoleSpanExporter()));
  }
  const readers: MetricReader[] = [...(extras.metricReaders ?? [])];
  if (settings.metrics.exporter === "otlp") {
    readers.push(
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter(settings.metrics.endpoint ? { url: settings.metrics.endpoint } : {}),
        ...(settings.metrics.intervalMs ? { exportIntervalMillis: settings.metrics.intervalMs } : {}),
      }),
    );
  } else if (settings.metrics.exporter === "prometheus") {
    // Its own server is never started: the text is served on the listen address, behind the
    // control API's checks (loopback, the token), as /.mcpx/status is.
    const prometheus = new PrometheusExporter({ preventServerStart: true });
    const serializer = new PrometheusSerializer();
    readers.push(prometheus);
    ctx.registerControlRoute({
      method: "GET",
      path: "metrics",
      handle: async () => {
        const { resourceMetrics } = await prometheus.collect();
        return new ControlText(
          serializer.serialize(resourceMetrics),
          "text/plain; version=0.0.4; charset=utf-8",
        );
      },
    });
  }
  ctx.log.info("telemetry on", {
    serviceName: settings.serviceName,
    traces: settings.traces.exporter,
    metrics: settings.metrics.exporter,
  });
  return new OtelTelemetry(settings, processors, readers);
}

/** The plugin, with extras (a test's in-memory exporter) added to what the settings make. */
export function telemetryPlugin(extras: OtelExtras = {}): Plugin {
  return definePlugin({
    name: PLUGIN_NAME,
    apiVersion: 1,
    apply(host) {
      host.registerTelemetry({
        name: PLUGIN_NAME,
        create: (settings, ctx) => createOtelTelemetry(settings, ctx, extras),
      });
    },
  });
}

export default telemetryPlugin();
