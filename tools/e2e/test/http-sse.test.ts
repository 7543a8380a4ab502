import { ConnectionClosedError, ForeignOriginError, HttpStatusError } from "@mcpx/core";
import { describe, expect, it } from "vitest";
import { handlers, RESOURCES, requirement, sseCase, TOOLS } from "../src/index.js";

describe("HTTP+SSE (2024-11-05)", () => {
  requirement(["2024-11-05/http-sse/same-origin"], async () => {
    const c = await sseCase({ versions: ["2024-11-05"], tools: TOOLS }, { foreignEndpoint: true });
    const err = await c
      .connect({ target: { name: "scripted", headers: { Authorization: "Bearer s3cret" } } })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ForeignOriginError);
    const streamOrigin = new URL(c.script.url).origin;
    const endpointOrigin = new URL(c.script.endpoint ?? "").origin;
    expect(endpointOrigin).not.toBe(streamOrigin);
    expect(err.message).toContain(streamOrigin);
    expect(err.message).toContain(endpointOrigin);
    // nothing was sent there, and nothing at all was POSTed
    expect(c.script.foreignRequests).toEqual([]);
    expect(c.script.requests.map((r) => r.httpMethod)).toEqual(["GET"]);
    expect(c.server.received).toEqual([]);
    expect(c.server.failures).toEqual([]);
  });

  it("http-sse/round-trip", async () => {
    const c = await sseCase({ versions: ["2024-11-05"], tools: TOOLS, resources: RESOURCES });
    const client = await c.connect({
      target: { name: "scripted", headers: { Authorization: "Bearer s3cret" } },
      handlers: handlers({ roots: () => [{ uri: "file:///r" }] }),
    });
    expect(client.negotiated.version).toBe("2024-11-05");
    expect(client.transport.kind).toBe("http+sse");
    expect(await client.listTools()).toHaveLength(2);
    expect(await client.callTool("echo", { text: "hi" })).toEqual({
      content: [{ type: "text", text: '{"text":"hi"}' }],
    });
    expect((await client.readResource("file:///a.txt")).contents).toHaveLength(1);
    // a server request arrives on the stream, the answer is POSTed
    expect((await c.server.request("roots/list")).result).toEqual({ roots: [{ uri: "file:///r" }] });
    // a malformed message event is skipped
    c.script.sendRaw("{not json");
    expect(await client.ping()).toEqual({});
    for (const r of c.script.requests) expect(r.headers.authorization).toBe("Bearer s3cret");
    expect(c.script.requests[0]?.headers.accept).toBe("text/event-stream");
    expect(c.server.failures).toEqual([]);
  });

  it("http-sse/stream-end-closes", async () => {
    const c = await sseCase({ versions: ["2024-11-05"] });
    const client = await c.connect();
    const closed = new Promise<Error | undefined>((r) => client.onClose(r));
    c.script.endStream();
    expect(await closed).toBeInstanceOf(ConnectionClosedError);
    expect(await client.ping().catch((e) => e)).toBeInstanceOf(ConnectionClosedError);
  });

  it("http-sse/no-endpoint-event", async () => {
    const refused = await sseCase({ versions: ["2024-11-05"] }, { refuseGet: 405 });
    const err = await refused.connect().catch((e) => e);
    expect(err).toBeInstanceOf(HttpStatusError);
    expect(err.status).toBe(405);
  });

  it("http-sse/not-chosen-for-urls", async () => {
    const c = await sseCase({ versions: ["2024-11-05"] });
    expect(c.host.registry.transportFor({ name: "x", url: c.script.url })?.kind).toBe("streamable-http");
  });
});
