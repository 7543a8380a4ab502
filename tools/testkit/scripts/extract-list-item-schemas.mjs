#!/usr/bin/env node
/**
 * Cuts each revision's list-item schemas out of its schema.json: the definitions of Tool, Prompt,
 * Resource and ResourceTemplate and every definition they reference, nothing else (7–18 KB, where
 * the whole file is 100–180 KB), under the file's own `$schema` and definitions key
 * (`definitions` in the draft-07 revisions 2024-11-05…2025-06-18, `$defs` in the 2020-12 ones).
 * Writes plugins/revision-<rev>/schemas/list-items.json for every revision plugin in the repository,
 * which the plugin hands to mcpx's client.
 *
 *   node tools/testkit/scripts/extract-list-item-schemas.mjs          write every plugin's file
 *
 * The testkit test revisions/list-item-schemas-match-the-spec extracts again and compares, so a
 * committed file cannot drift from tools/testkit/schemas (byte-identical copies of the spec's).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const LIST_ITEMS = ["Tool", "Prompt", "Resource", "ResourceTemplate"];

const testkit = new URL("../", import.meta.url);
const repo = new URL("../../", testkit);

/** tools/testkit/schemas/<rev>.json */
export function specSchemaFile(revision) {
  return fileURLToPath(new URL(`schemas/${revision}.json`, testkit));
}

/** plugins/revision-<rev>/schemas/list-items.json */
export function pluginSchemaFile(revision) {
  return fileURLToPath(new URL(`plugins/revision-${revision}/schemas/list-items.json`, repo));
}

/** The list-item definitions of one schema.json and their closure, as a schema document. */
export function extractListItemSchemas(schema) {
  const key = schema.$defs ? "$defs" : "definitions";
  const defs = schema[key];
  const prefix = `#/${key}/`;
  const wanted = new Set();
  const queue = [...LIST_ITEMS];
  while (queue.length > 0) {
    const name = queue.shift();
    if (wanted.has(name)) continue;
    if (!Object.hasOwn(defs, name)) throw new Error(`${key}/${name} is not in the schema`);
    wanted.add(name);
    JSON.stringify(defs[name], (k, v) => {
      if (k === "$ref" && typeof v === "string") {
        if (!v.startsWith(prefix)) throw new Error(`${name}: $ref ${v} does not point at a ${key} entry`);
        queue.push(v.slice(prefix.length));
      }
      return v;
    });
  }
  // In the file's own order, so the output reads like (and diffs against) the spec.
  const picked = Object.fromEntries(
    Object.keys(defs)
      .filter((n) => wanted.has(n))
      .map((n) => [n, defs[n]]),
  );
  return { $schema: schema.$schema, [key]: picked };
}

/** The file's exact text for one revision. */
export function listItemSchemasText(revision) {
  const schema = JSON.parse(readFileSync(specSchemaFile(revision), "utf8"));
  return `${JSON.stringify(extractListItemSchemas(schema), null, 2)}\n`;
}

/** The revision of every plugins/revision-<rev> package, oldest first. */
export function pluginRevisions() {
  return readdirSync(new URL("plugins/", repo))
    .filter((dir) => dir.startsWith("revision-"))
    .map((dir) => dir.slice("revision-".length))
    .sort();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const revision of pluginRevisions()) {
    const file = pluginSchemaFile(revision);
    const text = listItemSchemasText(revision);
    writeFileSync(file, text);
    console.log(`${file}: ${text.length} bytes`);
  }
}
