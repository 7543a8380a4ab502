/**
 * 2026-07-28 over Streamable HTTP: the headers mirrored from every frame (MCP-Protocol-Version,
 * Mcp-Method, Mcp-Name), no Mcp-Session-Id ever, and the value encoding of Mcp-Name and Mcp-Param-*,
 * against scripted modern servers that check every frame strictly and every mirrored header (a
 * disagreement is a failure and a 400 -32020).
 */
import { MetaKey } from "@mcpx/core";
import { revision as modern } from "@mcpx/revision-2026-07-28";
import { describe, expect } from "vitest";
import { httpCase, label, metaOf, PROMPTS, RESOURCES, requirement, TOOLS } from "../src/index.js";
import {
  allPosts,
  listenSse,
  M,
  metaVersionOf,
  methodOf,
  REGION_TOOL,
  serverDecode,
  until,
  withFutureRevision,
} from "./modern-http.helpers.js";

const CAPS = {
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { listChanged: true, subscribe: true },
};

/** A modern session touching every kind of request mcpx sends: lists, named requests, discover, listen. */
async function modernSession(opts: { future?: boolean } = {}) {
  const c = await httpCase(
    {
      versions: M,
      tools: [...TOOLS, REGION_TOOL],
      prompts: PROMPTS,
      resources: RESOURCES,
      capabilities: CAPS,
    },
    { answer: listenSse },
  );
  if (opts.future) await withFutureRevision(c);
  const client = await c.connect();
  await until(() => c.server.listens.length === 1);
  await client.listTools();
  await client.callTool("echo", { text: "hi" });
  await client.callTool("where", { region: "eu-west1", query: "q" });
  await client.listPrompts();
  await client.getPrompt("greet");
  await client.listResources();
  await client.listResourceTemplates();
  await client.readResource("file:///a.txt");
  await client.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "a", value: "b" } });
  await client.ping();
  await client.setLogLevel("info");
  await client.listTools();
  await client.subscribeResource("file:///a.txt");
  await until(() => c.server.listens.length === 2);
  return { c, client };
}

describe("2026-07-28 headers over Streamable HTTP", () => {
  requirement(["2026-07-28/headers/version-from-meta"], async () => {
    const { c, client } = await modernSession({ future: true });
    expect(client.negotiated.version).toBe("2026-07-28");
    const posts = allPosts(c.script);
    // the version retry: server/discover with 2099-01-01 (refused with -32022), then with 2026-07-28
    const discovers = posts.filter((r) => methodOf(r) === "server/discover");
    expect(discovers.map((r) => [metaVersionOf(r), r.headers["mcp-protocol-version"]])).toEqual([
      ["2099-01-01", "2099-01-01"],
      ["2026-07-28", "2026-07-28"],
      ["2026-07-28", "2026-07-28"], // ping
    ]);
    expect(posts.length).toBeGreaterThanOrEqual(15);
    for (const r of posts) {
      expect(metaVersionOf(r), label(r)).toBeDefined();
      expect(r.headers["mcp-protocol-version"], label(r)).toBe(metaVersionOf(r));
    }
    expect(c.server.failures).toEqual([]);
  });

  requirement(["2026-07-28/headers/mcp-method"], async () => {
    const { c, client } = await modernSession();
    // a notification POST (mcpx sends none to a modern HTTP server of its own accord) carries it too
    await client.notify("notifications/cancelled", { requestId: 12345, reason: "probe of the header" });
    const posts = allPosts(c.script);
    const methods = new Set(posts.map(methodOf));
    for (const m of [
      "server/discover",
      "subscriptions/listen",
      "tools/list",
      "tools/call",
      "prompts/list",
      "prompts/get",
      "resources/list",
      "resources/templates/list",
      "resources/read",
      "completion/complete",
      "notifications/cancelled",
    ]) {
      expect(methods, m).toContain(m);
    }
    for (const r of posts) {
      expect(r.frames, label(r)).toHaveLength(1);
      expect(r.headers["mcp-method"], label(r)).toBe(methodOf(r));
    }
    expect(c.server.failures).toEqual([]);
  });

  requirement(["2026-07-28/headers/mcp-name"], async () => {
    const { c } = await modernSession();
    const named: Record<string, string> = {
      "tools/call": "name",
      "prompts/get": "name",
      "resources/read": "uri",
    };
    const posts = allPosts(c.script);
    expect(posts.filter((r) => named[methodOf(r) ?? ""] !== undefined)).toHaveLength(4);
    for (const r of posts) {
      const source = named[methodOf(r) ?? ""];
      if (source === undefined) {
        expect(r.headers, label(r)).not.toHaveProperty("mcp-name");
      } else {
        expect(r.headers["mcp-name"], label(r)).toBe(r.frames[0]?.params?.[source]);
      }
    }
    expect(c.server.failures).toEqual([]);
  });

  requirement(["2026-07-28/headers/no-session-id"], async () => {
    // 1. A modern server that (wrongly) mints Mcp-Session-Id on every answer, the probe's included:
    //    mcpx never sends it back on a modern frame.
    const minting = await httpCase(
      { versions: M, tools: [...TOOLS, REGION_TOOL], resources: RESOURCES, capabilities: CAPS },
      { answer: listenSse, responseHeaders: () => ({ "Mcp-Session-Id": "minted-by-a-modern-server" }) },
    );
    await withFutureRevision(minting);
    const client = await minting.connect();
    await until(() => minting.server.listens.length === 1);
    await client.listTools();
    await client.callTool("where", { region: "eu" });
    await client.readResource("file:///a.txt");
    await client.subscribeResource("file:///a.txt");
    await until(() => minting.server.listens.length === 2);
    await client.close();
    expect(minting.script.requests.length).toBeGreaterThan(6);
    for (const r of minting.script.requests) {
      expect(r.httpMethod, label(r)).toBe("POST");
      expect(r.headers, label(r)).not.toHaveProperty("mcp-session-id");
    }
    expect(minting.server.failures).toEqual([]);

    // 2. A dual-era server: a legacy exchange on the transport mints a session (initialize), the
    //    client then speaks modern on the same transport: not one modern frame carries the id.
    const dual = await httpCase(
      { versions: ["2026-07-28", "2025-11-25"], tools: [...TOOLS, REGION_TOOL], resources: RESOURCES },
      { answer: "sse" },
    );
    const legacy = await dual.connect({ revision: "2025-11-25" });
    await dual.script.getStreamConnected();
    await legacy.listTools();
    const sessionId = dual.script.sessionId;
    expect(sessionId).toMatch(/^sess-/);
    const legacyCount = dual.script.requests.length;
    for (const r of dual.script.requests.slice(1)) {
      expect(r.headers["mcp-session-id"], label(r)).toBe(sessionId);
    }
    // the dual-era server answers each modern POST on its own: the legacy negotiation is not its state
    dual.server.negotiated = undefined;
    await legacy.handshake(modern);
    expect(legacy.negotiated.version).toBe("2026-07-28");
    await legacy.listTools();
    await legacy.callTool("where", { region: "eu" });
    await legacy.readResource("file:///a.txt");
    await legacy.ping();
    await legacy.close();
    const later = dual.script.requests.slice(legacyCount);
    expect(later.map((r) => `${label(r)}`)).toEqual([
      "POST server/discover",
      "POST tools/list",
      "POST tools/call",
      "POST resources/read",
      "POST server/discover",
    ]);
    for (const r of later) {
      expect(metaOf(r.frames[0])[MetaKey.protocolVersion], label(r)).toBe("2026-07-28");
      expect(r.headers, label(r)).not.toHaveProperty("mcp-session-id");
    }
    expect(dual.server.failures).toEqual([]);
  });
});

/**
 * Two modern tools/calls, one whose Mcp-Param-Region (its `region` argument) carries `value` and one
 * whose Mcp-Name (the tool's name) does, and one prompts/get whose Mcp-Name carries it as the prompt's
 * name; returns the raw headers after checking that what the server decodes equals what the body says.
 * The tool named `value` has no x-mcp-header: mcpx leaves a tool whose name holds a control character
 * out of its list, and mirrors arguments only for the tools it listed.
 */
async function encoded(value: string) {
  const named = { name: value, inputSchema: { type: "object" } };
  const c = await httpCase({ versions: M, tools: [REGION_TOOL, named], prompts: [{ name: value }] });
  const client = await c.connect();
  const result = await client.callTool(REGION_TOOL.name, { region: value, query: "q" });
  expect(JSON.parse((result.content as { text: string }[])[0]?.text ?? "")).toEqual({
    region: value,
    query: "q",
  });
  await client.callTool(value, {});
  await client.getPrompt(value);
  const [mirrored, call] = allPosts(c.script).filter((r) => methodOf(r) === "tools/call");
  const get = allPosts(c.script).find((r) => methodOf(r) === "prompts/get");
  if (!mirrored || !call || !get) throw new Error("the calls and the prompt must have reached the server");
  expect(serverDecode(mirrored.headers["mcp-param-region"] ?? "")).toBe(
    (mirrored.frames[0]?.params?.arguments as { region?: string } | undefined)?.region,
  );
  expect(serverDecode(call.headers["mcp-name"] ?? "")).toBe(call.frames[0]?.params?.name);
  expect(serverDecode(get.headers["mcp-name"] ?? "")).toBe(get.frames[0]?.params?.name);
  expect(c.server.failures).toEqual([]);
  return {
    name: call.headers["mcp-name"],
    param: mirrored.headers["mcp-param-region"],
    prompt: get.headers["mcp-name"],
  };
}

/** A resources/read of `uri`: the raw Mcp-Name (a URI must be one: the schema checks its format). */
async function encodedUri(uri: string) {
  const c = await httpCase({ versions: M, resources: [{ uri, name: "r" }] });
  const client = await c.connect();
  expect((await client.readResource(uri)).contents).toHaveLength(1);
  const read = allPosts(c.script).find((r) => methodOf(r) === "resources/read");
  expect(serverDecode(read?.headers["mcp-name"] ?? "")).toBe(uri);
  expect(c.server.failures).toEqual([]);
  return read?.headers["mcp-name"];
}

const sentinel = (v: string) => `=?base64?${Buffer.from(v, "utf8").toString("base64")}?=`;

describe("2026-07-28 value encoding (Mcp-Name, Mcp-Param-*) through real calls", () => {
  requirement(["2026-07-28/encoding/plain-ascii"], async () => {
    // visible ASCII with inner spaces and tabs goes as is
    const value = "us-west1 zone\tb";
    expect(await encoded(value)).toEqual({ name: value, param: value, prompt: value });
    expect(await encoded("get_weather")).toEqual({
      name: "get_weather",
      param: "get_weather",
      prompt: "get_weather",
    });
    expect(await encodedUri("file:///projects/myapp/config.json")).toBe("file:///projects/myapp/config.json");
  });

  requirement(["2026-07-28/encoding/non-ascii"], async () => {
    // the spec's own examples: non-ASCII, and a control character
    const world = "=?base64?SGVsbG8sIOS4lueVjA==?=";
    expect(await encoded("Hello, 世界")).toEqual({ name: world, param: world, prompt: world });
    const newline = "=?base64?bGluZTEKbGluZTI=?=";
    expect(await encoded("line1\nline2")).toEqual({ name: newline, param: newline, prompt: newline });
    const del = sentinel("a\u007fb");
    expect(await encoded("a\u007fb")).toEqual({ name: del, param: del, prompt: del });
  });

  requirement(["2026-07-28/encoding/edge-whitespace"], async () => {
    const padded = "=?base64?IHBhZGRlZCA=?="; // " padded ", the spec's example
    expect(await encoded(" padded ")).toEqual({ name: padded, param: padded, prompt: padded });
    const lead = sentinel("\tlead");
    expect(await encoded("\tlead")).toEqual({ name: lead, param: lead, prompt: lead });
    const trail = sentinel("trail ");
    expect(await encoded("trail ")).toEqual({ name: trail, param: trail, prompt: trail });
  });

  requirement(["2026-07-28/encoding/looks-like-sentinel"], async () => {
    // a literal that a server would otherwise decode into something the client never sent
    const literal = "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="; // "=?base64?literal?=", the spec's example
    expect(await encoded("=?base64?literal?=")).toEqual({ name: literal, param: literal, prompt: literal });
    // one whose inside is valid Base64: sent plain, a server would read "hi"
    const again = sentinel("=?base64?aGk=?=");
    expect(await encoded("=?base64?aGk=?=")).toEqual({ name: again, param: again, prompt: again });
  });
});
