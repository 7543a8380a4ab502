/**
 * Real clients of mcpx's HTTP server: the official SDK v1 (Streamable HTTP and 2024-11-05 HTTP+SSE)
 * and the v2 modern client (2026-07-28), against mcpx fronting scripted upstreams and
 * @modelcontextprotocol/server-everything over stdio.
 */
import { createRequire } from "node:module";
import type { ServerConfig } from "@mcpx/config";
import type { JSONObject } from "@mcpx/core";
import { Gateway, startHttpServer } from "@mcpx/gateway";
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { afterThisTest, handlers, settings, testHost, type UpstreamSpec } from "../src/index.js";
import { echo, httpGateway, sleep } from "./gateway-http.helpers.js";

const require = createRequire(import.meta.url);
const everything = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");

/** An upstream with a bit of everything, of the given revision. */
function upstream(name: string, version: string, extra: Partial<UpstreamSpec> = {}): UpstreamSpec {
  return {
    name,
    versions: [version],
    capabilities: {
      tools: { listChanged: true },
      prompts: {},
      resources: { subscribe: true, listChanged: true },
      logging: {},
    },
    tools: [echo],
    prompts: [{ name: "greet", description: "greets" }],
    resources: [{ uri: "file:///notes.md", name: "notes" }],
    ...extra,
  };
}

const slowCall: UpstreamSpec["handlers"] = {
  "tools/call": async (req, ctx) => {
    const params = req.params as JSONObject;
    if ((params.arguments as JSONObject | undefined)?.text === "hang") return new Promise(() => {});
    const token = (params._meta as JSONObject | undefined)?.progressToken;
    if (token !== undefined) {
      for (const progress of [1, 2]) {
        ctx.push({
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: token, progress, total: 2 },
        });
        await sleep(10);
      }
    }
    return {
      content: [{ type: "text", text: `echo ${String((params.arguments as JSONObject | undefined)?.text)}` }],
    };
  },
};

async function v1Client(transport: StreamableHTTPClientTransport | SSEClientTransport) {
  const client = new Client({ name: "sdk-v1", version: "1.0.0" });
  await client.connect(transport);
  afterThisTest(() => client.close());
  return client;
}

describe("SDK clients of mcpx over HTTP", () => {
  it("sdk-client/v1-streamable-http", async () => {
    const { url, scripted } = await httpGateway([
      upstream("old", "2025-06-18", { handlers: slowCall }),
      upstream("new", "2026-07-28"),
    ]);
    const client = await v1Client(new StreamableHTTPClientTransport(new URL(url)));
    expect(client.getServerVersion()).toMatchObject({ name: "mcpx" });
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(["old__echo", "new__echo"]);
    const call = await client.callTool({ name: "new__echo", arguments: { text: "hi" } });
    expect(call.content).toEqual([{ type: "text", text: '{"text":"hi"}' }]);
    const read = await client.readResource({ uri: "mcpx://old/file:///notes.md" });
    expect(read.contents[0]).toMatchObject({ uri: "file:///notes.md", text: "contents of file:///notes.md" });
    const prompt = await client.getPrompt({ name: "new__greet" });
    expect(prompt.messages[0]?.content).toMatchObject({ type: "text", text: "prompt greet" });

    // progress on the POST's SSE stream
    const progress: number[] = [];
    const slow = await client.callTool({ name: "old__echo", arguments: { text: "slow" } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(slow.content).toEqual([{ type: "text", text: "echo slow" }]);
    expect(progress).toEqual([1, 2]);

    // a subscription's updates and list changes come on the GET stream
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    let toolsChanged = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void toolsChanged++);
    await client.subscribeResource({ uri: "mcpx://old/file:///notes.md" });
    await scripted.old!.waitForMethod("resources/subscribe");
    scripted.old!.notify("notifications/resources/updated", { uri: "file:///notes.md" });
    scripted.old!.notify("notifications/tools/list_changed");
    await expect.poll(() => updates).toEqual(["mcpx://old/file:///notes.md"]);
    await expect.poll(() => toolsChanged).toBeGreaterThan(0);

    // cancel: the SDK sends notifications/cancelled, mcpx cancels upstream
    const abort = new AbortController();
    const hung = client.callTool({ name: "old__echo", arguments: { text: "hang" } }, undefined, {
      signal: abort.signal,
    });
    await scripted.old!.waitFor(
      (r) => r.frame.method === "tools/call" && (r.frame.params?.arguments as JSONObject)?.text === "hang",
    );
    abort.abort("user gave up");
    await expect(hung).rejects.toThrow();
    const cancelled = await scripted.old!.waitForMethod("notifications/cancelled");
    const hangId = scripted
      .old!.frames("tools/call")
      .find((f) => (f.params?.arguments as JSONObject)?.text === "hang")?.id;
    expect(cancelled.frame.params?.requestId).toBe(hangId);
    expect([...scripted.old!.failures, ...scripted.new!.failures]).toEqual([]);
  });

  it("sdk-client/v1-http-sse-2024-11-05", async () => {
    const { base, scripted } = await httpGateway([upstream("a", "2025-11-25"), upstream("b", "2024-11-05")]);
    const client = await v1Client(new SSEClientTransport(new URL(`${base}/sse`)));
    expect(client.getServerVersion()).toMatchObject({ name: "mcpx" });
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(["a__echo", "b__echo"]);
    const call = await client.callTool({ name: "b__echo", arguments: { text: "sse" } });
    expect(call.content).toEqual([{ type: "text", text: '{"text":"sse"}' }]);
    const read = await client.readResource({ uri: "mcpx://a/file:///notes.md" });
    expect(read.contents[0]).toMatchObject({ text: "contents of file:///notes.md" });
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    await client.subscribeResource({ uri: "mcpx://b/file:///notes.md" });
    await scripted.b!.waitForMethod("resources/subscribe");
    scripted.b!.notify("notifications/resources/updated", { uri: "file:///notes.md" });
    await expect.poll(() => updates).toEqual(["mcpx://b/file:///notes.md"]);
  });

  it("sdk-client/v2-modern", async () => {
    const { url, scripted } = await httpGateway([
      upstream("old", "2025-06-18", {
        tools: [
          echo,
          {
            name: "regional",
            inputSchema: {
              type: "object",
              properties: { region: { type: "string", "x-mcp-header": "Region" }, text: { type: "string" } },
            },
          },
        ],
      }),
      upstream("new", "2026-07-28"),
    ]);
    const client = new ModernClient(
      { name: "sdk-v2", version: "2.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(new ModernTransport(new URL(url)));
    afterThisTest(() => client.close());
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(["old__echo", "old__regional", "new__echo"]);
    const call = await client.callTool({ name: "new__echo", arguments: { text: "modern" } });
    expect(call.content).toEqual([{ type: "text", text: '{"text":"modern"}' }]);
    // the client mirrors x-mcp-header arguments, and mcpx checks them
    const regional = await client.callTool({
      name: "old__regional",
      arguments: { region: "eu-west-1", text: "x" },
    });
    expect(regional.isError).toBeFalsy();
    const read = await client.readResource({ uri: "mcpx://new/file:///notes.md" });
    expect(read.contents[0]).toMatchObject({ text: "contents of file:///notes.md" });
    const prompt = await client.getPrompt({ name: "old__greet" });
    expect(prompt.messages[0]?.content).toMatchObject({ text: "prompt greet" });

    const updates: string[] = [];
    client.setNotificationHandler("notifications/resources/updated", (n) => void updates.push(n.params.uri));
    let toolsChanged = 0;
    client.setNotificationHandler("notifications/tools/list_changed", () => void toolsChanged++);
    const sub = await client.listen({
      toolsListChanged: true,
      resourceSubscriptions: ["mcpx://old/file:///notes.md"],
    });
    expect(sub.honoredFilter).toMatchObject({
      toolsListChanged: true,
      resourceSubscriptions: ["mcpx://old/file:///notes.md"],
    });
    await scripted.old!.waitForMethod("resources/subscribe");
    scripted.old!.notify("notifications/resources/updated", { uri: "file:///notes.md" });
    scripted.old!.notify("notifications/tools/list_changed");
    await expect.poll(() => updates).toEqual(["mcpx://old/file:///notes.md"]);
    await expect.poll(() => toolsChanged).toBeGreaterThan(0);
    await sub.close();
    expect(await sub.closed).toBe("local");
    await scripted.old!.waitForMethod("resources/unsubscribe");
    expect(scripted.old!.failures).toEqual([]);
  });

  it("sdk-client/server-everything-upstream", async () => {
    const host = await testHost();
    const servers: ServerConfig[] = [
      {
        kind: "command",
        name: "everything",
        namespace: "ev",
        namespacing: true,
        disabled: false,
        command: process.execPath,
        args: [everything, "stdio"],
        env: {},
        tools: {},
        settings: settings({ requestTimeout: 10_000, handshakeTimeout: 10_000 }),
      },
    ];
    const gateway = new Gateway({ servers, env: host, handlers: handlers({}), reconnect: false });
    gateway.start();
    await gateway.pool.settled();
    afterThisTest(() => gateway.stop());
    const http = await startHttpServer(gateway, { port: 0 });
    afterThisTest(() => http.close());

    const v1 = await v1Client(new StreamableHTTPClientTransport(new URL(http.url)));
    const names = (await v1.listTools()).tools.map((t) => t.name);
    expect(names).toContain("ev__echo");
    const echoed = await v1.callTool({ name: "ev__echo", arguments: { message: "through mcpx" } });
    expect(JSON.stringify(echoed.content)).toContain("through mcpx");
    const resources = await v1.listResources();
    expect(resources.resources.length).toBeGreaterThan(0);
    const first = resources.resources[0]!;
    const read = await v1.readResource({ uri: first.uri });
    expect(read.contents.length).toBeGreaterThan(0);

    const v2 = new ModernClient(
      { name: "sdk-v2", version: "2.0.0" },
      { versionNegotiation: { mode: "auto" } },
    );
    await v2.connect(new ModernTransport(new URL(http.url)));
    afterThisTest(() => v2.close());
    // mcpx answers the probe (server/discover) as a modern server
    expect(v2.getProtocolEra()).toBe("modern");
    const again = await v2.callTool({ name: "ev__echo", arguments: { message: "modern through mcpx" } });
    expect(JSON.stringify(again.content)).toContain("modern through mcpx");
    const result = (await v2.listTools()) as unknown as JSONObject;
    expect(result.tools).toEqual(expect.arrayContaining([expect.objectContaining({ name: "ev__echo" })]));
  });
});
