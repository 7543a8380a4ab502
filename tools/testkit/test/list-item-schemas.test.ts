/**
 * Each revision plugin carries its revision's list-item schemas (Tool, Prompt, Resource,
 * ResourceTemplate and what they reference), cut from schema.json by
 * scripts/extract-list-item-schemas.mjs. Extracted again here, so a committed file cannot drift.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  LIST_ITEMS,
  listItemSchemasText,
  pluginRevisions,
  pluginSchemaFile,
  specSchemaFile,
} from "../scripts/extract-list-item-schemas.mjs";
import { REVISIONS } from "../src/index.js";

describe("list-item schemas", () => {
  it("revisions/list-item-schemas-match-the-spec", () => {
    // every revision plugin in the repository, and every one of them a revision the testkit knows
    expect(pluginRevisions()).toEqual([...REVISIONS]);
    for (const revision of pluginRevisions()) {
      const file = pluginSchemaFile(revision);
      expect(existsSync(file), `${file} (run node tools/testkit/scripts/extract-list-item-schemas.mjs)`).toBe(
        true,
      );
      expect(readFileSync(file, "utf8"), `${file} is not a fresh extraction`).toBe(
        listItemSchemasText(revision),
      );
      const spec = JSON.parse(readFileSync(specSchemaFile(revision), "utf8")) as Record<string, unknown>;
      const cut = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
      const key = "$defs" in spec ? "$defs" : "definitions";
      expect(cut.$schema).toBe(spec.$schema);
      const defs = cut[key] as Record<string, unknown>;
      const specDefs = spec[key] as Record<string, unknown>;
      for (const name of LIST_ITEMS) expect(defs[name], `${revision} ${name}`).toEqual(specDefs[name]);
      // only the closure: far smaller than the whole schema.json
      expect(Object.keys(defs).length).toBeLessThan(Object.keys(specDefs).length / 4);
      for (const [name, def] of Object.entries(defs))
        expect(def, `${revision} ${name}`).toEqual(specDefs[name]);
    }
  });
});
