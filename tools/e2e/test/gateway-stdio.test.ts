import { MetaKey } from "@mcpx/core";
import { describe, expect, it } from "vitest";
import { requirement, scriptedGateway, stdioClient } from "../src/index.js";

const schemaTool = {
  name: "lookup",
  description: "a schema with $schema, $ref and $defs, passed through untouched",
  inputSchema: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: { where: { $ref: "#/$defs/place" } },
    $defs: { place: { type: "object", properties: { city: { type: "string" } } } },
  },
};
const echo = { name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } };
const modernMeta = {
  [MetaKey.protocolVersion]: "2026-07-28",
  [MetaKey.clientCapabilities]: {},
  [MetaKey.clientInfo]: { name: "test", version: "1" },
};

async function legacyClient(gateway: Parameters<typeof stdioClient>[0], version = "2025-06-18") {
  const c = stdioClient(gateway);
  const init = await c.request("initialize", {
    protocolVersion: version,
    capabilities: {},
    clientInfo: { name: "test", version: "1" },
  });
  c.send({ method: "notifications/initialized" });
  return { c, init };
}

describe("gateway over stdio", () => {
  it("namespaces/tools-prompts-resources-namespaced", async () => {
    const { gateway } = await scriptedGateway([
      {
        name: "alpha",
        versions: ["2025-06-18"],
        tools: [echo, schemaTool],
        prompts: [{ name: "greet" }],
        resources: [{ uri: "file:///a.txt", name: "a" }],
        resourceTemplates: [{ uriTemplate: "note://{id}", name: "note" }],
      },
      { name: "beta", versions: ["2026-07-28"], tools: [echo] },
    ]);
    const { c, init } = await legacyClient(gateway);
    expect(init.result).toMatchObject({ protocolVersion: "2025-06-18", serverInfo: { name: "mcpx" } });
    const tools = (await c.request("tools/list")).result as {
      tools: { name: string; inputSchema: unknown }[];
    };
    expect(tools.tools.map((t) => t.name)).toEqual(["alpha__echo", "alpha__lookup", "beta__echo"]);
    // the schema is exactly what the upstream sent: $schema, $ref and $defs kept, nothing dereferenced
    expect(tools.tools[1]?.inputSchema).toEqual(schemaTool.inputSchema);
    const prompts = (await c.request("prompts/list")).result as { prompts: { name: string }[] };
    expect(prompts.prompts.map((p) => p.name)).toEqual(["alpha__greet"]);
    const resources = (await c.request("resources/list")).result as { resources: { uri: string }[] };
    expect(resources.resources.map((r) => r.uri)).toEqual(["mcpx://alpha/file:///a.txt"]);
    const templates = (await c.request("resources/templates/list")).result as {
      resourceTemplates: { uriTemplate: string }[];
    };
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual(["mcpx://alpha/note://{id}"]);
  });

  it("namespaces/calls-routed-to-the-owner", async () => {
    const { gateway, scripted } = await scriptedGateway([
      {
        name: "alpha",
        versions: ["2025-06-18"],
        tools: [echo],
        resources: [{ uri: "file:///a.txt", name: "a" }],
      },
      { name: "beta", versions: ["2026-07-28"], tools: [echo] },
    ]);
    const { c } = await legacyClient(gateway);
    const call = await c.request("tools/call", { name: "beta__echo", arguments: { text: "hi" } });
    expect(call.result).toEqual({ content: [{ type: "text", text: '{"text":"hi"}' }] });
    expect(scripted.beta?.frames("tools/call")[0]?.params).toMatchObject({
      name: "echo",
      arguments: { text: "hi" },
    });
    expect(scripted.alpha?.frames("tools/call")).toEqual([]);
    const read = await c.request("resources/read", { uri: "mcpx://alpha/file:///a.txt" });
    expect(read.result).toEqual({
      contents: [{ uri: "file:///a.txt", mimeType: "text/plain", text: "contents of file:///a.txt" }],
    });
    expect(scripted.alpha?.frames("resources/read")[0]?.params?.uri).toBe("file:///a.txt");
    const unknown = await c.request("tools/call", { name: "gamma__echo", arguments: {} });
    expect(unknown.error).toMatchObject({ code: -32602, message: "Unknown tool: gamma__echo" });
    const missing = await c.request("resources/read", { uri: "mcpx://alpha/file:///nope" });
    expect(missing.error).toMatchObject({ code: -32002 });
    expect([...(scripted.alpha?.failures ?? []), ...(scripted.beta?.failures ?? [])]).toEqual([]);
  });

  it("namespaces/tool-filters", async () => {
    const tools = ["read_file", "write_file", "delete_file", "list_dir"].map((name) => ({
      name,
      inputSchema: { type: "object" },
    }));
    const { gateway } = await scriptedGateway([
      { name: "fs", versions: ["2025-11-25"], tools, include: ["*_file", "list_*"], exclude: ["delete_*"] },
    ]);
    const { c } = await legacyClient(gateway);
    const list = (await c.request("tools/list")).result as { tools: { name: string }[] };
    expect(list.tools.map((t) => t.name)).toEqual(["fs__read_file", "fs__write_file", "fs__list_dir"]);
    // a filtered tool cannot be called either
    const call = await c.request("tools/call", { name: "fs__delete_file", arguments: {} });
    expect(call.error?.code).toBe(-32602);
  });

  it("namespaces/namespacing-off", async () => {
    const { gateway, scripted } = await scriptedGateway([
      {
        name: "plain",
        namespacing: false,
        versions: ["2025-06-18"],
        tools: [echo],
        resources: [{ uri: "test://x", name: "x" }],
      },
    ]);
    const { c } = await legacyClient(gateway);
    const list = (await c.request("tools/list")).result as { tools: { name: string }[] };
    expect(list.tools.map((t) => t.name)).toEqual(["echo"]);
    await c.request("tools/call", { name: "echo", arguments: { text: "x" } });
    expect(scripted.plain?.frames("tools/call")[0]?.params?.name).toBe("echo");
    const read = await c.request("resources/read", { uri: "test://x" });
    expect(read.result).toMatchObject({ contents: [{ uri: "test://x" }] });
  });

  it("pagination/aggregated-lists-paged", async () => {
    const many = (prefix: string) =>
      Array.from({ length: 3 }, (_, i) => ({ name: `${prefix}${i}`, inputSchema: { type: "object" } }));
    const { gateway } = await scriptedGateway(
      [
        { name: "a", versions: ["2025-06-18"], tools: many("x"), pageSize: 2 },
        { name: "b", versions: ["2026-07-28"], tools: many("y"), pageSize: 2 },
      ],
      { pageSize: 4 },
    );
    const { c } = await legacyClient(gateway);
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = (await c.request("tools/list", cursor ? { cursor } : {})).result as {
        tools: { name: string }[];
        nextCursor?: string;
      };
      names.push(...res.tools.map((t) => t.name));
      cursor = res.nextCursor;
      pages++;
    } while (cursor);
    expect(names).toEqual(["a__x0", "a__x1", "a__x2", "b__y0", "b__y1", "b__y2"]);
    // the upstreams' own pages (of 2) were read whole; mcpx pages the union its own way (by 4)
    expect(pages).toBe(2);
    const bad = await c.request("tools/list", { cursor: "not-a-cursor" });
    expect(bad.error?.code).toBe(-32602);
  });

  it("downstream/legacy-results-carry-no-modern-keys", async () => {
    const { gateway } = await scriptedGateway([{ name: "m", versions: ["2026-07-28"], tools: [echo] }]);
    const { c } = await legacyClient(gateway, "2025-11-25");
    const list = (await c.request("tools/list")).result as Record<string, unknown>;
    expect(list).not.toHaveProperty("resultType");
    expect(list).not.toHaveProperty("ttlMs");
    const call = (await c.request("tools/call", { name: "m__echo", arguments: {} })).result as Record<
      string,
      unknown
    >;
    expect(call).not.toHaveProperty("resultType");
  });

  it("downstream/modern-client-over-stdio", async () => {
    const { gateway } = await scriptedGateway([{ name: "l", versions: ["2025-06-18"], tools: [echo] }]);
    const c = stdioClient(gateway);
    const discover = await c.request("server/discover", { _meta: modernMeta });
    expect(discover.result).toMatchObject({
      resultType: "complete",
      supportedVersions: expect.arrayContaining(["2026-07-28", "2025-11-25"]),
      _meta: { [MetaKey.serverInfo]: { name: "mcpx" } },
    });
    const list = (await c.request("tools/list", { _meta: modernMeta })).result as Record<string, unknown>;
    expect(list).toMatchObject({ resultType: "complete", ttlMs: 0, cacheScope: "private" });
    const bad = await c.request("tools/list", {
      _meta: { ...modernMeta, [MetaKey.protocolVersion]: "2030-01-01" },
    });
    expect(bad.error).toMatchObject({ code: -32022, data: { requested: "2030-01-01" } });
    const noCaps = await c.request("tools/list", { _meta: { [MetaKey.protocolVersion]: "2026-07-28" } });
    expect(noCaps.error?.code).toBe(-32602);
    const ping = await c.request("ping", { _meta: modernMeta });
    expect(ping.error?.code).toBe(-32601);
  });

  requirement(
    [
      "2024-11-05/subscriptions/mcpx-uri-updates",
      "2025-03-26/subscriptions/mcpx-uri-updates",
      "2025-06-18/subscriptions/mcpx-uri-updates",
      "2025-11-25/subscriptions/mcpx-uri-updates",
      "2026-07-28/subscriptions/mcpx-uri-updates",
    ],
    async (rev) => {
      const { gateway, scripted } = await scriptedGateway([
        {
          name: "docs",
          versions: [rev],
          capabilities: { resources: { subscribe: true } },
          resources: [{ uri: "file:///doc.md", name: "doc" }],
        },
      ]);
      const upstream = scripted.docs!;
      const { c } = await legacyClient(gateway);
      const sub = await c.request("resources/subscribe", { uri: "mcpx://docs/file:///doc.md" });
      expect(sub.result).toEqual({});
      if (rev === "2026-07-28") {
        // a modern upstream subscribes through its listen stream
        await upstream.waitFor(
          (r) =>
            r.frame.method === "subscriptions/listen" && JSON.stringify(r.frame.params).includes("doc.md"),
        );
        const listen = upstream.listens.at(-1)!;
        listen.push({
          jsonrpc: "2.0",
          method: "notifications/resources/updated",
          params: { uri: "file:///doc.md", _meta: { [MetaKey.subscriptionId]: listen.id } },
        });
      } else {
        await upstream.waitForMethod("resources/subscribe");
        expect(upstream.frames("resources/subscribe")[0]?.params).toEqual({ uri: "file:///doc.md" });
        upstream.notify("notifications/resources/updated", { uri: "file:///doc.md" });
      }
      const update = await c.waitFor((m) => "method" in m && m.method === "notifications/resources/updated");
      expect((update as { params: unknown }).params).toEqual({ uri: "mcpx://docs/file:///doc.md" });
      expect(upstream.failures).toEqual([]);
    },
  );

  it("forwarding/list-changed", async () => {
    const { gateway, scripted } = await scriptedGateway([
      { name: "a", versions: ["2025-06-18"], tools: [echo] },
    ]);
    const { c } = await legacyClient(gateway);
    await c.request("tools/list");
    scripted.a?.notify("notifications/tools/list_changed");
    await c.waitFor((m) => "method" in m && m.method === "notifications/tools/list_changed");
    // the catalog listed again after the change
    await c.request("tools/list");
    expect(scripted.a?.frames("tools/list")).toHaveLength(2);
  });

  it("forwarding/progress-and-cancel", async () => {
    const { gateway, scripted } = await scriptedGateway([
      {
        name: "slow",
        versions: ["2025-06-18"],
        tools: [echo],
        handlers: {
          "tools/call": (req, ctx) =>
            new Promise(() => {
              const token = (req.params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
              ctx.push({
                jsonrpc: "2.0",
                method: "notifications/progress",
                params: { progressToken: token, progress: 1, total: 2 },
              });
            }),
        },
      },
    ]);
    const { c } = await legacyClient(gateway);
    c.send({
      id: "call-1",
      method: "tools/call",
      params: { name: "slow__echo", arguments: {}, _meta: { progressToken: "p-down" } },
    });
    const progress = await c.waitFor((m) => "method" in m && m.method === "notifications/progress");
    expect((progress as { params: unknown }).params).toEqual({
      progressToken: "p-down",
      progress: 1,
      total: 2,
    });
    c.send({ method: "notifications/cancelled", params: { requestId: "call-1", reason: "enough" } });
    const cancelled = await scripted.slow!.waitForMethod("notifications/cancelled");
    expect(cancelled.frame.params?.requestId).toBe(scripted.slow?.frames("tools/call")[0]?.id);
    await new Promise((r) => setTimeout(r, 100));
    // a cancelled request gets no answer
    expect(c.received.some((m) => !("method" in m) && m.id === "call-1")).toBe(false);
  });
});

/** A tool whose schemas use JSON Schema 2020-12's keywords (the official suite's json-schema-2020-12-preservation). */
const schema2020Tool = {
  name: "plan",
  description: "JSON Schema 2020-12 keywords, to be passed on byte for byte",
  inputSchema: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://example.com/schemas/plan.json",
    $comment: "kept as written, in this order",
    type: "object",
    $defs: {
      stop: {
        $anchor: "stop",
        type: "object",
        properties: { city: { type: "string" } },
        required: ["city"],
        unevaluatedProperties: false,
      },
      node: {
        $dynamicAnchor: "node",
        type: "object",
        properties: { children: { type: "array", items: { $dynamicRef: "#node" } } },
      },
    },
    properties: {
      route: {
        type: "array",
        prefixItems: [{ $ref: "#stop" }, { $ref: "#/$defs/stop" }],
        items: { $ref: "#/$defs/stop" },
        contains: { $ref: "#stop" },
        minContains: 1,
        unevaluatedItems: false,
      },
      payment: {
        type: "object",
        properties: { card: { type: "string" } },
        dependentSchemas: {
          card: { properties: { expiry: { type: "string", pattern: "^\\d{2}/\\d{2}$" } } },
        },
        dependentRequired: { card: ["holder"] },
      },
      tree: { $ref: "#/$defs/node" },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else, never awaited
      mode: { if: { const: "fast" }, then: { maxLength: 4 }, else: { minLength: 1 } },
      tags: {
        type: "object",
        patternProperties: { "^x-": { type: "string" } },
        propertyNames: { pattern: "^[a-z-]+$" },
      },
    },
    required: ["route"],
    unevaluatedProperties: false,
  },
  outputSchema: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    $defs: { leg: { type: "object", properties: { km: { type: "number", exclusiveMinimum: 0 } } } },
    properties: {
      legs: { type: "array", prefixItems: [{ $ref: "#/$defs/leg" }], items: false },
      total: { type: ["number", "null"] },
    },
    unevaluatedProperties: false,
  },
};

describe("JSON Schema 2020-12 through the gateway", () => {
  // A tool's schemas reach mcpx's clients as the upstream wrote them, whatever its revision: the list
  // screening checks each tool against the revision's Tool definition but neither strips nor
  // dereferences anything, and the gateway renames only the tool.
  requirement(
    [
      "2024-11-05/results/json-schema-2020-12-preserved",
      "2025-03-26/results/json-schema-2020-12-preserved",
      "2025-06-18/results/json-schema-2020-12-preserved",
      "2025-11-25/results/json-schema-2020-12-preserved",
      "2026-07-28/results/json-schema-2020-12-preserved",
    ],
    async (rev) => {
      const { gateway, scripted, host } = await scriptedGateway([
        { name: "up", versions: [rev], tools: [schema2020Tool] },
      ]);
      const expected = JSON.stringify({ ...schema2020Tool, name: "up__plan" });
      // a legacy client and a modern one, each over mcpx stdio
      const { c: legacy } = await legacyClient(gateway, "2025-11-25");
      const listed = (await legacy.request("tools/list")).result as { tools: unknown[] };
      expect(listed.tools.map((t) => JSON.stringify(t))).toEqual([expected]);
      const modern = stdioClient(gateway);
      const modernList = (await modern.request("tools/list", { _meta: modernMeta })).result as {
        tools: unknown[];
      };
      expect(modernList.tools.map((t) => JSON.stringify(t))).toEqual([expected]);
      // nothing was left out on the way
      expect(host.events.filter((e) => e.type === "server.warning")).toEqual([]);
      expect(scripted.up?.failures).toEqual([]);
    },
  );
});
