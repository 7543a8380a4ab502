/**
 * A call's arguments from the command line: one JSON object and/or `key=value` words (positional, or
 * --arg key=value). A value is typed by the tool's input schema and nothing else: a `string`
 * property keeps "2" a string, `number`/`integer` parse, `boolean` is true or false, `array`/`object`
 * are JSON, `null` is null; a key the schema does not have stays a string. A value that fits none of
 * its property's types is a usage error naming the key and the types. Prompt arguments are strings
 * in every revision (PromptArgument; GetPromptRequest.params.arguments: { [key]: string }).
 */
import type { JSONObject } from "@mcpx/core";
import { UsageError } from "./errors.js";

export interface Inputs {
  json: JSONObject;
  pairs: [key: string, value: string, shown: string][];
}

/**
 * Splits the words: a JSON object (a word starting with "{"), or key=value. Done before anything
 * connects, so a typo in the command line fails at once.
 */
export function inputs(words: readonly string[], options: readonly string[]): Inputs {
  const json: JSONObject = {};
  const pairs: Inputs["pairs"] = [];
  for (const word of words) {
    if (word.trimStart().startsWith("{")) Object.assign(json, parseObject(word));
    else pairs.push(pair(word, word));
  }
  for (const option of options) pairs.push(pair(option, `--arg ${option}`));
  return { json, pairs };
}

function parseObject(text: string): JSONObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`arguments are not valid JSON: ${(err as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new UsageError("arguments must be a JSON object");
  }
  return parsed as JSONObject;
}

function pair(word: string, shown: string): [string, string, string] {
  const eq = word.indexOf("=");
  if (eq <= 0) {
    throw new UsageError(
      `${JSON.stringify(shown)} is not key=value`,
      "give key=value pairs, or one JSON object",
    );
  }
  return [word.slice(0, eq), word.slice(eq + 1), shown];
}

/** A tool's arguments, each key=value typed by `inputSchema`. */
export function toolArguments(given: Inputs, inputSchema: unknown): JSONObject {
  const json = { ...given.json };
  const props = asObject(asObject(inputSchema)?.properties);
  for (const [key, raw] of given.pairs) {
    const prop = props && Object.hasOwn(props, key) ? props[key] : undefined;
    json[key] = coerce(key, raw, allowedTypes(prop));
  }
  return json;
}

/** A prompt's arguments: every value a string, as the protocol has them. */
export function promptArguments(
  words: readonly string[],
  options: readonly string[],
): Record<string, string> {
  const { json, pairs } = inputs(words, options);
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(json)) {
    if (typeof value !== "string") {
      throw new UsageError(
        `prompt argument ${key} is ${value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`}: prompt arguments are strings`,
        `write it as ${key}=${JSON.stringify(value)} or "${key}": ${JSON.stringify(JSON.stringify(value))}`,
      );
    }
    out[key] = value;
  }
  for (const [key, value] of pairs) out[key] = value;
  return out;
}

/** The JSON types a property accepts: its `type`, the branches of anyOf/oneOf, its enum's or const's. */
function allowedTypes(prop: unknown): Set<string> {
  const out = new Set<string>();
  const s = asObject(prop);
  if (!s) return out;
  const types = Array.isArray(s.type) ? s.type : s.type === undefined ? [] : [s.type];
  for (const t of types) out.add(String(t));
  for (const branch of [...asArray(s.anyOf), ...asArray(s.oneOf)])
    for (const t of allowedTypes(branch)) out.add(t);
  for (const v of [...asArray(s.enum), ...("const" in s ? [s.const] : [])]) out.add(jsonType(v));
  return out;
}

/** In the order tried when a property accepts several: a string never needs parsing. */
const PARSERS: [type: string, parse: (raw: string) => unknown][] = [
  [
    "integer",
    (raw) => (/^-?\d+$/.test(raw.trim()) && Number.isSafeInteger(Number(raw)) ? Number(raw) : undefined),
  ],
  ["number", (raw) => (raw.trim() !== "" && Number.isFinite(Number(raw)) ? Number(raw) : undefined)],
  ["boolean", (raw) => (raw === "true" ? true : raw === "false" ? false : undefined)],
  ["null", (raw) => (raw === "null" ? null : undefined)],
  ["array", (raw) => jsonOf(raw, (v) => Array.isArray(v))],
  ["object", (raw) => jsonOf(raw, (v) => typeof v === "object" && v !== null && !Array.isArray(v))],
];

const EXPECTED: Record<string, string> = {
  integer: "an integer",
  number: "a number",
  boolean: "true or false",
  null: "null",
  array: "a JSON array",
  object: "a JSON object",
};

function coerce(key: string, raw: string, types: Set<string>): unknown {
  // Untyped (or a key the schema does not have), or a string among its types: as typed.
  if (types.size === 0 || types.has("string")) return raw;
  for (const [type, parse] of PARSERS) {
    if (!types.has(type)) continue;
    const value = parse(raw);
    if (value !== undefined) return value;
  }
  const expected = [...types].map((t) => EXPECTED[t] ?? t);
  throw new UsageError(
    `${key}=${raw}: ${key} must be ${expected.length > 1 ? `${expected.slice(0, -1).join(", ")} or ${expected.at(-1)}` : expected[0]}`,
    "mcpx tools show <tool> shows each parameter's type",
  );
}

function jsonOf(raw: string, fits: (v: unknown) => boolean): unknown {
  try {
    const v = JSON.parse(raw) as unknown;
    return fits(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function asObject(v: unknown): JSONObject | undefined {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as JSONObject) : undefined;
}

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
