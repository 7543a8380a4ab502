/**
 * An upstream's lists (tools, prompts, resources, resource templates) screened item by item before
 * anyone sees them. The official SDK's client checks a whole tools/list result against one schema, so
 * a single malformed tool would lose a strict client every upstream's tools; and a name with controls
 * or bidi characters is shown to a model and a person. Each item is checked against the negotiated
 * revision's own definition (not strictly: keys the schema does not forbid pass) and against mcpx's
 * rules on names and URIs; a second item with the same key is left out. Each item left out is
 * reported once, and the rest of the list is kept.
 */
import type { JSONObject, ListItemSchemas, Logger, Result, Revision, UpstreamSettings } from "@mcpx/core";
import type { Ajv, ValidateFunction } from "ajv";
import { loadAjv, loadAjv2020 } from "./lazy-ajv.js";

export type ListKey = "tools" | "prompts" | "resources" | "resourceTemplates";

interface ListRule {
  key: ListKey;
  /** What one item is called in a warning. */
  noun: string;
  /** Its definition in the revision's schema. */
  definition: string;
  /** The field that identifies it in the list: a second item with the same value is left out. */
  id: "name" | "uri" | "uriTemplate";
}

const RULES: Readonly<Record<string, ListRule>> = {
  "tools/list": { key: "tools", noun: "tool", definition: "Tool", id: "name" },
  "prompts/list": { key: "prompts", noun: "prompt", definition: "Prompt", id: "name" },
  "resources/list": { key: "resources", noun: "resource", definition: "Resource", id: "uri" },
  "resources/templates/list": {
    key: "resourceTemplates",
    noun: "resource template",
    definition: "ResourceTemplate",
    id: "uriTemplate",
  },
};

/**
 * The longest URI or URI template kept. RFC 9110 §4.1 asks every sender and recipient to support at
 * least 8000 octets; past that a URI is nothing a peer can be relied on to take.
 */
export const MAX_URI_LENGTH = 8192;

/** How much of an item's name or URI a warning shows. */
const SHOWN_LENGTH = 80;
/** How much of a reason a warning shows (an ajv instance path may quote the upstream's keys). */
const REASON_LENGTH = 240;

export interface LeftOut {
  list: ListKey;
  /** The item's name or URI, shown safely. */
  item: string;
  reason: string;
  /** "tool x left out: …" */
  message: string;
}

export interface ScreenContext {
  revision: () => Revision;
  settings: UpstreamSettings;
  log: Logger;
  leftOut: (w: LeftOut) => void;
}

/**
 * The items of one listing's pages, screened; undefined for a method that is not one of the four
 * lists. The returned function takes one page at a time and remembers the keys already kept, so a
 * duplicate is left out across pages too.
 */
export function listScreen(method: string, ctx: ScreenContext): ((page: Result) => JSONObject[]) | undefined {
  const rule = Object.hasOwn(RULES, method) ? RULES[method] : undefined;
  if (!rule) return undefined;
  const seen = new Set<string>();
  return (page) => {
    const items = page[rule.key];
    if (!Array.isArray(items)) {
      const reason = `"${rule.key}" is ${describeType(items)}, not an array`;
      ctx.leftOut({ list: rule.key, item: "", reason, message: `${method} page left out: ${reason}` });
      return [];
    }
    const kept: JSONObject[] = [];
    const revision = ctx.revision();
    const validate = itemValidator(revision, rule.definition, ctx.log);
    for (const [index, item] of items.entries()) {
      const reason =
        problem(rule, item, validate, revision.version, ctx.settings) ??
        duplicate(rule, item as JSONObject, seen);
      if (reason === undefined) {
        kept.push(item as JSONObject);
        continue;
      }
      const shown = showItem(rule, item, index);
      const safeReason = showText(reason, REASON_LENGTH);
      ctx.leftOut({
        list: rule.key,
        item: shown,
        reason: safeReason,
        message: `${rule.noun} ${shown} left out: ${safeReason}`,
      });
    }
    return kept;
  };
}

/** Why an item cannot be kept, or undefined. */
function problem(
  rule: ListRule,
  item: unknown,
  validate: ValidateFunction | undefined,
  version: string,
  settings: UpstreamSettings,
): string | undefined {
  if (typeof item !== "object" || item === null || Array.isArray(item)) {
    return `the item is ${describeType(item)}, not an object`;
  }
  if (validate && !validate(item)) {
    const first = validate.errors?.[0];
    // As ajv states it, with the instance path: "Tool/name must be string".
    if (first)
      return `${rule.definition}${first.instancePath} ${first.message ?? "is invalid"} (${version} schema)`;
  }
  const fields = item as JSONObject;
  const name = nameProblem(fields.name, settings.maxNameLength);
  if (name) return name;
  if (rule.id !== "name") return uriProblem(rule.id, fields[rule.id]);
  return undefined;
}

function duplicate(rule: ListRule, item: JSONObject, seen: Set<string>): string | undefined {
  const key = item[rule.id] as string;
  if (seen.has(key)) return `a ${rule.noun} with the same ${rule.id} came before it (the first is kept)`;
  seen.add(key);
  return undefined;
}

/** mcpx's rule for every name: a non-empty string, bounded, that shows as what it is. */
function nameProblem(name: unknown, max: number): string | undefined {
  if (typeof name !== "string") return `name is ${describeType(name)}, not a string`;
  if (name === "") return "name is empty";
  // name.length counts UTF-16 units, never fewer than the characters: count those only past the bound.
  if (name.length > max) {
    const chars = [...name].length;
    if (chars > max) return `name is ${chars} characters, over upstream.maxNameLength (${max})`;
  }
  return forbiddenProblem("name", name);
}

function uriProblem(field: string, uri: unknown): string | undefined {
  if (typeof uri !== "string") return `${field} is ${describeType(uri)}, not a string`;
  if (uri === "") return `${field} is empty`;
  if (uri.length > MAX_URI_LENGTH) return `${field} is ${uri.length} characters, over ${MAX_URI_LENGTH}`;
  // A URI has no such character at all (RFC 3986 §2), and an IRI no bidi formatting (RFC 3987 §4.1).
  return forbiddenProblem(field, uri);
}

function forbiddenProblem(field: string, text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const what = forbidden(text.charCodeAt(i));
    if (what) return `${field} holds ${codePoint(text.charCodeAt(i))} (${what}) at index ${i}`;
  }
  return undefined;
}

/**
 * What makes a character unfit for a name or URI: a C0 or C1 control (NUL included) or DEL; a bidi
 * control (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), which reorders what a person reads
 * (CVE-2021-42574, "Trojan Source"); an invisible format character (U+200B–U+200D, U+2060–U+2064,
 * U+FEFF), which makes two different names look the same.
 */
function forbidden(c: number): string | undefined {
  if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return "a control character";
  if (
    c === 0x061c ||
    c === 0x200e ||
    c === 0x200f ||
    (c >= 0x202a && c <= 0x202e) ||
    (c >= 0x2066 && c <= 0x2069)
  )
    return "a bidi control";
  if ((c >= 0x200b && c <= 0x200d) || (c >= 0x2060 && c <= 0x2064) || c === 0xfeff)
    return "an invisible format character";
  return undefined;
}

function codePoint(c: number): string {
  return `U+${c.toString(16).toUpperCase().padStart(4, "0")}`;
}

function describeType(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** The item as a warning names it: its URI (or URI template) or name, else its place in the page. */
function showItem(rule: ListRule, item: unknown, index: number): string {
  const fields =
    typeof item === "object" && item !== null && !Array.isArray(item) ? (item as JSONObject) : {};
  for (const key of [fields[rule.id], fields.name]) {
    if (typeof key === "string" && key !== "") return showText(key, SHOWN_LENGTH);
  }
  const name = fields.name;
  return name === undefined
    ? `#${index}`
    : `#${index} (name ${showText(String(JSON.stringify(name)), SHOWN_LENGTH)})`;
}

/**
 * Text from an upstream made fit for a warning, so the warning cannot carry what it reports: every
 * character `forbidden` names written as \u escapes, and at most `max` characters kept.
 */
export function showText(text: string, max: number): string {
  let out = "";
  let n = 0;
  for (const ch of text) {
    if (n === max) return `${out}…`;
    const c = ch.charCodeAt(0);
    out += ch.length === 1 && forbidden(c) ? `\\u${c.toString(16).padStart(4, "0")}` : ch;
    n++;
  }
  return out;
}

// Compiled on first use, once per revision and definition: a list is fetched once per list_changed,
// never per call, and most revisions are never spoken.
const compiled = new WeakMap<
  ListItemSchemas,
  { ajv: Ajv | undefined; fns: Map<string, ValidateFunction | undefined> }
>();
const SCHEMA_ID = "mcpx-list-items.json";

function itemValidator(revision: Revision, definition: string, log: Logger): ValidateFunction | undefined {
  const schemas = revision.listItemSchemas;
  if (!schemas) return undefined;
  let entry = compiled.get(schemas);
  if (!entry) {
    entry = { ajv: undefined, fns: new Map() };
    compiled.set(schemas, entry);
    try {
      // Formats are not checked: the SDK's client does not either, and what makes a URI unsafe to
      // show is mcpx's own rule. strict: false, as the spec's schemas carry keywords ajv does not know.
      // validateSchema: false, as checking them against the meta-schema first compiled the
      // meta-schema too (about half of this compile at 100 upstreams); a schema that is not one
      // still fails to compile below, and only mcpx's rules apply.
      const options = {
        strict: false,
        validateFormats: false,
        validateSchema: false,
        logger: false,
      } as const;
      const ajv = schemas.$schema.includes("2020-12")
        ? new (loadAjv2020())(options)
        : new (loadAjv().Ajv)(options);
      ajv.addSchema(schemas as unknown as object, SCHEMA_ID);
      entry.ajv = ajv;
    } catch (err) {
      schemaProblem(log, revision, err);
    }
  }
  if (!entry.ajv || entry.fns.has(definition)) return entry.fns.get(definition);
  let validate: ValidateFunction | undefined;
  try {
    validate = entry.ajv.getSchema(`${SCHEMA_ID}#/${schemas.$defs ? "$defs" : "definitions"}/${definition}`);
    if (!validate) log.warn(`revision ${revision.version}: its list-item schemas have no ${definition}`);
  } catch (err) {
    schemaProblem(log, revision, err);
  }
  entry.fns.set(definition, validate);
  return validate;
}

/** A revision plugin's schema mcpx cannot compile: its own rules still apply, and the list is kept. */
function schemaProblem(log: Logger, revision: Revision, err: unknown): void {
  log.warn(`revision ${revision.version}: its list-item schemas do not compile; only mcpx's rules apply`, {
    error: (err as Error).message,
  });
}
