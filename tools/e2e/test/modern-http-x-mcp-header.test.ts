/**
 * x-mcp-header (2026-07-28, Streamable HTTP): validation at tools/list (an invalid tool is left out and
 * a server.warning names it and the reason), mirroring at tools/call into Mcp-Param-{Name}, the calls
 * refused before sending, list-before-call and the -32020 relist. Against scripted modern servers that
 * check every frame strictly and every mirrored header (a disagreement is a failure and a 400 -32020).
 * And the other side: over stdio and on legacy revisions annotations are ignored.
 */
import { HeaderMismatchError, type LifecycleEvent, ParamHeaderError } from "@mcpx/core";
import type { HttpRecord, HttpScript, ScriptedServer } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { httpCase, label, requirement, sseCase, stdioCase } from "../src/index.js";
import { allPosts, M, methodOf } from "./modern-http.helpers.js";

type Schema = Record<string, unknown>;
const tool = (name: string, inputSchema: Schema) => ({ name, inputSchema });
const obj = (properties: Schema, extra: Schema = {}) => ({ type: "object", properties, ...extra });
const OK = tool("ok", obj({ text: { type: "string" } }));

function warnings(events: LifecycleEvent[]) {
  return events.filter(
    (e): e is Extract<LifecycleEvent, { type: "server.warning" }> => e.type === "server.warning",
  );
}

/** The names mcpx lists, and the server.warning of each tool it left out (by name). */
async function screened(tools: ReturnType<typeof tool>[]) {
  const c = await httpCase({ versions: M, tools });
  const client = await c.connect();
  const listed = (await client.listTools()).map((t) => t.name);
  const reasons = Object.fromEntries(warnings(c.host.events).map((w) => [w.tool, w.reason ?? ""]));
  expect(c.server.failures).toEqual([]);
  return { c, client, listed, reasons };
}

function paramHeaders(r: HttpRecord | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(r?.headers ?? {}).filter(([k]) => k.startsWith("mcp-param-")));
}

const calls = (script: HttpScript) => allPosts(script).filter((r) => methodOf(r) === "tools/call");

describe("x-mcp-header: validation at tools/list (modern HTTP)", () => {
  requirement(["2026-07-28/x-mcp-header/token"], async () => {
    const TCHARS = "Tenant_ID.v2-x~!#$%&'*+^`|";
    const { client, c, listed, reasons } = await screened([
      OK,
      tool("empty", obj({ a: { type: "string", "x-mcp-header": "" } })),
      tool("space", obj({ a: { type: "string", "x-mcp-header": "Bad Name" } })),
      tool("colon", obj({ a: { type: "string", "x-mcp-header": "a:b" } })),
      tool("slash", obj({ a: { type: "string", "x-mcp-header": "a/b" } })),
      tool("quote", obj({ a: { type: "string", "x-mcp-header": 'a"b' } })),
      tool("non-ascii", obj({ a: { type: "string", "x-mcp-header": "Région" } })),
      tool("not-a-string", obj({ a: { type: "string", "x-mcp-header": 42 } })),
      tool("every-tchar", obj({ a: { type: "string", "x-mcp-header": TCHARS } })),
    ]);
    expect(listed).toEqual(["ok", "every-tchar"]);
    expect(Object.keys(reasons).sort()).toEqual(
      ["colon", "empty", "non-ascii", "not-a-string", "quote", "slash", "space"].sort(),
    );
    expect(reasons.empty).toMatch(/non-empty/);
    for (const t of ["space", "colon", "slash", "quote", "non-ascii"]) {
      expect(reasons[t], t).toMatch(/not an RFC 9110 token/);
    }
    // the valid token, every tchar of it, names the header
    await client.callTool("every-tchar", { a: "v" });
    expect(paramHeaders(calls(c.script)[0])).toEqual({ [`mcp-param-${TCHARS.toLowerCase()}`]: "v" });
    expect(c.server.failures).toEqual([]);
  });

  requirement(["2026-07-28/x-mcp-header/unique"], async () => {
    const { listed, reasons } = await screened([
      tool(
        "case",
        obj({
          a: { type: "string", "x-mcp-header": "Region" },
          b: { type: "string", "x-mcp-header": "region" },
        }),
      ),
      tool(
        "nested",
        obj({
          a: { type: "string", "x-mcp-header": "Zone" },
          n: obj({ b: { type: "string", "x-mcp-header": "ZONE" } }),
        }),
      ),
      tool(
        "distinct",
        obj({
          a: { type: "string", "x-mcp-header": "Region" },
          b: { type: "string", "x-mcp-header": "Region2" },
        }),
      ),
      // unique within a tool: another tool may use the same name
      tool("same-as-other-tool", obj({ a: { type: "string", "x-mcp-header": "Region" } })),
    ]);
    expect(listed).toEqual(["distinct", "same-as-other-tool"]);
    expect(reasons.case).toMatch(/"region" repeats "Region"/);
    expect(reasons.nested).toMatch(/"ZONE" repeats "Zone"/);
  });

  requirement(["2026-07-28/x-mcp-header/primitive-type"], async () => {
    const on = (type: unknown) =>
      obj({ a: type === undefined ? { "x-mcp-header": "A" } : { type, "x-mcp-header": "A" } });
    const { listed, reasons } = await screened([
      tool("string", on("string")),
      tool("integer", on("integer")),
      tool("boolean", on("boolean")),
      tool("number", on("number")),
      tool("object", on("object")),
      tool("array", on("array")),
      tool("null", on("null")),
      tool("untyped", on(undefined)),
    ]);
    expect(listed).toEqual(["string", "integer", "boolean"]);
    expect(Object.keys(reasons).sort()).toEqual(["array", "null", "number", "object", "untyped"]);
    expect(reasons.number).toMatch(/on type "number"; only integer, string or boolean may be mirrored/);
  });

  requirement(["2026-07-28/x-mcp-header/properties-only"], async () => {
    const H = { type: "string", "x-mcp-header": "H" };
    const { listed, reasons } = await screened([
      tool("items", obj({ list: { type: "array", items: H } })),
      tool("anyOf", obj({ a: { anyOf: [H, { type: "integer" }] } })),
      tool("oneOf", obj({ a: { oneOf: [H] } })),
      tool("allOf", obj({ a: { allOf: [H] } })),
      tool("not", obj({ a: { type: "string", not: H } })),
      tool("defs", obj({ a: { $ref: "#/$defs/h" } }, { $defs: { h: H } })),
      tool("definitions", obj({ a: { $ref: "#/definitions/h" } }, { definitions: { h: H } })),
      // biome-ignore lint/suspicious/noThenProperty: a JSON Schema "then", not a thenable
      tool("if-then", obj({ a: { type: "string", if: { minLength: 1 }, then: H } })),
      tool("additionalProperties", obj({}, { additionalProperties: H })),
      tool("patternProperties", obj({}, { patternProperties: { "^x": H } })),
      tool("root", { type: "object", "x-mcp-header": "H", properties: { a: { type: "string" } } }),
      // through properties alone, however deep: valid
      tool("deep", obj({ a: obj({ b: obj({ c: H }) }) })),
    ]);
    expect(listed).toEqual(["deep"]);
    expect(Object.keys(reasons).sort()).toEqual(
      [
        "items",
        "anyOf",
        "oneOf",
        "allOf",
        "not",
        "defs",
        "definitions",
        "if-then",
        "additionalProperties",
        "patternProperties",
        "root",
      ].sort(),
    );
    for (const [t, reason] of Object.entries(reasons)) {
      expect(reason, t).toMatch(/is not on a property reachable through "properties" alone/);
    }
    expect(reasons.root).toMatch(/at the schema root/);
    expect(reasons.items).toMatch(/at \/properties\/list\/items/);
    expect(reasons.defs).toMatch(/at \/\$defs\/h/);
  });

  requirement(["2026-07-28/x-mcp-header/invalid-tool-excluded"], async () => {
    const bad = tool("bad", obj({ n: { type: "number", "x-mcp-header": "N" } }));
    const { c, client, listed } = await screened([OK, bad]);
    expect(listed).toEqual(["ok"]);
    // the server listed both: mcpx left it out of what it returns
    expect(c.server.options.tools?.map((t) => t.name)).toEqual(["ok", "bad"]);
    const ws = warnings(c.host.events);
    expect(ws).toHaveLength(1);
    expect(ws[0]).toMatchObject({ type: "server.warning", upstream: "scripted", tool: "bad" });
    expect(ws[0]?.reason).toMatch(/x-mcp-header "N" at \/properties\/n is on type "number"/);
    expect(ws[0]?.message).toMatch(/^tool bad left out: /);
    expect(ws[0]?.message).toContain(ws[0]?.reason);
    // a call to it is refused before sending: mcpx cannot build its headers
    const err = await client.callTool("bad", { n: 1.5 }).catch((e) => e);
    expect(err).toBeInstanceOf(ParamHeaderError);
    expect(err.message).toMatch(/tool bad was left out at tools\/list/);
    expect(calls(c.script)).toEqual([]);
    expect(c.server.failures).toEqual([]);
  });
});

const MIRRORED = tool(
  "deploy",
  obj({
    region: { type: "string", "x-mcp-header": "Region" },
    count: { type: "integer", "x-mcp-header": "Count" },
    dry: { type: "boolean", "x-mcp-header": "Dry-Run" },
    target: obj({ cluster: obj({ name: { type: "string", "x-mcp-header": "Cluster" } }) }),
    note: { type: "string" },
  }),
);

async function mirrorCase() {
  const c = await httpCase({ versions: M, tools: [MIRRORED, OK] });
  const client = await c.connect();
  await client.listTools();
  const call = async (args: Record<string, unknown>) => {
    const before = calls(c.script).length;
    await client.callTool("deploy", args);
    const sent = calls(c.script);
    expect(sent).toHaveLength(before + 1);
    return paramHeaders(sent.at(-1));
  };
  return { c, client, call };
}

describe("x-mcp-header: mirroring at tools/call (modern HTTP)", () => {
  requirement(["2026-07-28/x-mcp-header/mirror"], async () => {
    const { c, client, call } = await mirrorCase();
    expect(
      await call({
        region: "eu-west1",
        count: 42,
        dry: true,
        target: { cluster: { name: "blue" } },
        note: "n",
      }),
    ).toEqual({
      "mcp-param-region": "eu-west1",
      "mcp-param-count": "42",
      "mcp-param-dry-run": "true",
      "mcp-param-cluster": "blue",
    });
    expect(
      await call({ region: "us", count: -7, dry: false, target: { cluster: { name: "green" } } }),
    ).toEqual({
      "mcp-param-region": "us",
      "mcp-param-count": "-7",
      "mcp-param-dry-run": "false",
      "mcp-param-cluster": "green",
    });
    // the value at the exact path: a same-named key elsewhere is not it
    expect(await call({ name: "top-level", target: { name: "one-up", cluster: {} } })).toEqual({});
    // a tool without annotations gets none
    await client.callTool("ok", { text: "x" });
    expect(paramHeaders(calls(c.script).at(-1))).toEqual({});
    expect(calls(c.script).at(-1)?.headers["mcp-name"]).toBe("ok");
    expect(c.server.failures).toEqual([]);
  });

  requirement(["2026-07-28/x-mcp-header/absent-or-null"], async () => {
    const { c, call } = await mirrorCase();
    expect(await call({})).toEqual({});
    expect(await call({ region: null, count: null, dry: null, target: { cluster: { name: null } } })).toEqual(
      {},
    );
    expect(await call({ target: null })).toEqual({});
    expect(await call({ target: { cluster: null } })).toEqual({});
    expect(await call({ region: "eu", target: { cluster: {} } })).toEqual({ "mcp-param-region": "eu" });
    expect(c.server.failures).toEqual([]);
  });

  requirement(["2026-07-28/x-mcp-header/empty-string"], async () => {
    const { c, call } = await mirrorCase();
    // the value was provided: an empty header, not none
    const sent = await call({ region: "", target: { cluster: { name: "" } } });
    expect(sent).toEqual({ "mcp-param-region": "", "mcp-param-cluster": "" });
    expect(c.server.failures).toEqual([]);
  });

  requirement(["2026-07-28/x-mcp-header/integer-range"], async () => {
    const { c, client, call } = await mirrorCase();
    const max = Number.MAX_SAFE_INTEGER; // 2^53 − 1
    expect(await call({ count: max })).toEqual({ "mcp-param-count": "9007199254740991" });
    expect(await call({ count: -max })).toEqual({ "mcp-param-count": "-9007199254740991" });
    expect(await call({ count: 0, dry: true })).toEqual({
      "mcp-param-count": "0",
      "mcp-param-dry-run": "true",
    });
    expect(await call({ dry: false })).toEqual({ "mcp-param-dry-run": "false" });
    const sentBefore = calls(c.script).length;
    // refused before sending: nothing reaches the server
    for (const args of [
      { count: 2 ** 53 },
      { count: -(2 ** 53) },
      { count: 1e300 },
      { count: 1.5 },
      { count: "42" },
      { dry: "true" },
      { dry: 1 },
      { region: 7 },
    ]) {
      const err = await client.callTool("deploy", args).catch((e) => e);
      expect(err, JSON.stringify(args)).toBeInstanceOf(ParamHeaderError);
    }
    const err = await client.callTool("deploy", { count: 2 ** 53 }).catch((e) => e);
    expect(err.message).toMatch(/outside ±\(2\^53−1\): 9007199254740992/);
    expect((await client.callTool("deploy", { count: 1.5 }).catch((e) => e)).message).toMatch(
      /must be an integer/,
    );
    expect(calls(c.script)).toHaveLength(sentBefore);
    expect(c.server.failures).toEqual([]);
  });

  requirement(["2026-07-28/x-mcp-header/list-before-call"], async () => {
    // the annotated tool is on the second page: the list before the call reads every page
    const c = await httpCase({ versions: M, tools: [OK, MIRRORED], pageSize: 1 });
    const client = await c.connect();
    await client.callTool("deploy", { region: "eu" });
    await client.callTool("deploy", { region: "us", count: 1 });
    await client.callTool("ok", { text: "t" });
    const posts = allPosts(c.script).map(
      (r) => `${methodOf(r)} ${JSON.stringify(r.frames[0]?.params?.cursor ?? null)}`,
    );
    expect(posts).toEqual([
      "server/discover null",
      "tools/list null",
      'tools/list "c1"',
      "tools/call null",
      "tools/call null",
      "tools/call null",
    ]);
    expect(paramHeaders(calls(c.script)[0])).toEqual({ "mcp-param-region": "eu" });
    expect(paramHeaders(calls(c.script)[1])).toEqual({ "mcp-param-region": "us", "mcp-param-count": "1" });
    expect(c.server.failures).toEqual([]);

    // concurrent first calls share one list
    const c2 = await httpCase({ versions: M, tools: [OK, MIRRORED] });
    const client2 = await c2.connect();
    await Promise.all([
      client2.callTool("deploy", { region: "a" }),
      client2.callTool("deploy", { region: "b" }),
      client2.callTool("ok", {}),
    ]);
    expect(allPosts(c2.script).filter((r) => methodOf(r) === "tools/list")).toHaveLength(1);
    expect(
      calls(c2.script)
        .map((r) => paramHeaders(r)["mcp-param-region"])
        .sort(),
    ).toEqual(["a", "b", undefined].sort());
    expect(c2.server.failures).toEqual([]);
  });
});

/** The mirror check's 400 -32020 answers, as the server recorded them (the failures this test provokes). */
function headerMismatches(server: ScriptedServer): string[] {
  return server.failures.filter((f) => f.startsWith("tools/call: "));
}

/**
 * The server's schema changes after mcpx listed it (the annotation moves from region to zone): the
 * first call carries headers for the old schema and gets -32020; mcpx lists again and retries once.
 */
async function schemaChanged(opts: { cachedList: boolean }) {
  const before = tool(
    "deploy",
    obj({ region: { type: "string", "x-mcp-header": "Region" }, zone: { type: "string" } }),
  );
  const after = tool(
    "deploy",
    obj({ region: { type: "string" }, zone: { type: "string", "x-mcp-header": "Zone" } }),
  );
  const c = await httpCase({
    versions: M,
    tools: [before],
    expectInvalidFrames: "the first call's headers, for the old schema, are checked against the new one",
  });
  if (opts.cachedList) {
    c.server.on("tools/list", (_req, ctx) => ({
      resultType: "complete",
      tools: ctx.server.options.tools ?? [],
      ttlMs: 60_000,
      cacheScope: "public",
    }));
  }
  const client = await c.connect();
  await client.listTools();
  c.server.options.tools = [after];
  const result = await client.callTool("deploy", { region: "eu", zone: "b" });
  expect(result.content).toEqual([{ type: "text", text: JSON.stringify({ region: "eu", zone: "b" }) }]);
  expect(allPosts(c.script).map((r) => `${label(r)} ${r.status}`)).toEqual([
    "POST server/discover 200",
    "POST tools/list 200",
    "POST tools/call 400", // the server's -32020: headers for the old schema
    "POST tools/list 200",
    "POST tools/call 200",
  ]);
  expect(paramHeaders(calls(c.script)[0])).toEqual({ "mcp-param-region": "eu" });
  expect(paramHeaders(calls(c.script)[1])).toEqual({ "mcp-param-zone": "b" });
  // the only failures are the ones provoked: the first call's headers checked against the new schema
  expect(headerMismatches(c.server).length).toBeGreaterThan(0);
  expect(c.server.failures).toEqual(headerMismatches(c.server));
  for (const f of c.server.failures) expect(f).toMatch(/Mcp-Param-Zone missing|mcp-param-region names no/);
}

describe("x-mcp-header: -32020 on a call (modern HTTP)", () => {
  requirement(["2026-07-28/x-mcp-header/mismatch-relist"], async () => {
    await schemaChanged({ cachedList: false });

    // a server that answers -32020 whatever the client does: one relist, one retry, then the error
    const c = await httpCase({ versions: M, tools: [MIRRORED] });
    c.server.on("tools/call", () => ({ error: { code: -32020, message: "Header mismatch: always" } }));
    const client = await c.connect();
    const err = await client.callTool("deploy", { region: "eu" }).catch((e) => e);
    expect(err).toBeInstanceOf(HeaderMismatchError);
    expect(err.code).toBe(-32020);
    expect(allPosts(c.script).map(methodOf)).toEqual([
      "server/discover",
      "tools/list",
      "tools/call",
      "tools/list",
      "tools/call",
    ]);
    expect(c.server.failures).toEqual([]);
  });

  it("x-mcp-header/mismatch-relist-bypasses-cache", async () => {
    // the list was cached for a minute: the relist must still reach the server
    await schemaChanged({ cachedList: true });
  });
});

/** A tool whose annotation is invalid (on a number) and one whose annotation is valid. */
const IGNORED_TOOLS = [
  tool("invalid", obj({ n: { type: "number", "x-mcp-header": "N" } })),
  tool("annotated", obj({ region: { type: "string", "x-mcp-header": "Region" } })),
];

describe("x-mcp-header: ignored over stdio and on legacy revisions", () => {
  requirement(
    [
      "2026-07-28/x-mcp-header/modern-http-only",
      "2024-11-05/x-mcp-header/modern-http-only",
      "2025-03-26/x-mcp-header/modern-http-only",
      "2025-06-18/x-mcp-header/modern-http-only",
      "2025-11-25/x-mcp-header/modern-http-only",
    ],
    async (rev) => {
      // over stdio, modern or legacy: the invalid tool is kept, no warning
      const stdio = await stdioCase({ versions: [rev], tools: IGNORED_TOOLS });
      const viaStdio = await stdio.connect({ revision: rev });
      expect((await viaStdio.listTools()).map((t) => t.name)).toEqual(["invalid", "annotated"]);
      await viaStdio.callTool("invalid", { n: 1.5 });
      await viaStdio.callTool("annotated", { region: "eu" });
      expect(stdio.server.frames("tools/call")).toHaveLength(2);
      expect(warnings(stdio.host.events)).toEqual([]);
      expect(stdio.server.failures).toEqual([]);
      if (rev === "2026-07-28") return;

      // legacy over HTTP (Streamable HTTP, or HTTP+SSE for 2024-11-05): kept, and no Mcp-Param-* ever
      const http =
        rev === "2024-11-05"
          ? await sseCase({ versions: [rev], tools: IGNORED_TOOLS })
          : await httpCase({ versions: [rev], tools: IGNORED_TOOLS });
      // a fresh connection that calls first does not list first either: nothing to mirror
      const client = await http.connect({ revision: rev });
      await client.callTool("annotated", { region: "eu" });
      expect(http.server.frames("tools/list")).toEqual([]);
      expect((await client.listTools()).map((t) => t.name)).toEqual(["invalid", "annotated"]);
      await client.callTool("invalid", { n: 1.5 });
      await client.callTool("annotated", { region: "us" });
      expect(http.server.frames("tools/call")).toHaveLength(3);
      expect(http.script.requests.length).toBeGreaterThan(3);
      for (const r of http.script.requests) {
        expect(
          Object.keys(r.headers).filter((h) => h.startsWith("mcp-param-")),
          label(r),
        ).toEqual([]);
      }
      expect(warnings(http.host.events)).toEqual([]);
      expect(http.server.failures).toEqual([]);
    },
  );
});
