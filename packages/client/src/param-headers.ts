/**
 * x-mcp-header (2026-07-28, modern HTTP only): a tool parameter annotated `"x-mcp-header": "Name"`
 * is mirrored into the header Mcp-Param-Name. At tools/list every annotation is checked over the
 * whole schema; a tool with an invalid one is left out. At tools/call the value at the annotated
 * path becomes the header, or the call is refused before sending if it cannot be one.
 */
import { encodeHeaderValue, type JSONObject, ParamHeaderError } from "@mcpx/core";

export interface ParamHeader {
  /** The header name after Mcp-Param-. */
  name: string;
  /** The chain of `properties` keys from the root to the annotated property. */
  path: string[];
  type: "string" | "integer" | "boolean";
}

export type ToolHeaders = { ok: true; headers: ParamHeader[] } | { ok: false; reason: string };

/** RFC 9110 field-name token: 1*tchar. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Walks the whole input schema; every annotation must sit on a property reachable through `properties` alone. */
export function toolHeaders(inputSchema: unknown): ToolHeaders {
  const headers: ParamHeader[] = [];
  const problems: string[] = [];
  walk(inputSchema, [], true, headers, problems);
  const seen = new Map<string, string>();
  for (const h of headers) {
    const lower = h.name.toLowerCase();
    const prior = seen.get(lower);
    if (prior !== undefined)
      problems.push(`x-mcp-header "${h.name}" repeats "${prior}" (names are case-insensitive)`);
    else seen.set(lower, h.name);
  }
  return problems.length > 0 ? { ok: false, reason: problems.join("; ") } : { ok: true, headers };
}

function walk(
  node: unknown,
  path: string[],
  reachable: boolean,
  out: ParamHeader[],
  problems: string[],
): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => {
      walk(item, [...path, String(i)], false, out, problems);
    });
    return;
  }
  if (typeof node !== "object" || node === null) return;
  const schema = node as JSONObject;
  const where = path.length === 0 ? "the schema root" : `/${path.join("/")}`;
  if ("x-mcp-header" in schema) {
    const name = schema["x-mcp-header"];
    if (!reachable || path.length === 0) {
      problems.push(`x-mcp-header at ${where} is not on a property reachable through "properties" alone`);
    } else if (typeof name !== "string" || name === "") {
      problems.push(`x-mcp-header at ${where} must be a non-empty string`);
    } else if (!TOKEN.test(name)) {
      problems.push(`x-mcp-header ${JSON.stringify(name)} at ${where} is not an RFC 9110 token`);
    } else {
      const type = schema.type;
      if (type !== "string" && type !== "integer" && type !== "boolean") {
        problems.push(
          `x-mcp-header "${name}" at ${where} is on type ${JSON.stringify(type ?? "(none)")}; only integer, string or boolean may be mirrored`,
        );
      } else {
        out.push({ name, path: propertyChain(path), type });
      }
    }
  }
  for (const [key, child] of Object.entries(schema)) {
    if (key === "x-mcp-header") continue;
    if (key === "properties" && typeof child === "object" && child !== null && !Array.isArray(child)) {
      for (const [prop, sub] of Object.entries(child as JSONObject)) {
        walk(sub, [...path, "properties", prop], reachable, out, problems);
      }
      continue;
    }
    // Anything else (items, anyOf, not, $defs, if/then, additionalProperties…) breaks reachability.
    walk(child, [...path, key], false, out, problems);
  }
}

/** ["properties","a","properties","b"] → ["a","b"]. */
function propertyChain(path: string[]): string[] {
  return path.filter((_, i) => i % 2 === 1);
}

/**
 * The Mcp-Param-* headers of one call. Absent or null omits the header; "" sends an empty one; an
 * integer outside ±(2^53−1) or a non-integer for an integer header is refused before sending.
 */
export function paramHeaderValues(
  tool: string,
  headers: readonly ParamHeader[],
  args: JSONObject | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of headers) {
    let value: unknown = args;
    for (const key of h.path) {
      value = typeof value === "object" && value !== null ? (value as JSONObject)[key] : undefined;
    }
    if (value === undefined || value === null) continue;
    out[`Mcp-Param-${h.name}`] = encodeHeaderValue(render(tool, h, value));
  }
  return out;
}

function render(tool: string, h: ParamHeader, value: unknown): string {
  const at = `${tool}: argument ${h.path.join(".")} (Mcp-Param-${h.name})`;
  switch (h.type) {
    case "integer":
      if (typeof value !== "number" || !Number.isInteger(value)) {
        throw new ParamHeaderError(`${at} must be an integer, got ${JSON.stringify(value)}`);
      }
      if (value > MAX_SAFE || value < -MAX_SAFE) {
        throw new ParamHeaderError(`${at} is outside ±(2^53−1): ${value}`);
      }
      return String(value);
    case "boolean":
      if (typeof value !== "boolean")
        throw new ParamHeaderError(`${at} must be a boolean, got ${JSON.stringify(value)}`);
      return String(value);
    default:
      if (typeof value !== "string")
        throw new ParamHeaderError(`${at} must be a string, got ${JSON.stringify(value)}`);
      return value;
  }
}
