import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ConnectionClosedError, ForeignOriginError } from "@mcpx/core";
import { type Frame, formatEvent } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { afterThisTest, httpCase, label, posts, RESOURCES, settings, TOOLS } from "../src/index.js";

const response = (frames: Frame[], result: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: "2.0", id: frames[0]?.id, result });

describe("Streamable HTTP answers", () => {
  for (const mode of ["json", "sse"] as const) {
    it(`answers/${mode}`, async () => {
      const c = await httpCase(
        { versions: ["2025-11-25"], tools: TOOLS, resources: RESOURCES },
        { answer: mode },
      );
      const client = await c.connect({ revision: "2025-11-25" });
      expect(await client.listTools()).toHaveLength(2);
      expect(await client.callTool("echo", { text: "hi" })).toEqual({
        content: [{ type: "text", text: '{"text":"hi"}' }],
      });
      expect((await client.readResource("file:///a.txt")).contents).toHaveLength(1);
      const call = posts(c.script, "tools/call")[0];
      expect(call?.headers.accept).toBe("application/json, text/event-stream");
      expect(call?.headers["content-type"]).toBe("application/json");
      expect(c.server.failures).toEqual([]);
    });
  }

  it("answers/json-and-sse-per-method", async () => {
    const c = await httpCase(
      { versions: ["2025-06-18"], tools: TOOLS },
      { answer: (method) => (method === "tools/call" ? "sse" : "json") },
    );
    const client = await c.connect({ revision: "2025-06-18" });
    expect(await client.listTools()).toHaveLength(2);
    expect((await client.callTool("add", { a: 1, b: 2 })).content).toHaveLength(1);
    expect(posts(c.script, "tools/call")[0]?.stream).toBeDefined();
    expect(posts(c.script, "tools/list")[0]?.stream).toBeUndefined();
    expect(c.server.failures).toEqual([]);
  });

  it("answers/malformed-sse-event-skipped", async () => {
    const c = await httpCase({ versions: ["2025-11-25"], tools: TOOLS });
    const client = await c.connect({ revision: "2025-11-25" });
    c.script.rawAnswer((r) => r.frames[0]?.method === "tools/call", {
      status: 200,
      contentType: "text/event-stream",
      body: (frames) =>
        formatEvent({ data: "{this is not json" }) +
        formatEvent({ data: '{"jsonrpc":"1.0","method":5}' }) +
        formatEvent({ data: response(frames, { content: [{ type: "text", text: "after the bad ones" }] }) }),
    });
    expect(await client.callTool("echo", {})).toEqual({
      content: [{ type: "text", text: "after the bad ones" }],
    });
    expect(await client.listTools()).toHaveLength(2);
    expect(c.server.failures).toEqual([]);
  });

  it("answers/malformed-json-body-fails-the-request-at-once", async () => {
    const c = await httpCase({ versions: ["2025-11-25"], tools: TOOLS });
    const client = await c.connect({
      revision: "2025-11-25",
      settings: settings({ requestTimeout: 10_000 }),
    });
    c.script.rawAnswer((r) => r.frames[0]?.method === "tools/call", {
      status: 200,
      contentType: "application/json",
      body: "{oops",
    });
    const started = Date.now();
    const err = await client.callTool("echo", {}).catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionClosedError);
    expect(err.message).toMatch(/without the response to request/);
    expect(Date.now() - started).toBeLessThan(5000);
    // the connection carries on
    expect(await client.listTools()).toHaveLength(2);
    expect(c.server.failures).toEqual([]);
  });

  it("answers/bare-error-status", async () => {
    const c = await httpCase({ versions: ["2025-11-25"], tools: TOOLS });
    const client = await c.connect({ revision: "2025-11-25" });
    c.script.rawAnswer((r) => r.frames[0]?.method === "tools/list", { status: 500, body: "boom" });
    const err = await client.listTools().catch((e) => e);
    expect(err.status).toBe(500);
    expect(err.message).toMatch(/HTTP 500: boom/);
    c.script.rawAnswer((r) => r.frames[0]?.method === "tools/list", {
      status: 400,
      contentType: "application/json",
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: "Bad Request: nope" },
      }),
    });
    // a JSON-RPC error body answers the request, even with a null id
    const rpc = await client.listTools().catch((e) => e);
    expect(rpc.code).toBe(-32600);
    expect(rpc.message).toBe("Bad Request: nope");
  });

  it("answers/network-error-names-the-url", async () => {
    const c = await httpCase({ versions: ["2025-11-25"] });
    const client = await c.connect({ revision: "2025-11-25" });
    await c.script.close();
    const err = await client.ping().catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionClosedError);
    expect(err.message).toContain(`POST ${c.script.url}`);
  });
});

describe("credentials go only to the configured origin", () => {
  it("credentials/foreign-redirect-refused", async () => {
    const foreign: { method?: string; headers: Record<string, unknown> }[] = [];
    const evil = createServer((req, res) => {
      foreign.push({ method: req.method, headers: req.headers });
      res.writeHead(200).end();
    });
    await new Promise<void>((r) => evil.listen(0, "127.0.0.2", r));
    afterThisTest(() => new Promise((r) => evil.close(() => r())));
    const evilUrl = `http://127.0.0.2:${(evil.address() as AddressInfo).port}/mcp`;
    const c = await httpCase({ versions: ["2025-11-25"] });
    c.script.rawAnswer((r) => r.httpMethod === "POST", { status: 307, headers: { Location: evilUrl } });
    const err = await c
      .connect({
        revision: "2025-11-25",
        target: { name: "scripted", headers: { Authorization: "Bearer s3cret" } },
      })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ForeignOriginError);
    expect(err.message).toContain(new URL(c.script.url).origin);
    expect(err.message).toContain(new URL(evilUrl).origin);
    expect(foreign).toEqual([]);
  });

  it("credentials/same-origin-redirect-followed", async () => {
    const c = await httpCase({ versions: ["2025-11-25"], tools: TOOLS });
    c.script.rawAnswer((r) => r.frames[0]?.method === "initialize", {
      status: 308,
      headers: { Location: "/mcp?moved=1" },
    });
    const client = await c.connect({
      revision: "2025-11-25",
      target: { name: "scripted", headers: { Authorization: "Bearer s3cret" } },
    });
    expect(await client.listTools()).toHaveLength(2);
    const inits = posts(c.script, "initialize");
    expect(inits.map((r) => [r.path, r.status])).toEqual([
      ["/mcp", 308],
      ["/mcp?moved=1", 200],
    ]);
    for (const r of c.script.requests) expect(r.headers.authorization, label(r)).toBe("Bearer s3cret");
    expect(c.server.failures).toEqual([]);
  });
});
