import { describe, expect, it } from "vitest";
import { resolveTelemetry } from "../src/index.js";

describe("telemetry settings", () => {
  it("config/telemetry-off-by-default", () => {
    expect(resolveTelemetry({}, {})).toBeUndefined();
    // A service name alone asks for no exporter.
    expect(resolveTelemetry({}, { OTEL_SERVICE_NAME: "x" })).toBeUndefined();
    expect(resolveTelemetry({}, { OTEL_TRACES_EXPORTER: "none" })).toBeUndefined();
  });

  it("config/telemetry-precedence", () => {
    // OTEL_SDK_DISABLED wins over everything; enabled:false over the environment.
    expect(resolveTelemetry({ enabled: true }, { OTEL_SDK_DISABLED: "true" })).toBeUndefined();
    expect(resolveTelemetry({ enabled: false }, { OTEL_TRACES_EXPORTER: "otlp" })).toBeUndefined();
    // The environment alone turns it on, as the SDK reads it.
    expect(
      resolveTelemetry(
        {},
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318/",
          OTEL_SERVICE_NAME: "gw",
          OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
          OTEL_TRACES_SAMPLER_ARG: "0.25",
        },
      ),
    ).toEqual({
      serviceName: "gw",
      traces: { exporter: "otlp", endpoint: "http://127.0.0.1:4318/v1/traces" },
      metrics: { exporter: "otlp", endpoint: "http://127.0.0.1:4318/v1/metrics" },
      sampleRatio: 0.25,
    });
    // The config's keys win over the variables; what it leaves out comes from them, then defaults.
    expect(
      resolveTelemetry(
        { enabled: true, serviceName: "mine", traces: { exporter: "console" }, sampleRatio: 0.5 },
        { OTEL_SERVICE_NAME: "gw", OTEL_TRACES_EXPORTER: "otlp", OTEL_METRICS_EXPORTER: "zipkin,prometheus" },
      ),
    ).toEqual({
      serviceName: "mine",
      traces: { exporter: "console" },
      metrics: { exporter: "prometheus" },
      sampleRatio: 0.5,
    });
    expect(resolveTelemetry({ enabled: true }, {})).toEqual({
      serviceName: "mcpx",
      traces: { exporter: "otlp" },
      metrics: { exporter: "prometheus" },
      sampleRatio: 1,
    });
  });
});
