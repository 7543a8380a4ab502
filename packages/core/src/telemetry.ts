/**
 * Telemetry: traces and metrics of the calls mcpx serves. The interface lives here, the behaviour in
 * a plugin (@mcpx/telemetry-otel) that registers a TelemetryFactory; the daemon makes the telemetry
 * the config asks for, once. With none, the gateway and client hold `undefined` and the per-call
 * path costs one check: nothing here is allocated or called.
 */
import type { JSONObject } from "./jsonrpc.js";
import type { Logger } from "./log.js";

/** W3C trace context (traceparent, tracestate) and W3C baggage, named as HTTP headers name them. */
export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
  baggage?: string;
}

/** The `_meta` keys (and HTTP headers) of trace context, where a revision defines them in `_meta`. */
export const TRACE_CONTEXT_KEYS = Object.freeze(["traceparent", "tracestate", "baggage"] as const);

/** One downstream request, as the server protocol sees it before it is answered. */
export interface DownstreamRequest {
  method: string;
  id: string | number;
  /** The tool or prompt name (tools/call, prompts/get). */
  name?: string;
  /** The resource URI (resources/read). */
  uri?: string;
  /** The client's revision. */
  version: string;
  /** The HTTP request's headers (lower-cased), where the client came over HTTP. */
  headers?: Readonly<Record<string, string | string[] | undefined>>;
  /** The request's `_meta`, where the client's revision defines trace context keys in it. */
  meta?: JSONObject;
}

/** The span of one downstream request (SERVER). */
export interface RequestSpan {
  /** A CLIENT child span for one call to an upstream. */
  upstreamCall(upstream: string, version: string, transport: string): UpstreamCallSpan;
  /** The request is answered: with an error's JSON-RPC code when it failed. */
  end(errorCode?: number): void;
}

/** The span of one upstream call; `carrier` is what the upstream is sent, this span as its parent. */
export interface UpstreamCallSpan {
  readonly carrier: TraceCarrier;
  end(error?: unknown): void;
}

/** An upstream's state, as the pool has it. */
export interface UpstreamHealth {
  name: string;
  status: string;
}

export interface Telemetry {
  startRequest(req: DownstreamRequest): RequestSpan;
  /** How to read the upstreams' states when metrics are collected (asked then, never per call). */
  observeUpstreams(read: () => readonly UpstreamHealth[]): void;
  /** Flushes what is pending and stops exporting. */
  shutdown(): Promise<void>;
}

/** The config's `telemetry` object, resolved against the OTEL_* environment (see the plugin README). */
export interface TelemetrySettings {
  serviceName: string;
  traces: { exporter: "otlp" | "console" | "none"; endpoint?: string };
  metrics: { exporter: "otlp" | "prometheus" | "none"; endpoint?: string; intervalMs?: number };
  sampleRatio: number;
}

export interface TelemetryContext {
  log: Logger;
  /** Adds a control route (the Prometheus endpoint is GET /.mcpx/metrics). */
  registerControlRoute: import("./plugin.js").PluginHost["registerControlRoute"];
}

/** Registered by a telemetry plugin; the daemon makes the telemetry once, when it is on. */
export interface TelemetryFactory {
  readonly name: string;
  create(settings: TelemetrySettings, ctx: TelemetryContext): Promise<Telemetry>;
}
