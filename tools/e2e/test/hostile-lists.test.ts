// biome-ignore-all lint/suspicious/noControlCharactersInRegex: these tests look for control characters
/**
 * An upstream's malformed or hostile list never reaches mcpx's clients: each item of tools/list,
 * prompts/list, resources/list and resources/templates/list is checked against the negotiated
 * revision's own schema (draft-07 in 2024-11-05…2025-06-18, 2020-12 from 2025-11-25) and mcpx's rules
 * on names and URIs; an item that fails, or repeats a name or URI, is left out with one server.warning
 * naming the upstream, the item (shown safely) and the reason, and the rest of the list is kept. The
 * official SDK client, which rejects a whole tools/list result over one bad tool, lists every valid
 * tool of every upstream through mcpx. And the CLI shows upstream text to a person without its
 * control characters, while --json keeps it verbatim.
 */
import type { JSONObject, LifecycleEvent } from "@mcpx/core";
import { ScriptedServer, type ScriptedServerOptions, stdioScript } from "@mcpx/testkit";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { afterThisTest, configDir, mcpx, scriptedGateway, settings, stdioCase } from "../src/index.js";
import { httpGateway } from "./gateway-http.helpers.js";

type Warning = Extract<LifecycleEvent, { type: "server.warning" }>;

/** A draft-07 revision (legacy), a 2020-12 legacy one and the 2020-12 modern one. */
const REVISIONS = ["2025-06-18", "2025-11-25", "2026-07-28"] as const;

const tool = (name: unknown, extra: JSONObject = {}): JSONObject => ({
  name,
  inputSchema: { type: "object" },
  ...extra,
});
const OK = tool("ok", { description: "fine" });
/** A list entry that is not an object at all (the scripted server sends whatever it is given). */
const notAnObject = (value: unknown) => value as JSONObject;

const LISTS = {
  tools: "tools/list",
  prompts: "prompts/list",
  resources: "resources/list",
  resourceTemplates: "resources/templates/list",
} as const;
type Kind = keyof typeof LISTS;

/** mcpx connected over stdio to a scripted upstream of `revision`: one list, and the warnings it gave. */
async function listed(
  revision: string,
  kind: Kind,
  options: Partial<ScriptedServerOptions>,
  maxNameLength?: number,
) {
  const c = await stdioCase({ versions: [revision], ...options });
  const client = await c.connect(
    maxNameLength === undefined ? {} : { settings: settings({ maxNameLength }) },
  );
  const items = await client.list<JSONObject>(LISTS[kind], kind);
  const warnings = c.host.events.filter((e): e is Warning => e.type === "server.warning");
  expect(c.server.failures).toEqual([]);
  return { items, warnings, names: items.map((i) => i.name) };
}

/** The warning about one item (by the item as shown), which must exist. */
function about(warnings: Warning[], item: string): Warning {
  const found = warnings.find((w) => w.item === item);
  expect(found, `a server.warning about ${item} (got ${JSON.stringify(warnings)})`).toBeDefined();
  return found as Warning;
}

// C0 and C1 controls, DEL, the bidi controls and the invisible format characters.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;

describe("hostile lists: each item checked, the rest kept", () => {
  it("lists/tool-without-input-schema-left-out-with-a-warning", async () => {
    for (const rev of REVISIONS) {
      const { names, warnings } = await listed(rev, "tools", {
        tools: [OK, { name: "no-schema", description: "has no inputSchema" }, tool("also-ok")],
      });
      expect(names, rev).toEqual(["ok", "also-ok"]);
      expect(warnings, rev).toHaveLength(1);
      expect(about(warnings, "no-schema"), rev).toMatchObject({
        upstream: "scripted",
        list: "tools",
        tool: "no-schema",
        reason: `Tool must have required property 'inputSchema' (${rev} schema)`,
        message: `tool no-schema left out: Tool must have required property 'inputSchema' (${rev} schema)`,
      });
    }
  });

  it("lists/non-string-name-left-out", async () => {
    for (const rev of REVISIONS) {
      const { names, warnings } = await listed(rev, "tools", {
        tools: [
          tool(42),
          OK,
          tool({ evil: true }),
          { inputSchema: { type: "object" } },
          notAnObject("not-an-object"),
          notAnObject(null),
        ],
      });
      expect(names, rev).toEqual(["ok"]);
      expect(warnings.map((w) => w.item)).toEqual([
        "#0 (name 42)",
        '#2 (name {"evil":true})',
        "#3",
        "#4",
        "#5",
      ]);
      expect(about(warnings, "#0 (name 42)").reason).toBe(`Tool/name must be string (${rev} schema)`);
      expect(about(warnings, "#3").reason).toBe(`Tool must have required property 'name' (${rev} schema)`);
      expect(about(warnings, "#4").reason).toBe("the item is a string, not an object");
      expect(about(warnings, "#5").reason).toBe("the item is null, not an object");
      for (const w of warnings) expect(w).toMatchObject({ upstream: "scripted", list: "tools" });
    }
  });

  it("lists/name-with-nul-or-bidi-left-out", async () => {
    const hostile = [
      "nul\u0000name",
      "evil\u202egnp.exe",
      "isolate\u2066x\u2069",
      "zero\u200bwidth",
      "bom\ufeff",
      "esc\u001b[31m",
      "del\u007f",
      "c1\u009b",
      "line\nbreak",
    ];
    for (const rev of REVISIONS) {
      const { names, warnings } = await listed(rev, "tools", { tools: [...hostile.map((n) => tool(n)), OK] });
      expect(names, rev).toEqual(["ok"]);
      expect(warnings, rev).toHaveLength(hostile.length);
      expect(about(warnings, "nul\\u0000name").reason).toBe(
        "name holds U+0000 (a control character) at index 3",
      );
      expect(about(warnings, "evil\\u202egnp.exe").reason).toBe(
        "name holds U+202E (a bidi control) at index 4",
      );
      expect(about(warnings, "isolate\\u2066x\\u2069").reason).toMatch(/U\+2066 \(a bidi control\)/);
      expect(about(warnings, "zero\\u200bwidth").reason).toMatch(/U\+200B \(an invisible format character\)/);
      expect(about(warnings, "bom\\ufeff").reason).toMatch(/U\+FEFF \(an invisible format character\)/);
      expect(about(warnings, "esc\\u001b[31m").reason).toMatch(/U\+001B \(a control character\)/);
      expect(about(warnings, "del\\u007f").reason).toMatch(/U\+007F \(a control character\)/);
      expect(about(warnings, "c1\\u009b").reason).toMatch(/U\+009B \(a control character\)/);
      expect(about(warnings, "line\\u000abreak").reason).toMatch(/U\+000A/);
      // the warnings cannot carry what they report
      for (const w of warnings) expect(`${w.message}${w.item}${w.reason}`).not.toMatch(UNSAFE);
    }
  });

  it("lists/name-over-max-length-left-out", async () => {
    for (const rev of REVISIONS) {
      const { names, warnings } = await listed(rev, "tools", {
        tools: [tool("x".repeat(102_400)), tool("y".repeat(256)), tool("😀".repeat(256)), OK],
      });
      // 256 characters is the default bound; an emoji is one character (two UTF-16 units)
      expect(names, rev).toEqual(["y".repeat(256), "😀".repeat(256), "ok"]);
      expect(warnings).toHaveLength(1);
      const w = warnings[0] as Warning;
      expect(w.reason).toBe("name is 102400 characters, over upstream.maxNameLength (256)");
      // the item is shown truncated: the warning is not 100 KB
      expect(w.item).toBe(`${"x".repeat(80)}…`);
      expect(w.message.length).toBeLessThan(300);
    }
    // the bound is the setting's
    const { names, warnings } = await listed(
      "2025-06-18",
      "prompts",
      { prompts: [{ name: "short" }, { name: "much-too-long" }] },
      8,
    );
    expect(names).toEqual(["short"]);
    expect(about(warnings, "much-too-long")).toMatchObject({
      list: "prompts",
      reason: "name is 13 characters, over upstream.maxNameLength (8)",
    });
  });

  it("lists/duplicate-names-keep-the-first", async () => {
    for (const rev of REVISIONS) {
      // pages of one: the duplicate comes on a later page than the first
      const { items, warnings } = await listed(rev, "tools", {
        tools: [tool("echo", { description: "first" }), OK, tool("echo", { description: "second" })],
        pageSize: 1,
      });
      expect(items.map((t) => [t.name, t.description])).toEqual([
        ["echo", "first"],
        ["ok", "fine"],
      ]);
      expect(warnings).toHaveLength(1);
      expect(about(warnings, "echo")).toMatchObject({
        upstream: "scripted",
        list: "tools",
        reason: "a tool with the same name came before it (the first is kept)",
      });
      const prompts = await listed(rev, "prompts", {
        prompts: [{ name: "p", description: "1" }, { name: "p" }],
      });
      expect(prompts.items).toEqual([{ name: "p", description: "1" }]);
      expect(about(prompts.warnings, "p").reason).toBe(
        "a prompt with the same name came before it (the first is kept)",
      );
      // resources are the same resource by URI, whatever their names
      const resources = await listed(rev, "resources", {
        resources: [
          { uri: "file:///a", name: "a" },
          { uri: "file:///b", name: "a" },
          { uri: "file:///a", name: "again" },
        ],
      });
      expect(resources.items.map((r) => r.uri)).toEqual(["file:///a", "file:///b"]);
      expect(about(resources.warnings, "file:///a").reason).toBe(
        "a resource with the same uri came before it (the first is kept)",
      );
      const templates = await listed(rev, "resourceTemplates", {
        resourceTemplates: [
          { uriTemplate: "note://{id}", name: "note" },
          { uriTemplate: "note://{id}", name: "other" },
        ],
      });
      expect(templates.items).toEqual([{ uriTemplate: "note://{id}", name: "note" }]);
      expect(about(templates.warnings, "note://{id}").reason).toBe(
        "a resource template with the same uriTemplate came before it (the first is kept)",
      );
    }
  });

  it("lists/invalid-prompt-resource-and-template-left-out", async () => {
    for (const rev of REVISIONS) {
      const prompts = await listed(rev, "prompts", {
        prompts: [
          { name: "greet", arguments: [{ name: "who" }] },
          { name: "bad-args", arguments: "who" },
          { name: "bad-arg", arguments: [{ required: true }] },
          { description: "no name" },
          { name: "rtl\u202e" },
        ],
      });
      expect(prompts.names, rev).toEqual(["greet"]);
      expect(about(prompts.warnings, "bad-args")).toMatchObject({
        list: "prompts",
        reason: `Prompt/arguments must be array (${rev} schema)`,
      });
      expect(about(prompts.warnings, "bad-arg").reason).toBe(
        `Prompt/arguments/0 must have required property 'name' (${rev} schema)`,
      );
      expect(about(prompts.warnings, "#3").reason).toBe(
        `Prompt must have required property 'name' (${rev} schema)`,
      );
      expect(about(prompts.warnings, "rtl\\u202e").reason).toBe(
        "name holds U+202E (a bidi control) at index 3",
      );

      const resources = await listed(rev, "resources", {
        resources: [
          { uri: "file:///ok.txt", name: "ok" },
          { name: "no-uri" },
          { uri: "file:///a\u0000.txt", name: "nul" },
          { uri: `file:///${"a".repeat(9000)}`, name: "long" },
          { uri: "file:///size", name: "size", size: "big" },
          { uri: "file:///noname" },
        ],
      });
      expect(
        resources.items.map((r) => r.uri),
        rev,
      ).toEqual(["file:///ok.txt"]);
      expect(about(resources.warnings, "no-uri").reason).toBe(
        `Resource must have required property 'uri' (${rev} schema)`,
      );
      expect(about(resources.warnings, "file:///a\\u0000.txt").reason).toBe(
        "uri holds U+0000 (a control character) at index 9",
      );
      expect(about(resources.warnings, `file:///${"a".repeat(72)}…`).reason).toBe(
        "uri is 9008 characters, over 8192",
      );
      expect(about(resources.warnings, "file:///size").reason).toBe(
        `Resource/size must be integer (${rev} schema)`,
      );
      expect(about(resources.warnings, "file:///noname").reason).toBe(
        `Resource must have required property 'name' (${rev} schema)`,
      );
      for (const w of resources.warnings)
        expect(w).toMatchObject({ upstream: "scripted", list: "resources" });

      const templates = await listed(rev, "resourceTemplates", {
        resourceTemplates: [
          { uriTemplate: "note://{id}", name: "note" },
          { name: "no-template" },
          { uriTemplate: 7, name: "number" },
          { uriTemplate: "x://{id}\u2066", name: "bidi" },
          { uriTemplate: "", name: "empty" },
        ],
      });
      expect(
        templates.items.map((t) => t.uriTemplate),
        rev,
      ).toEqual(["note://{id}"]);
      expect(about(templates.warnings, "no-template").reason).toBe(
        `ResourceTemplate must have required property 'uriTemplate' (${rev} schema)`,
      );
      expect(about(templates.warnings, "number").reason).toBe(
        `ResourceTemplate/uriTemplate must be string (${rev} schema)`,
      );
      expect(about(templates.warnings, "x://{id}\\u2066").reason).toBe(
        "uriTemplate holds U+2066 (a bidi control) at index 8",
      );
      expect(about(templates.warnings, "empty").reason).toBe("uriTemplate is empty");
      for (const w of templates.warnings) expect(w.list).toBe("resourceTemplates");
    }
  });

  it("lists/page-that-is-not-an-array-contributes-nothing", async () => {
    for (const rev of REVISIONS) {
      // page 1 fine, page 2 not an array, page 3 fine: the list keeps pages 1 and 3
      const { names, warnings } = await listed(rev, "tools", {
        handlers: {
          "tools/list": (req, ctx) => {
            const cursor = req.params?.cursor;
            if (cursor === undefined) return ctx.server.complete({ tools: [OK], nextCursor: "p2" }, true);
            if (cursor === "p2")
              return ctx.server.complete({ tools: { name: "not-a-list" }, nextCursor: "p3" }, true);
            return ctx.server.complete({ tools: [tool("last")] }, true);
          },
        },
      });
      expect(names, rev).toEqual(["ok", "last"]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({
        upstream: "scripted",
        list: "tools",
        reason: '"tools" is an object, not an array',
        message: 'tools/list page left out: "tools" is an object, not an array',
      });
      const prompts = await listed(rev, "prompts", {
        handlers: { "prompts/list": (_req, ctx) => ctx.server.complete({ prompts: "greet" }, true) },
      });
      expect(prompts.items).toEqual([]);
      expect(prompts.warnings[0]).toMatchObject({
        list: "prompts",
        reason: '"prompts" is a string, not an array',
      });
    }
  });
});

describe("hostile lists: what clients of mcpx see", () => {
  it("lists/one-upstream-cannot-poison-the-aggregate-for-the-sdk-client", async () => {
    const echo = tool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } } } });
    const malicious = [
      tool("fine"),
      { name: "no-schema" },
      tool(42),
      tool({ nested: "name" }),
      { inputSchema: { type: "object" } },
      tool("nul\u0000"),
      tool("evil\u202egnp.exe"),
      tool("zero\u200bwidth"),
      tool("x".repeat(102_400)),
      tool("fine", { description: "a second fine" }),
      tool("bad-schema", { inputSchema: { type: "array" } }),
      notAnObject("a string"),
    ];
    for (const [good, evil] of [
      ["2025-06-18", "2026-07-28"],
      ["2026-07-28", "2025-06-18"],
    ] as const) {
      const { url } = await httpGateway([
        { name: "good", versions: [good], tools: [echo, tool("add")] },
        { name: "evil", versions: [evil], tools: malicious },
      ]);
      const client = new Client({ name: "sdk-v1", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      afterThisTest(() => client.close());
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["good__echo", "good__add", "evil__fine"]);
      expect(tools[2]?.description).toBeUndefined();
    }
  });

  it("lists/same-named-resources-of-two-upstreams-both-listed", async () => {
    const { gateway } = await scriptedGateway([
      {
        name: "a",
        versions: ["2025-06-18"],
        resources: [{ uri: "file:///notes.md", name: "notes" }],
        resourceTemplates: [{ uriTemplate: "note://{id}", name: "note" }],
      },
      {
        name: "b",
        versions: ["2026-07-28"],
        resources: [{ uri: "file:///other.md", name: "notes" }],
        resourceTemplates: [{ uriTemplate: "memo://{id}", name: "note" }],
      },
      // namespacing off: the same URI from two upstreams is one resource, the first's
      {
        name: "c",
        namespacing: false,
        versions: ["2025-06-18"],
        resources: [{ uri: "x:///same", name: "c" }],
      },
      {
        name: "d",
        namespacing: false,
        versions: ["2025-11-25"],
        resources: [{ uri: "x:///same", name: "d" }],
      },
    ]);
    const resources = await gateway.catalog.list("resources");
    expect(resources.map((r) => [r.uri, r.name])).toEqual([
      ["mcpx://a/file:///notes.md", "notes"],
      ["mcpx://b/file:///other.md", "notes"],
      ["x:///same", "c"],
    ]);
    const templates = await gateway.catalog.list("resourceTemplates");
    expect(templates.map((t) => t.uriTemplate)).toEqual(["mcpx://a/note://{id}", "mcpx://b/memo://{id}"]);
  });
});

describe("hostile lists: the CLI", () => {
  const ANSI_DESCRIPTION = "\u001b[2J\u001b[31mDanger\u001b[0m zone\u202e \u001b]0;pwned\u0007ahead\u009b1m";

  async function hostileUpstream() {
    const server = new ScriptedServer({
      versions: ["2025-06-18"],
      // the client leaves the second out (a NUL in its name), for humans and --json alike
      tools: [tool("paint", { description: ANSI_DESCRIPTION }), tool("nul\u0000")],
      prompts: [{ name: "greet", description: "\u001b[1mbold\u001b[0m prompt" }],
      resources: [{ uri: "file:///r.txt", name: "r", description: "res\u001b]52;c;ZXZpbA==\u0007ource" }],
      handlers: {
        "tools/call": () => ({ content: [{ type: "text", text: "out\u001b[2Jput\u202e\tdone\nline two" }] }),
      },
    });
    const script = await stdioScript(server);
    afterThisTest(() => script.close());
    return configDir({ servers: { up: { command: script.command, args: script.args } } });
  }

  it("cli/upstream-text-stripped-of-control-characters-for-humans", async () => {
    const dir = await hostileUpstream();
    const tools = await mcpx(dir, "tools", "list");
    expect(tools.code).toBe(0);
    expect(tools.stdout).toContain("  up__paint  Danger zone ahead\n");
    const prompts = await mcpx(dir, "prompts", "list");
    expect(prompts.stdout).toBe("up__greet  bold prompt\n");
    const resources = await mcpx(dir, "resources", "list");
    expect(resources.stdout).toBe("mcpx://up/file:///r.txt  resource\n");
    const call = await mcpx(dir, "call", "up__paint");
    expect(call.stdout).toBe("output\tdone\nline two\n");
    for (const out of [tools, prompts, resources, call]) {
      expect(out.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    }
  });

  it("cli/upstream-text-kept-verbatim-in-json", async () => {
    const dir = await hostileUpstream();
    const tools = JSON.parse((await mcpx(dir, "tools", "list", "--json")).stdout) as {
      servers: { tools: { name: string; description: string }[] }[];
    };
    expect(tools.servers[0]?.tools).toEqual([
      { name: "up__paint", original: "paint", description: ANSI_DESCRIPTION },
    ]);
    const prompts = JSON.parse((await mcpx(dir, "prompts", "list", "--json")).stdout);
    expect(prompts.prompts[0].description).toBe("\u001b[1mbold\u001b[0m prompt");
    const resources = JSON.parse((await mcpx(dir, "resources", "list", "--json")).stdout);
    expect(resources.resources[0].description).toBe("res\u001b]52;c;ZXZpbA==\u0007ource");
    const call = JSON.parse((await mcpx(dir, "call", "up__paint", "--json")).stdout);
    expect(call.content[0].text).toBe("out\u001b[2Jput\u202e\tdone\nline two");
  });
});
