import { encodeHeaderValue, type JSONObject, MetaKey } from "@mcpx/core";
import { describe, expect, it } from "vitest";
import {
  echo,
  httpGateway,
  MODERN,
  mirrored,
  modernBody,
  post,
  sleep,
  sseReader,
} from "./gateway-http.helpers.js";

const list = () => modernBody("tools/list");
const plain = { "content-type": "application/json", accept: "application/json, text/event-stream" };

describe("gateway over HTTP: 2026-07-28 clients", () => {
  it("downstream/modern-stateless-json", async () => {
    const { url, gateway } = await httpGateway([{ name: "a", versions: ["2025-06-18"], tools: [echo] }]);
    const res = await post(url, list(), mirrored("tools/list"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("mcp-session-id")).toBeNull();
    const body = (await res.json()) as { result: JSONObject };
    expect(body.result).toMatchObject({
      tools: [{ name: "a__echo" }],
      resultType: "complete",
      ttlMs: 0,
      cacheScope: "private",
      _meta: { [MetaKey.serverInfo]: { name: "mcpx" } },
    });
    // a stray Mcp-Session-Id means nothing to a modern request
    const stray = await post(url, list(), { ...mirrored("tools/list"), "mcp-session-id": "whatever" });
    expect(stray.status).toBe(200);
    expect(gateway.peers).toEqual([]);
    const discover = await post(url, modernBody("server/discover"), mirrored("server/discover"));
    expect(((await discover.json()) as { result: JSONObject }).result).toMatchObject({
      supportedVersions: expect.arrayContaining([MODERN, "2025-11-25", "2024-11-05"]),
    });
    const unsupported = await post(
      url,
      modernBody("tools/list", { _meta: { [MetaKey.protocolVersion]: "2030-01-01" } }),
      { ...mirrored("tools/list"), "mcp-protocol-version": "2030-01-01" },
    );
    expect(unsupported.status).toBe(400);
    expect(((await unsupported.json()) as { error: JSONObject }).error).toMatchObject({
      code: -32022,
      data: { requested: "2030-01-01", supported: expect.arrayContaining([MODERN]) },
    });
    const noCaps = await post(
      url,
      {
        jsonrpc: "2.0",
        id: 9,
        method: "tools/list",
        params: { _meta: { [MetaKey.protocolVersion]: MODERN } },
      },
      mirrored("tools/list"),
    );
    expect(noCaps.status).toBe(400);
    expect(((await noCaps.json()) as { error: { code: number } }).error.code).toBe(-32602);
    for (const method of ["ping", "logging/setLevel", "no/such"]) {
      const r = await post(
        url,
        modernBody(method, method === "logging/setLevel" ? { level: "info" } : {}),
        mirrored(method),
      );
      expect(r.status, method).toBe(404);
      expect(((await r.json()) as { error: { code: number } }).error.code).toBe(-32601);
    }
    const note = await post(
      url,
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } },
      plain,
    );
    expect(note.status).toBe(202);
    expect(await note.text()).toBe("");
    for (const method of ["GET", "DELETE"]) {
      const r = await fetch(url, {
        method,
        headers: { accept: "text/event-stream", "mcp-protocol-version": MODERN },
      });
      expect(r.status, method).toBe(405);
    }
  });

  it("downstream/modern-headers-required", async () => {
    const { url } = await httpGateway([
      { name: "a", versions: ["2025-06-18"], tools: [echo], prompts: [{ name: "greet" }] },
    ]);
    const cases: [string, Record<string, string>, JSONObject, string][] = [
      ["tools/list", { "mcp-protocol-version": "" }, {}, "MCP-Protocol-Version"],
      ["tools/list", { "mcp-method": "" }, {}, "Mcp-Method"],
      ["tools/call", { "mcp-name": "" }, { name: "a__echo", arguments: {} }, "Mcp-Name"],
      ["prompts/get", { "mcp-name": "" }, { name: "a__greet" }, "Mcp-Name"],
    ];
    for (const [method, drop, params, named] of cases) {
      const headers = mirrored(method, typeof params.name === "string" ? params.name : undefined);
      for (const k of Object.keys(drop)) delete headers[k];
      const res = await post(url, modernBody(method, params), headers);
      expect(res.status, `${method} without ${named}`).toBe(400);
      const err = ((await res.json()) as { error: { code: number; message: string } }).error;
      expect(err.code).toBe(-32020);
      expect(err.message).toContain(named);
    }
  });

  it("downstream/modern-header-mismatch-32020", async () => {
    const { url, scripted } = await httpGateway([
      {
        name: "a",
        versions: ["2025-06-18"],
        tools: [echo, { name: "héllo wörld", inputSchema: { type: "object" } }],
        resources: [{ uri: "file:///a b.txt", name: "ab" }],
        // mcpx forwards an upstream's URI as given; this one has a space so that Mcp-Name needs the sentinel.
        expectInvalidFrames:
          "the upstream's own URI with a space is not RFC 3986; mcpx reads it back as given",
      },
    ]);
    const expect32020 = async (res: Response, header: string) => {
      expect(res.status).toBe(400);
      const err = ((await res.json()) as { error: { code: number; message: string } }).error;
      expect(err.code).toBe(-32020);
      expect(err.message).toContain(header);
    };
    await expect32020(
      await post(url, list(), { ...mirrored("tools/list"), "mcp-protocol-version": "2025-11-25" }),
      "MCP-Protocol-Version",
    );
    await expect32020(await post(url, list(), mirrored("prompts/list")), "Mcp-Method");
    const call = modernBody("tools/call", { name: "a__echo", arguments: {} });
    await expect32020(await post(url, call, mirrored("tools/call", "a__other")), "Mcp-Name");
    // Base64-sentinel values are decoded before the comparison
    const name = "a__héllo wörld";
    const ok = await post(
      url,
      modernBody("tools/call", { name, arguments: {} }),
      mirrored("tools/call", encodeHeaderValue(name)),
    );
    expect(ok.status).toBe(200);
    const uri = "mcpx://a/file:///a b.txt";
    const read = await post(url, modernBody("resources/read", { uri }), mirrored("resources/read", uri));
    expect(read.status).toBe(200);
    await expect32020(
      await post(
        url,
        modernBody("resources/read", { uri }),
        mirrored("resources/read", "mcpx://a/file:///c.txt"),
      ),
      "Mcp-Name",
    );
    await expect32020(await post(url, call, mirrored("tools/call", "=?base64?not base64!?=")), "Mcp-Name");
    expect(scripted.a?.failures).toEqual([
      'resources/read (2025-06-18): params.uri: must match format "uri" (2025-06-18 ReadResourceRequest)',
    ]);
  });

  it("downstream/modern-param-header-checked", async () => {
    const sql = {
      name: "sql",
      inputSchema: {
        type: "object",
        properties: {
          region: { type: "string", "x-mcp-header": "Region" },
          limit: { type: "integer", "x-mcp-header": "Limit" },
          dry: { type: "boolean", "x-mcp-header": "Dry" },
          target: { type: "object", properties: { db: { type: "string", "x-mcp-header": "Db" } } },
          query: { type: "string" },
        },
      },
    };
    const { url, scripted } = await httpGateway([{ name: "db", versions: ["2026-07-28"], tools: [sql] }]);
    const call = (args: JSONObject) => modernBody("tools/call", { name: "db__sql", arguments: args });
    const headers = (extra: Record<string, string>) => ({ ...mirrored("tools/call", "db__sql"), ...extra });
    const all = { region: "us-west1", limit: 42, dry: true, target: { db: "prod" }, query: "select 1" };
    const good = {
      "mcp-param-region": "us-west1",
      "mcp-param-limit": "42",
      "mcp-param-dry": "true",
      "mcp-param-db": "prod",
    };
    const ok = await post(url, call(all), headers(good));
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { result: JSONObject }).result).toMatchObject({ resultType: "complete" });
    const refused = async (args: JSONObject, h: Record<string, string>, named: string) => {
      const res = await post(url, call(args), headers(h));
      expect(res.status, named).toBe(400);
      const err = ((await res.json()) as { error: { code: number; message: string } }).error;
      expect(err.code).toBe(-32020);
      expect(err.message).toContain(named);
    };
    const { "mcp-param-region": _r, ...noRegion } = good;
    await refused(all, noRegion, "Mcp-Param-Region");
    await refused(all, { ...good, "mcp-param-region": "eu-west1" }, "Mcp-Param-Region");
    await refused(all, { ...good, "mcp-param-limit": "43" }, "Mcp-Param-Limit");
    await refused(all, { ...good, "mcp-param-dry": "false" }, "Mcp-Param-Dry");
    await refused(all, { ...good, "mcp-param-db": "staging" }, "Mcp-Param-Db");
    // absent or null arguments: the header must be absent too
    const { region: _x, ...noRegionArg } = all;
    const absent = await post(
      url,
      call({ ...noRegionArg, limit: null }),
      headers({
        "mcp-param-dry": "true",
        "mcp-param-db": "prod",
      }),
    );
    expect(absent.status).toBe(200);
    await refused(noRegionArg, good, "Mcp-Param-Region");
    // integers compare as numbers; non-ASCII values come Base64-encoded
    const unicode = { ...all, region: "région ü" };
    const encoded = await post(
      url,
      call(unicode),
      headers({ ...good, "mcp-param-region": encodeHeaderValue("région ü"), "mcp-param-limit": "42.0" }),
    );
    expect(encoded.status).toBe(200);
    // only the checked calls reached the upstream
    expect(scripted.db?.frames("tools/call")).toHaveLength(3);
  });

  it("downstream/sse-progress", async () => {
    const { url } = await httpGateway([
      {
        name: "slow",
        versions: ["2025-06-18"],
        tools: [echo],
        handlers: {
          "tools/call": async (req, ctx) => {
            const token = (req.params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
            for (const progress of [1, 2]) {
              ctx.push({
                jsonrpc: "2.0",
                method: "notifications/progress",
                params: { progressToken: token, progress, total: 2 },
              });
              await sleep(20);
            }
            return { content: [{ type: "text", text: "done" }] };
          },
        },
      },
    ]);
    const res = await post(
      url,
      modernBody(
        "tools/call",
        { name: "slow__echo", arguments: {}, _meta: { progressToken: "p-1" } },
        "call-1",
      ),
      mirrored("tools/call", "slow__echo"),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const sse = sseReader(res);
    const first = await sse.frame();
    expect(first).toMatchObject({
      method: "notifications/progress",
      params: { progressToken: "p-1", progress: 1 },
    });
    expect(await sse.frame()).toMatchObject({ params: { progress: 2 } });
    expect(await sse.frame()).toMatchObject({
      id: "call-1",
      result: { content: [{ text: "done" }], resultType: "complete" },
    });
    // the response ends the stream
    expect(await sse.next()).toBeUndefined();
    // without a progress token the same call is plain JSON
    const json = await post(
      url,
      modernBody("tools/call", { name: "slow__echo", arguments: {} }),
      mirrored("tools/call", "slow__echo"),
    );
    expect(json.headers.get("content-type")).toBe("application/json");
  });

  it("downstream/modern-cancel-by-closing", async () => {
    const { url, scripted } = await httpGateway([
      {
        name: "slow",
        versions: ["2025-06-18"],
        tools: [echo],
        handlers: { "tools/call": () => new Promise(() => {}) },
      },
    ]);
    const abort = new AbortController();
    const pending = post(
      url,
      modernBody("tools/call", { name: "slow__echo", arguments: {}, _meta: { progressToken: 7 } }),
      mirrored("tools/call", "slow__echo"),
      abort.signal,
    );
    const res = await pending;
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    await scripted.slow!.waitForMethod("tools/call");
    abort.abort();
    const cancelled = await scripted.slow!.waitForMethod("notifications/cancelled");
    expect(cancelled.frame.params?.requestId).toBe(scripted.slow?.frames("tools/call")[0]?.id);
    // a JSON-answered request is cancelled the same way (the connection closes)
    const abort2 = new AbortController();
    const json = post(
      url,
      modernBody("tools/call", { name: "slow__echo", arguments: {} }),
      mirrored("tools/call", "slow__echo"),
      abort2.signal,
    ).catch(() => undefined);
    await scripted.slow!.waitFor(
      (r) => r.frame.method === "tools/call" && scripted.slow!.frames("tools/call").length === 2,
    );
    abort2.abort();
    await json;
    await scripted.slow!.waitFor(
      (r) =>
        r.frame.method === "notifications/cancelled" &&
        r.frame.params?.requestId === scripted.slow?.frames("tools/call")[1]?.id,
    );
  });

  it("downstream/modern-log-lines-on-the-request-stream", async () => {
    const { url, scripted, gateway } = await httpGateway([
      {
        name: "chatty",
        versions: ["2025-06-18"],
        tools: [echo],
        handlers: {
          "tools/call": async (_req, ctx) => {
            ctx.push({
              jsonrpc: "2.0",
              method: "notifications/message",
              params: { level: "warning", data: "careful" },
            });
            await sleep(50);
            return { content: [] };
          },
        },
      },
    ]);
    const res = await post(
      url,
      modernBody("tools/call", {
        name: "chatty__echo",
        arguments: {},
        _meta: { [MetaKey.logLevel]: "info" },
      }),
      mirrored("tools/call", "chatty__echo"),
    );
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const sse = sseReader(res);
    expect(await sse.frame()).toMatchObject({
      method: "notifications/message",
      params: { level: "warning", data: "careful", logger: "chatty" },
    });
    expect(await sse.frame()).toMatchObject({ result: { resultType: "complete" } });
    expect(gateway.peers).toEqual([]);
    expect(scripted.chatty?.failures).toEqual([]);
  });

  it("downstream/modern-listen", async () => {
    const { url, scripted, gateway } = await httpGateway([
      {
        name: "docs",
        versions: ["2025-06-18"],
        capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
        tools: [echo],
        resources: [{ uri: "file:///doc.md", name: "doc" }],
      },
    ]);
    const abort = new AbortController();
    const res = await post(
      url,
      modernBody(
        "subscriptions/listen",
        {
          notifications: {
            toolsListChanged: true,
            resourceSubscriptions: ["mcpx://docs/file:///doc.md", "mcpx://nowhere/x"],
          },
        },
        "listen-1",
      ),
      mirrored("subscriptions/listen"),
      abort.signal,
    );
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const sse = sseReader(res);
    const ack = await sse.frame();
    expect(ack).toMatchObject({
      method: "notifications/subscriptions/acknowledged",
      params: {
        notifications: { toolsListChanged: true, resourceSubscriptions: ["mcpx://docs/file:///doc.md"] },
        _meta: { [MetaKey.subscriptionId]: "listen-1" },
      },
    });
    await scripted.docs!.waitForMethod("resources/subscribe");
    scripted.docs!.notify("notifications/tools/list_changed");
    expect(await sse.frame()).toMatchObject({
      method: "notifications/tools/list_changed",
      params: { _meta: { [MetaKey.subscriptionId]: "listen-1" } },
    });
    scripted.docs!.notify("notifications/resources/updated", { uri: "file:///doc.md" });
    expect(await sse.frame()).toMatchObject({
      method: "notifications/resources/updated",
      params: { uri: "mcpx://docs/file:///doc.md", _meta: { [MetaKey.subscriptionId]: "listen-1" } },
    });
    expect(gateway.peers).toHaveLength(1);
    // closing the stream ends the subscription (and the upstream one with it)
    abort.abort();
    await scripted.docs!.waitForMethod("resources/unsubscribe");
    expect(gateway.peers).toEqual([]);

    // when mcpx stops, a listen ends with its graceful response
    const again = await post(
      url,
      modernBody("subscriptions/listen", { notifications: { toolsListChanged: true } }, 77),
      mirrored("subscriptions/listen"),
    );
    const sse2 = sseReader(again);
    await sse2.frame();
    await gateway.stop();
    expect(await sse2.frame()).toEqual({
      jsonrpc: "2.0",
      id: 77,
      result: { resultType: "complete", _meta: { [MetaKey.subscriptionId]: 77 } },
      __eventId: undefined,
    });
    expect(await sse2.next()).toBeUndefined();
  });
});
