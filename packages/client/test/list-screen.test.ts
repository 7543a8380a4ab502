/**
 * The list screen on its own: a revision written against apiVersion 1 without listItemSchemas still
 * gets mcpx's own rules; a revision's schema, when it has one, applies on top; other lists pass through.
 */
import { DEFAULT_UPSTREAM_SETTINGS, type ListItemSchemas, type Revision, silentLogger } from "@mcpx/core";
import { describe, expect, it } from "vitest";
import { type LeftOut, listScreen } from "../src/list-screen.js";

function screen(revision: Revision) {
  const left: LeftOut[] = [];
  const take = listScreen("tools/list", {
    revision: () => revision,
    settings: DEFAULT_UPSTREAM_SETTINGS,
    log: silentLogger,
    leftOut: (w) => left.push(w),
  });
  if (!take) throw new Error("tools/list is screened");
  return { take, left };
}

/** A revision that is only what the screen reads of it. */
const bare = { version: "2099-01-01" } as Revision;
const schemas: ListItemSchemas = {
  $schema: "http://json-schema.org/draft-07/schema#",
  definitions: {
    Tool: {
      type: "object",
      properties: { name: { type: "string" }, inputSchema: { type: "object" } },
      required: ["name", "inputSchema"],
    },
  },
};
const withSchemas = { ...bare, listItemSchemas: schemas } as Revision;

const page = {
  tools: [{ name: "no-schema" }, { name: "nul\u0000" }, { name: "ok", inputSchema: { type: "object" } }],
};

describe("list screen", () => {
  it("lists/revision-without-schemas-gets-mcpx-rules-only", () => {
    const { take, left } = screen(bare);
    // no schema: a tool without inputSchema passes; the name rule still applies
    expect(take(structuredClone(page)).map((t) => t.name)).toEqual(["no-schema", "ok"]);
    expect(left.map((w) => [w.item, w.reason])).toEqual([
      ["nul\\u0000", "name holds U+0000 (a control character) at index 3"],
    ]);
  });

  it("lists/revision-schema-applies-and-other-methods-pass-through", () => {
    const { take, left } = screen(withSchemas);
    expect(take(structuredClone(page)).map((t) => t.name)).toEqual(["ok"]);
    expect(left.map((w) => [w.item, w.reason])).toEqual([
      ["no-schema", "Tool must have required property 'inputSchema' (2099-01-01 schema)"],
      // the schema's error comes first; mcpx's rules apply to what the schema lets through
      ["nul\\u0000", "Tool must have required property 'inputSchema' (2099-01-01 schema)"],
    ]);
    expect(
      listScreen("roots/list", {
        revision: () => withSchemas,
        settings: DEFAULT_UPSTREAM_SETTINGS,
        log: silentLogger,
        leftOut: () => {},
      }),
    ).toBeUndefined();
  });

  it("lists/revision-schema-that-does-not-compile-leaves-mcpx-rules", () => {
    const warned: string[] = [];
    const broken = {
      ...bare,
      version: "2099-02-02",
      listItemSchemas: {
        $schema: "http://json-schema.org/draft-07/schema#",
        definitions: { Tool: { type: "object", properties: { name: { $ref: "#/definitions/Nowhere" } } } },
      },
    } as Revision;
    const left: LeftOut[] = [];
    const take = listScreen("tools/list", {
      revision: () => broken,
      settings: DEFAULT_UPSTREAM_SETTINGS,
      log: { ...silentLogger, warn: (m: string) => warned.push(m) },
      leftOut: (w) => left.push(w),
    });
    // the schema is not applied (a tool without inputSchema passes), mcpx's own rules are, and it is said
    expect(take?.(structuredClone(page)).map((t) => t.name)).toEqual(["no-schema", "ok"]);
    expect(left.map((w) => w.item)).toEqual(["nul\\u0000"]);
    expect(warned.some((m) => m.includes("2099-02-02"))).toBe(true);
  });
});
