import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import type { ServerConfig } from "@mcpx/config";
import { DEFAULT_UPSTREAM_SETTINGS } from "@mcpx/core";
import { createMcpHttpHandler, Gateway } from "@mcpx/gateway";
import { describe, expect, it } from "vitest";
import { afterThisTest, handlers, scriptedGateway, stdioClient, testHost } from "../src/index.js";
import { mirrored, modernBody, post } from "./gateway-http.helpers.js";

const echo = { name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } };
const lookup = {
  name: "lookup",
  inputSchema: {
    type: "object",
    properties: { region: { type: "string", "x-mcp-header": "Region" }, q: { type: "string" } },
  },
};

describe("one mcpx as another's upstream", () => {
  it("2026-07-28/headers/mcpx-of-mcpx", async () => {
    // mcpx A fronts a legacy and a modern scripted upstream over stdio, at its own /mcp
    const { gateway: a, scripted } = await scriptedGateway([
      { name: "inner", versions: ["2025-06-18"], tools: [echo] },
      { name: "modern", versions: ["2026-07-28"], tools: [lookup] },
    ]);
    const handler = createMcpHttpHandler(a, {});
    afterThisTest(() => handler.close());
    const seen: { method: string; headers: IncomingHttpHeaders }[] = [];
    const server = createServer(async (req, res) => {
      seen.push({ method: req.method ?? "", headers: req.headers });
      if (!(await handler(req, res))) res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    afterThisTest(() => new Promise<void>((r) => server.close(() => r())));
    server.unref();
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;

    // mcpx B: its only upstream is A, found by the era probe (no pin)
    const host = await testHost();
    const upstream: ServerConfig = {
      kind: "url",
      name: "a",
      namespace: "a",
      namespacing: true,
      disabled: false,
      url,
      tools: {},
      settings: { ...DEFAULT_UPSTREAM_SETTINGS, requestTimeout: 5000, handshakeTimeout: 5000 },
    };
    const b = new Gateway({ servers: [upstream], env: host, handlers: handlers({}), reconnect: false });
    b.start();
    afterThisTest(() => b.stop());
    await b.pool.settled();
    expect(b.pool.states()[0]).toMatchObject({
      status: "connected",
      revision: "2026-07-28",
      transport: "streamable-http",
    });

    // a client of B reaches both of A's upstreams through two layers of namespaces
    const c = stdioClient(b);
    await c.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
    });
    c.send({ method: "notifications/initialized" });
    const list = (await c.request("tools/list")).result as { tools: { name: string }[] };
    expect(list.tools.map((t) => t.name)).toEqual(["a__inner__echo", "a__modern__lookup"]);
    const call = await c.request("tools/call", {
      name: "a__modern__lookup",
      arguments: { region: "eu-west", q: "x" },
    });
    expect(call.result).toMatchObject({ content: [{ type: "text", text: '{"region":"eu-west","q":"x"}' }] });
    expect(scripted.modern?.frames("tools/call")[0]?.params).toMatchObject({ name: "lookup" });
    await c.request("tools/call", { name: "a__inner__echo", arguments: { text: "hi" } });

    // what A received from B: modern POSTs only, every mirrored header, never a session id
    const posts = seen.filter((r) => r.method === "POST");
    expect(posts.length).toBeGreaterThanOrEqual(4);
    for (const r of posts) {
      expect(r.headers["mcp-protocol-version"]).toBe("2026-07-28");
      expect(typeof r.headers["mcp-method"]).toBe("string");
      expect(r.headers).not.toHaveProperty("mcp-session-id");
    }
    const calls = posts.filter((r) => r.headers["mcp-method"] === "tools/call");
    expect(calls.map((r) => r.headers["mcp-name"])).toEqual(["modern__lookup", "inner__echo"]);
    expect(calls[0]?.headers["mcp-param-region"]).toBe("eu-west");
    expect(calls[1]?.headers).not.toHaveProperty("mcp-param-region");
    expect(seen.some((r) => r.method === "GET" || r.method === "DELETE")).toBe(false);
    expect([...(scripted.inner?.failures ?? []), ...(scripted.modern?.failures ?? [])]).toEqual([]);

    // and A refuses a modern POST that lacks its mirrored headers
    const body = modernBody("tools/call", { name: "modern__lookup", arguments: { region: "eu-west" } });
    const bare = await post(url, body, {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    });
    expect(bare.status).toBe(400);
    expect(((await bare.json()) as { error: { code: number } }).error.code).toBe(-32020);
    const noParam = await post(url, body, mirrored("tools/call", "modern__lookup"));
    expect(noParam.status).toBe(400);
    expect(((await noParam.json()) as { error: { code: number; message: string } }).error).toMatchObject({
      code: -32020,
      message: expect.stringMatching(/Mcp-Param-Region/i),
    });
  });
});
