/**
 * 2026-07-28 mirrored headers, checked against the body: MCP-Protocol-Version against _meta,
 * Mcp-Method against method, Mcp-Name against params.name (tools/call, prompts/get) or params.uri
 * (resources/read), and for tools/call every Mcp-Param-{X} the tool's inputSchema declares with
 * x-mcp-header against the argument at that property path. A missing, malformed or different
 * header is -32020 HeaderMismatch (HTTP 400), its message naming the header.
 *
 * The x-mcp-header paths of every tool are read once per catalog generation, not per call.
 */
import type { IncomingHttpHeaders } from "node:http";
import {
  decodeHeaderValue,
  HeaderMismatchError,
  type JSONObject,
  type JSONRPCRequest,
  looksLikeSentinel,
  MetaKey,
} from "@mcpx/core";
import type { Catalog } from "../../catalog.js";

export interface ParamHeader {
  /** The header as the tool names it, e.g. "Mcp-Param-Region". */
  display: string;
  /** The header name as node:http delivers it (lower case). */
  name: string;
  /** The chain of `properties` keys to the argument. */
  path: readonly string[];
}

const NONE: readonly ParamHeader[] = Object.freeze([]);
/** Anything but visible ASCII, space and tab (node:http passes other bytes through as latin1). */
const UNSAFE = /[^\x20-\x7e\t]/;
const NAME_FROM: Record<string, "name" | "uri"> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
};

/** The x-mcp-header annotations of one inputSchema, reachable through `properties` chains only. */
export function paramHeaders(schema: unknown): ParamHeader[] {
  const out: ParamHeader[] = [];
  const walk = (node: unknown, path: string[]) => {
    const props = (node as JSONObject | undefined)?.properties;
    if (typeof props !== "object" || props === null || Array.isArray(props)) return;
    for (const [key, sub] of Object.entries(props as JSONObject)) {
      if (typeof sub !== "object" || sub === null) continue;
      const header = (sub as JSONObject)["x-mcp-header"];
      const at = [...path, key];
      if (typeof header === "string" && header !== "") {
        out.push({ display: `Mcp-Param-${header}`, name: `mcp-param-${header.toLowerCase()}`, path: at });
      }
      walk(sub, at);
    }
  };
  walk(schema, []);
  return out;
}

/** Tool name → its parameter headers, rebuilt when the catalog's generation moves. */
export class ParamHeaderIndex {
  readonly #catalog: Catalog;
  #generation = -1;
  #byName = new Map<string, readonly ParamHeader[]>();
  #building: Promise<void> | undefined;

  constructor(catalog: Catalog) {
    this.#catalog = catalog;
  }

  async of(tool: string): Promise<readonly ParamHeader[]> {
    if (this.#generation !== this.#catalog.generation) await this.#rebuild();
    return this.#byName.get(tool) ?? NONE;
  }

  #rebuild(): Promise<void> {
    this.#building ??= (async () => {
      const generation = this.#catalog.generation;
      try {
        const tools = await this.#catalog.list("tools");
        const byName = new Map<string, readonly ParamHeader[]>();
        for (const tool of tools) {
          const headers = paramHeaders(tool.inputSchema);
          if (headers.length > 0) byName.set(String(tool.name), headers);
        }
        this.#byName = byName;
        this.#generation = generation;
      } finally {
        this.#building = undefined;
      }
    })();
    return this.#building;
  }
}

function mismatch(message: string, header: string): HeaderMismatchError {
  return new HeaderMismatchError(`Header mismatch: ${message}`, { header });
}

function single(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(", ") : v;
}

/** The header's value decoded; a Base64 sentinel that does not decode is malformed. */
function decoded(raw: string, display: string): string {
  if (UNSAFE.test(raw)) {
    throw mismatch(
      `${display} header value has characters a header cannot carry plainly (use the Base64 sentinel)`,
      display,
    );
  }
  const value = decodeHeaderValue(raw);
  if (value === raw && looksLikeSentinel(raw)) {
    throw mismatch(`${display} header value is a malformed Base64 sentinel`, display);
  }
  return value;
}

function show(v: unknown): string {
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return `'${s !== undefined && s.length > 80 ? `${s.slice(0, 80)}…` : s}'`;
}

/**
 * MCP-Protocol-Version against the version _meta claims, before that version is judged: a request
 * whose header and body disagree is a mismatch (-32020) whatever the versions are, not an
 * unsupported version (-32022). Nothing to compare when either is absent (checked later).
 */
export function checkVersionHeader(headers: IncomingHttpHeaders, msg: JSONRPCRequest): void {
  const claimed = (msg.params?._meta as JSONObject | undefined)?.[MetaKey.protocolVersion];
  const pv = single(headers, "mcp-protocol-version");
  if (typeof claimed !== "string" || pv === undefined || pv === claimed) return;
  throw mismatch(
    `MCP-Protocol-Version header value ${show(pv)} does not match body value ${show(claimed)}`,
    "MCP-Protocol-Version",
  );
}

/** Throws HeaderMismatchError unless every mirrored header agrees with the body. */
export async function checkModernHeaders(
  headers: IncomingHttpHeaders,
  msg: JSONRPCRequest,
  version: string,
  index: ParamHeaderIndex,
): Promise<void> {
  const pv = single(headers, "mcp-protocol-version");
  if (pv === undefined) throw mismatch("the MCP-Protocol-Version header is required", "MCP-Protocol-Version");
  if (pv !== version) {
    throw mismatch(
      `MCP-Protocol-Version header value ${show(pv)} does not match body value ${show(version)}`,
      "MCP-Protocol-Version",
    );
  }
  const method = single(headers, "mcp-method");
  if (method === undefined) throw mismatch("the Mcp-Method header is required", "Mcp-Method");
  if (method !== msg.method) {
    throw mismatch(
      `Mcp-Method header value ${show(method)} does not match body value ${show(msg.method)}`,
      "Mcp-Method",
    );
  }
  // Own keys only: a method named "constructor" mirrors no name (and is then not found: -32601).
  const key = Object.hasOwn(NAME_FROM, msg.method) ? NAME_FROM[msg.method] : undefined;
  if (key === undefined) return;
  const body = msg.params?.[key];
  const rawName = single(headers, "mcp-name");
  if (rawName === undefined) throw mismatch(`the Mcp-Name header is required for ${msg.method}`, "Mcp-Name");
  const name = decoded(rawName, "Mcp-Name");
  if (name !== body) {
    throw mismatch(`Mcp-Name header value ${show(name)} does not match body value ${show(body)}`, "Mcp-Name");
  }
  if (msg.method !== "tools/call") return;
  const params = await index.of(name);
  if (params.length === 0) return;
  const args = msg.params?.arguments;
  for (const p of params) checkParam(headers, p, args);
}

function checkParam(headers: IncomingHttpHeaders, p: ParamHeader, args: unknown): void {
  let value: unknown = args;
  for (const key of p.path) {
    value =
      typeof value === "object" && value !== null && !Array.isArray(value)
        ? (value as JSONObject)[key]
        : undefined;
    if (value === undefined) break;
  }
  const raw = single(headers, p.name);
  const where = `argument ${p.path.join(".")}`;
  if (value === undefined || value === null) {
    if (raw !== undefined)
      throw mismatch(`${p.display} header is present but the ${where} is absent`, p.display);
    return;
  }
  if (raw === undefined)
    throw mismatch(`the ${p.display} header is required (the ${where} is present)`, p.display);
  const text = decoded(raw, p.display);
  let same: boolean;
  if (typeof value === "string") same = text === value;
  else if (typeof value === "number") same = text.trim() !== "" && Number(text) === value;
  else if (typeof value === "boolean") same = text === String(value);
  else same = false; // an object or array cannot be mirrored: no header can match it
  if (!same) {
    throw mismatch(
      `${p.display} header value ${show(text)} does not match body value ${show(value)}`,
      p.display,
    );
  }
}
