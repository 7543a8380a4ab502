/**
 * The skills extension (SEP-2640) in the strict check: its frames are checked against the extension's
 * schemas in a revision that has extensions (2026-07-28), and are not in a revision without them.
 */
import { describe, expect, it } from "vitest";
import { validatorFor } from "../src/index.js";

const meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const entry = {
  uri: "skill://pdf-processing/SKILL.md",
  frontmatter: { name: "pdf-processing", description: "PDFs" },
  resources: [{ uri: "skill://pdf-processing/SKILL.md", digest: `sha256:${"a".repeat(64)}`, size: 10 }],
};

describe("strict check of the skills extension", () => {
  it("skills/strict-check-knows-the-extension", () => {
    const v = validatorFor("2026-07-28");
    const list = { jsonrpc: "2.0", id: 1, method: "skills/list", params: { _meta: meta } };
    expect(v.clientMessage(list)).toMatchObject({ ok: true });
    const get = { jsonrpc: "2.0", id: 2, method: "skills/get", params: { _meta: meta, uri: entry.uri } };
    expect(v.clientMessage(get)).toMatchObject({ ok: true });
    // A skills/get without the uri it names breaks the schema.
    expect(v.clientMessage({ ...get, params: { _meta: meta } })).toMatchObject({ ok: false });
    const result = { resultType: "complete", ttlMs: 0, cacheScope: "private", skills: [entry] };
    expect(v.serverMessage({ jsonrpc: "2.0", id: 1, result }, { forMethod: "skills/list" })).toMatchObject({
      ok: true,
    });
    // A digest that is not sha256:<64 hex> breaks it too.
    const bad = {
      ...result,
      skills: [{ ...entry, resources: [{ ...entry.resources[0], digest: "md5:x" }] }],
    };
    expect(
      v.serverMessage({ jsonrpc: "2.0", id: 1, result: bad }, { forMethod: "skills/list" }),
    ).toMatchObject({
      ok: false,
    });
    // A revision without extensions has no skills methods.
    const legacy = validatorFor("2025-11-25").clientMessage({ jsonrpc: "2.0", id: 1, method: "skills/list" });
    expect(legacy).toMatchObject({ ok: false });
  });
});
