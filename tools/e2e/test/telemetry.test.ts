/**
 * Telemetry (@mcpx/telemetry-otel) on a real `mcpx serve`: a SERVER span per downstream request with
 * a CLIENT child per upstream call, trace context continued from the client and passed to the
 * upstream (in _meta where its revision defines the keys, as HTTP headers always), metrics, the
 * Prometheus endpoint and OTLP export to a collector.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { JSONObject } from "@mcpx/core";
import type { Frame, HttpScript } from "@mcpx/testkit";
import type { Histogram } from "@opentelemetry/sdk-metrics";
import { describe, expect, it } from "vitest";
import { afterThisTest, until } from "../src/index.js";
import { httpUpstream, MODERN, points, TOKEN, telemetryDaemon } from "./telemetry.helpers.js";

/** @opentelemetry/api SpanKind values (the API package is the plugin's, not this suite's). */
const SpanKind = { SERVER: 1, CLIENT: 2 } as const;

const CLIENT_TRACE = "0af7651916cd43dd8448eb211c80319c";
const CLIENT_SPAN = "b7ad6b7169203331";

/** The tools/call frames an upstream received, with the HTTP headers of each. */
function toolCalls(script: HttpScript): { frame: Frame; headers: Record<string, string> }[] {
  return script.requests.flatMap((r) =>
    r.frames.filter((f) => f.method === "tools/call").map((frame) => ({ frame, headers: r.headers })),
  );
}

function metaOf(frame: Frame): JSONObject {
  return ((frame.params as JSONObject | undefined)?._meta ?? {}) as JSONObject;
}

describe("telemetry", () => {
  it("telemetry/span-per-downstream-request-with-an-upstream-child", async () => {
    const a = await httpUpstream("a", MODERN);
    const d = await telemetryDaemon({ a: { script: a, revision: MODERN } });
    const answer = await d.call("tools/call", { name: "a__echo", arguments: { text: "hi" } });
    expect(answer.result).toMatchObject({ content: [{ text: "a: hi" }] });
    await until(() => d.spans.getFinishedSpans().length >= 2);
    const spans = d.spans.getFinishedSpans();
    const server = spans.find((s) => s.kind === SpanKind.SERVER && s.name === "tools/call a__echo");
    const client = spans.find((s) => s.kind === SpanKind.CLIENT);
    expect(server?.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "mcp.protocol.version": MODERN,
      "gen_ai.tool.name": "a__echo",
      "mcpx.upstream": "a",
      "network.transport": "tcp",
    });
    expect(client?.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "mcpx.upstream": "a",
      "mcp.protocol.version": MODERN,
    });
    // The upstream call is the request's child, in its trace.
    expect(client?.spanContext().traceId).toBe(server?.spanContext().traceId);
    expect(client?.parentSpanContext?.spanId).toBe(server?.spanContext().spanId);
    // A failed request carries its JSON-RPC code.
    const failed = await d.call("tools/call", { name: "nope" });
    expect((failed.error as JSONObject).code).toBe(-32602);
    await until(() => d.spans.getFinishedSpans().some((s) => s.name === "tools/call nope"));
    const error = d.spans.getFinishedSpans().find((s) => s.name === "tools/call nope");
    expect(error?.attributes["rpc.response.status_code"]).toBe("-32602");
    // A request no upstream serves has a span of its own, and no child.
    await d.call("tools/list", {});
    await until(() => d.spans.getFinishedSpans().some((s) => s.name === "tools/list"));
  });

  it("telemetry/trace-context-from-the-client-continues", async () => {
    const a = await httpUpstream("a", MODERN);
    const d = await telemetryDaemon({ a: { script: a, revision: MODERN } });
    // As an HTTP header.
    await d.call(
      "tools/call",
      { name: "a__echo", arguments: { text: "header" } },
      { traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01` },
    );
    // In a 2026-07-28 request's _meta.
    const metaTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
    await d.call("tools/call", {
      name: "a__echo",
      arguments: { text: "meta" },
      _meta: { traceparent: `00-${metaTrace}-00f067aa0ba902b7-01` },
    });
    await until(() => d.spans.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER).length === 2);
    const servers = d.spans.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER);
    const byHeader = servers.find((s) => s.spanContext().traceId === CLIENT_TRACE);
    expect(byHeader?.parentSpanContext?.spanId).toBe(CLIENT_SPAN);
    const byMeta = servers.find((s) => s.spanContext().traceId === metaTrace);
    expect(byMeta?.parentSpanContext?.spanId).toBe("00f067aa0ba902b7");
    // And on to the upstream: its children are in the client's traces.
    const clients = d.spans.getFinishedSpans().filter((s) => s.kind === SpanKind.CLIENT);
    expect(clients.map((s) => s.spanContext().traceId).sort()).toEqual([CLIENT_TRACE, metaTrace].sort());
  });

  it("2026-07-28/telemetry/traceparent-propagated-in-meta", async () => {
    const a = await httpUpstream("a", MODERN);
    const d = await telemetryDaemon({ a: { script: a, revision: MODERN } });
    await d.call(
      "tools/call",
      { name: "a__echo", arguments: { text: "x" } },
      { traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`, tracestate: "vendor=v1" },
    );
    await until(() => d.spans.getFinishedSpans().some((s) => s.kind === SpanKind.CLIENT));
    const child = d.spans.getFinishedSpans().find((s) => s.kind === SpanKind.CLIENT);
    const expected = `00-${CLIENT_TRACE}-${child?.spanContext().spanId}-01`;
    const [sent] = toolCalls(a);
    expect(sent).toBeDefined();
    // The child span is the upstream's parent: in _meta (its revision defines the key) and the header.
    expect(metaOf(sent!.frame).traceparent).toBe(expected);
    expect(metaOf(sent!.frame).tracestate).toBe("vendor=v1");
    expect(sent!.headers.traceparent).toBe(expected);
    // The scripted server checks every frame strictly (the setup file fails the test otherwise).
    expect(a.server.failures).toEqual([]);
  });

  it("2025-11-25/telemetry/traceparent-propagated-as-an-http-header-not-in-meta", async () => {
    const legacy = await httpUpstream("old", "2025-11-25");
    const d = await telemetryDaemon({ old: { script: legacy, revision: "2025-11-25" } });
    await d.call(
      "tools/call",
      { name: "old__echo", arguments: { text: "x" } },
      { traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01` },
    );
    await until(() => d.spans.getFinishedSpans().some((s) => s.kind === SpanKind.CLIENT));
    const child = d.spans.getFinishedSpans().find((s) => s.kind === SpanKind.CLIENT);
    const [sent] = toolCalls(legacy);
    expect(sent!.headers.traceparent).toBe(`00-${CLIENT_TRACE}-${child?.spanContext().spanId}-01`);
    // 2025-11-25 defines no trace context in _meta: none is put there.
    const meta = metaOf(sent!.frame);
    expect(meta.traceparent).toBeUndefined();
    expect(meta.tracestate).toBeUndefined();
    expect(meta.baggage).toBeUndefined();
    expect(legacy.server.failures).toEqual([]);
  });

  it("telemetry/metrics-count-calls-errors-and-latency", async () => {
    const a = await httpUpstream("a", MODERN);
    const d = await telemetryDaemon({ a: { script: a, revision: MODERN } });
    await d.call("tools/call", { name: "a__echo", arguments: { text: "1" } });
    await d.call("tools/call", { name: "a__echo", arguments: { text: "2" } });
    await d.call("tools/call", { name: "missing" });
    const metrics = await d.reader.read();
    const calls = points(metrics, "mcpx.calls").filter(
      (p) => p.attributes["mcp.method.name"] === "tools/call",
    );
    const ok = calls.find((p) => p.attributes.outcome === "ok");
    const failed = calls.find((p) => p.attributes.outcome === "error");
    expect(ok?.value).toBe(2);
    expect(ok?.attributes["mcpx.upstream"]).toBe("a");
    expect(failed?.value).toBe(1);
    const errors = points(metrics, "mcpx.errors");
    expect(errors).toHaveLength(1);
    expect(errors[0]?.attributes["error.type"]).toBe("-32602");
    expect(errors[0]?.value).toBe(1);
    const latency = points(metrics, "mcp.server.operation.duration")
      .filter((p) => p.attributes["mcp.method.name"] === "tools/call")
      .map((p) => (p.value as Histogram).count);
    expect(latency.reduce((n, c) => n + c, 0)).toBe(3);
    const upstream = points(metrics, "mcp.client.operation.duration");
    expect(upstream.map((p) => (p.value as Histogram).count).reduce((n, c) => n + c, 0)).toBe(2);
  });

  it("telemetry/upstream-health-metric", async () => {
    const a = await httpUpstream("a", MODERN);
    const d = await telemetryDaemon({
      a: { script: a, revision: MODERN },
      // Nothing listens there: it never connects.
      down: { script: { url: "http://127.0.0.1:9/mcp" } as HttpScript, revision: MODERN },
    });
    await d.call("tools/list", {});
    // The gauge is read when metrics are collected: the upstream's state at that moment.
    const up = points(await d.reader.read(), "mcpx.upstream.up");
    expect(up.find((p) => p.attributes["mcpx.upstream"] === "a")?.attributes.state).toBe("connected");
    expect(up.find((p) => p.attributes["mcpx.upstream"] === "a")?.value).toBe(1);
    const down = up.find((p) => p.attributes["mcpx.upstream"] === "down");
    expect(down?.attributes.state).not.toBe("connected");
  });

  it("telemetry/prometheus-endpoint-serves-the-metrics", async () => {
    const a = await httpUpstream("a", MODERN);
    const d = await telemetryDaemon({ a: { script: a, revision: MODERN } });
    await d.call("tools/call", { name: "a__echo", arguments: { text: "p" } });
    const res = await fetch(`${d.base}metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    expect(text).toMatch(/^mcpx_calls(_total)?\{[^}]*mcp_method_name="tools\/call"[^}]*\} 1/m);
    expect(text).toContain("mcp_server_operation_duration");
    expect(text).toMatch(/mcpx_upstream_up\{[^}]*mcpx_upstream="a"/);
    // The same rules as /.mcpx/status: the token, and loopback only.
    expect((await fetch(`${d.base}metrics`)).status).toBe(401);
    expect((await fetch(`${d.base}status`)).status).toBe(401);
  });

  it("telemetry/otlp-export-reaches-a-collector", async () => {
    const received: { path: string; body: string }[] = [];
    const collector = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({ path: req.url ?? "", body: Buffer.concat(chunks).toString("utf8") });
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
    afterThisTest(() => new Promise<void>((resolve) => collector.close(() => resolve())));
    const address = collector.address();
    const port = typeof address === "object" && address ? address.port : 0;
    const a = await httpUpstream("a", MODERN);
    const d = await telemetryDaemon(
      { a: { script: a, revision: MODERN } },
      {
        enabled: true,
        serviceName: "mcpx-under-test",
        traces: { exporter: "otlp", endpoint: `http://127.0.0.1:${port}/v1/traces` },
        metrics: { exporter: "none" },
      },
    );
    await d.call("tools/call", { name: "a__echo", arguments: { text: "otlp" } });
    // Stopping flushes the batch.
    await d.serving.stop();
    await until(() => received.some((r) => r.path === "/v1/traces"));
    const body = received
      .filter((r) => r.path === "/v1/traces")
      .map((r) => r.body)
      .join("\n");
    expect(body).toContain("tools/call a__echo");
    expect(body).toContain("mcpx-under-test");
  });
});
