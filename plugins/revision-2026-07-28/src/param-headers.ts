/**
 * x-mcp-header (2026-07-28, HTTP only): a tool parameter annotated `"x-mcp-header": "Name"` is
 * mirrored into the header Mcp-Param-Name. Both sides read a tool's annotations the same way: each
 * must sit on a property reachable through `properties` alone, be an RFC 9110 token, unique (case
 * insensitively), on an integer, string or boolean. The client leaves out a tool with an invalid
 * one and writes each call's headers (or refuses the call before sending); the server checks a
 * call's headers against its arguments.
 */
import {
  encodeHeaderValue,
  type HeaderReader,
  type JSONObject,
  type ParamHeader,
  ParamHeaderError,
  type ToolHeaderRules,
  type ToolHeaders,
} from "@mcpx/core";
import { decoded, mismatch, show } from "./header-values.js";

/** RFC 9110 field-name token: 1*tchar. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Walks the whole input schema: every annotation is taken or named as a problem. */
export function declaredHeaders(inputSchema: unknown): ToolHeaders {
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
  return { headers, problems };
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

/** The argument at the header's path (undefined where the path breaks). */
function argumentAt(args: unknown, path: readonly string[]): unknown {
  let value: unknown = args;
  for (const key of path) {
    value =
      typeof value === "object" && value !== null && !Array.isArray(value)
        ? (value as JSONObject)[key]
        : undefined;
    if (value === undefined) break;
  }
  return value;
}

/**
 * The Mcp-Param-* headers of one call. Absent or null omits the header; "" sends an empty one; an
 * integer outside ±(2^53−1) or a non-integer for an integer header is refused before sending.
 */
export function headerValues(
  tool: string,
  headers: readonly ParamHeader[],
  args: JSONObject | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of headers) {
    const value = argumentAt(args, h.path);
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

export const TOOL_HEADERS: ToolHeaderRules = Object.freeze({
  declared: declaredHeaders,
  values: headerValues,
});

/**
 * A call's Mcp-Param-{X} header against the argument at its path: present exactly when the
 * argument is (not null), and equal to it (an integer compares as a number). HeaderMismatchError
 * (-32020) naming the header otherwise.
 */
export function checkParamHeader(header: HeaderReader, p: ParamHeader, args: unknown): void {
  const display = `Mcp-Param-${p.name}`;
  const value = argumentAt(args, p.path);
  const raw = header(`mcp-param-${p.name.toLowerCase()}`);
  const where = `argument ${p.path.join(".")}`;
  if (value === undefined || value === null) {
    if (raw !== undefined) throw mismatch(`${display} header is present but the ${where} is absent`, display);
    return;
  }
  if (raw === undefined)
    throw mismatch(`the ${display} header is required (the ${where} is present)`, display);
  const text = decoded(raw, display);
  let same: boolean;
  if (typeof value === "string") same = text === value;
  else if (typeof value === "number") same = text.trim() !== "" && Number(text) === value;
  else if (typeof value === "boolean") same = text === String(value);
  else same = false; // an object or array cannot be mirrored: no header can match it
  if (!same) {
    throw mismatch(`${display} header value ${show(text)} does not match body value ${show(value)}`, display);
  }
}
