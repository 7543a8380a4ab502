/**
 * What a modern (2026-07-28) server checks in the headers of a POST: MCP-Protocol-Version equals the
 * _meta version, Mcp-Method the method, Mcp-Name the name or uri (and only on tools/call, prompts/get,
 * resources/read), Mcp-Param-{Name} the argument annotated with x-mcp-header (values decoded from the
 * Base64 sentinel first). Each disagreement is one line; a real server answers any of them 400 -32020.
 */
import { decodeHeaderValue } from "@mcpx/core";
import { metaVersion } from "./frame-revision.js";
import type { Frame, JSONObject } from "./server.js";

const NAMED: Record<string, "name" | "uri"> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
};

export function mirrorProblems(frame: Frame, headers: Record<string, string>, tools: JSONObject[]): string[] {
  const problems: string[] = [];
  const method = frame.method;
  const version = metaVersion(frame.params);
  if (headers["mcp-protocol-version"] !== version) {
    problems.push(
      `MCP-Protocol-Version ${show(headers["mcp-protocol-version"])} disagrees with _meta protocolVersion ${show(version)}`,
    );
  }
  if (method !== undefined && headers["mcp-method"] !== method) {
    problems.push(`Mcp-Method ${show(headers["mcp-method"])} disagrees with method ${show(method)}`);
  }
  const key = method === undefined ? undefined : NAMED[method];
  const name = headers["mcp-name"];
  if (key === undefined) {
    if (name !== undefined)
      problems.push(`Mcp-Name ${show(name)} on ${method ?? "a response"}, which has no name`);
  } else {
    const expected = frame.params?.[key];
    if (name === undefined || decodeHeaderValue(name) !== expected) {
      problems.push(`Mcp-Name ${show(name)} disagrees with params.${key} ${show(expected)}`);
    }
  }
  problems.push(...paramProblems(frame, headers, tools));
  return problems.map((p) => `${method ?? "response"}: ${p}`);
}

function paramProblems(frame: Frame, headers: Record<string, string>, tools: JSONObject[]): string[] {
  const sent = Object.keys(headers).filter((h) => h.startsWith("mcp-param-"));
  const tool = frame.method === "tools/call" ? tools.find((t) => t.name === frame.params?.name) : undefined;
  const annotated = tool ? annotations(tool.inputSchema) : [];
  const problems: string[] = [];
  const args = (frame.params?.arguments ?? {}) as JSONObject;
  for (const { path, header } of annotated) {
    const lower = `mcp-param-${header.toLowerCase()}`;
    const value = valueAt(args, path);
    const got = headers[lower];
    if (value === undefined || value === null) {
      if (got !== undefined)
        problems.push(`Mcp-Param-${header} sent for an absent argument ${path.join(".")}`);
      continue;
    }
    if (got === undefined) {
      problems.push(`Mcp-Param-${header} missing for argument ${path.join(".")}`);
      continue;
    }
    const decoded = decodeHeaderValue(got);
    const same = typeof value === "number" ? Number(decoded) === value : decoded === String(value);
    if (!same)
      problems.push(`Mcp-Param-${header} ${show(got)} disagrees with ${path.join(".")} ${show(value)}`);
  }
  const known = new Set(annotated.map((a) => `mcp-param-${a.header.toLowerCase()}`));
  for (const h of sent) if (!known.has(h)) problems.push(`${h} names no x-mcp-header annotation`);
  return problems;
}

/** Annotations reachable from the root through `properties` alone (the only valid place). */
function annotations(schema: unknown, path: string[] = []): { path: string[]; header: string }[] {
  if (typeof schema !== "object" || schema === null) return [];
  const s = schema as JSONObject;
  const out: { path: string[]; header: string }[] = [];
  if (path.length > 0 && typeof s["x-mcp-header"] === "string") out.push({ path, header: s["x-mcp-header"] });
  const props = s.properties;
  if (typeof props === "object" && props !== null) {
    for (const [k, v] of Object.entries(props)) out.push(...annotations(v, [...path, k]));
  }
  return out;
}

function valueAt(obj: JSONObject, path: string[]): unknown {
  let cur: unknown = obj;
  for (const k of path) {
    if (typeof cur !== "object" || cur === null) return undefined;
    cur = (cur as JSONObject)[k];
  }
  return cur;
}

function show(v: unknown): string {
  return v === undefined ? "(absent)" : JSON.stringify(v);
}
