/**
 * A tool's JSON Schemas read as a signature, the way a person scans a function:
 * `fs__read_file(path: string, encoding?: "utf8" | "base64" = "utf8") -> text`. Optional parameters
 * carry "?", defaults "= value", enums and consts their values, arrays "[]", objects their keys (two
 * levels deep, then "object"), unions " | ". Without an output schema a tool returns content blocks,
 * text for most, so the signature says "-> text".
 */
import type { JSONObject } from "@mcpx/core";

const MAX_DEPTH = 2;

export interface Parameter {
  name: string;
  type: string;
  required: boolean;
  default?: unknown;
  description?: string;
}

/** Each property of an object schema, in the schema's order. */
export function parameters(schema: unknown): Parameter[] {
  const s = asObject(schema);
  const props = asObject(s?.properties);
  if (!props) return [];
  const required = new Set(Array.isArray(s?.required) ? s.required.map(String) : []);
  return Object.entries(props).map(([name, raw]) => {
    const p = asObject(raw) ?? {};
    const out: Parameter = { name, type: typeText(p, 1), required: required.has(name) };
    if ("default" in p) out.default = p.default;
    if (typeof p.description === "string") out.description = p.description;
    return out;
  });
}

export function signature(tool: JSONObject): string {
  const params = parameters(tool.inputSchema).map(
    (p) =>
      `${p.name}${p.required ? "" : "?"}: ${p.type}${"default" in p ? ` = ${JSON.stringify(p.default)}` : ""}`,
  );
  const output = asObject(tool.outputSchema) ? typeText(tool.outputSchema, 0) : "text";
  return `${String(tool.name)}(${params.join(", ")}) -> ${output}`;
}

/** A schema as a type: `string`, `"a" | "b"`, `number[]`, `{ path: string, depth?: integer }`. */
export function typeText(schema: unknown, depth = 0): string {
  if (schema === true || schema === undefined) return "any";
  if (schema === false) return "never";
  const s = asObject(schema);
  if (!s) return "any";
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  if ("const" in s) return JSON.stringify(s.const);
  const union = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
  if (union) return [...new Set(union.map((b) => typeText(b, depth)))].join(" | ");
  if (typeof s.$ref === "string") return s.$ref.split("/").at(-1) ?? "any";
  const types = Array.isArray(s.type) ? s.type.map(String) : typeof s.type === "string" ? [s.type] : [];
  if (types.length === 0) return asObject(s.properties) ? objectText(s, depth) : "any";
  return types.map((t) => single(t, s, depth)).join(" | ");
}

function single(type: string, s: JSONObject, depth: number): string {
  if (type === "array") {
    const item = typeText(s.items, depth + 1);
    return item.includes(" ") && !item.startsWith("{") ? `(${item})[]` : `${item}[]`;
  }
  if (type === "object") return objectText(s, depth);
  return type;
}

function objectText(s: JSONObject, depth: number): string {
  const props = parameters(s);
  if (props.length === 0 || depth >= MAX_DEPTH) return "object";
  const nested = props.map((p) => {
    const prop = asObject(asObject(s.properties)?.[p.name]);
    return `${p.name}${p.required ? "" : "?"}: ${typeText(prop, depth + 1)}`;
  });
  return `{ ${nested.join(", ")} }`;
}

function asObject(v: unknown): JSONObject | undefined {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as JSONObject) : undefined;
}
