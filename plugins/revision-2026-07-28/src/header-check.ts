/**
 * The mirrored headers of a 2026-07-28 request over HTTP, checked against its body (transports
 * §Standard Headers): MCP-Protocol-Version against _meta, Mcp-Method against method, Mcp-Name
 * against the parameter the method names (tools/call and prompts/get: name; resources/read: uri),
 * and for tools/call every Mcp-Param-{X} the tool declares against its argument. A missing,
 * malformed or different header is -32020 HeaderMismatch (HTTP 400), its message naming the header.
 */
import {
  type HeaderReader,
  type JSONObject,
  type JSONRPCRequest,
  MetaKey,
  type MethodTable,
  requestOf,
  type ToolParamHeaders,
} from "@mcpx/core";
import { decoded, mismatch, show } from "./header-values.js";
import { checkParamHeader } from "./param-headers.js";

/**
 * MCP-Protocol-Version against the version _meta claims, before that version is judged: a request
 * whose header and body disagree is a mismatch (-32020) whatever the versions are, not an
 * unsupported version (-32022). Nothing to compare when either is absent (checked later).
 */
export function checkVersionHeader(header: HeaderReader, msg: JSONRPCRequest): void {
  const claimed = (msg.params?._meta as JSONObject | undefined)?.[MetaKey.protocolVersion];
  const pv = header("mcp-protocol-version");
  if (typeof claimed !== "string" || pv === undefined || pv === claimed) return;
  throw mismatch(
    `MCP-Protocol-Version header value ${show(pv)} does not match body value ${show(claimed)}`,
    "MCP-Protocol-Version",
  );
}

/**
 * Throws HeaderMismatchError unless every mirrored header agrees with the body. Synchronous when
 * `tools` answers at once (the call path: no promise, no microtask), else it returns the promise
 * of the parameter headers' check.
 */
export function checkMirroredHeaders(
  msg: JSONRPCRequest,
  header: HeaderReader,
  tools: ToolParamHeaders,
  methods: MethodTable,
): void | Promise<void> {
  const version = (msg.params?._meta as JSONObject | undefined)?.[MetaKey.protocolVersion];
  const pv = header("mcp-protocol-version");
  if (pv === undefined) throw mismatch("the MCP-Protocol-Version header is required", "MCP-Protocol-Version");
  if (pv !== version) {
    throw mismatch(
      `MCP-Protocol-Version header value ${show(pv)} does not match body value ${show(version)}`,
      "MCP-Protocol-Version",
    );
  }
  const method = header("mcp-method");
  if (method === undefined) throw mismatch("the Mcp-Method header is required", "Mcp-Method");
  if (method !== msg.method) {
    throw mismatch(
      `Mcp-Method header value ${show(method)} does not match body value ${show(msg.method)}`,
      "Mcp-Method",
    );
  }
  // Own keys only (requestOf): a method named "constructor" mirrors no name (and is then not found).
  const key = requestOf(methods, msg.method, "client")?.names;
  if (key === undefined) return;
  const body = msg.params?.[key];
  const rawName = header("mcp-name");
  if (rawName === undefined) throw mismatch(`the Mcp-Name header is required for ${msg.method}`, "Mcp-Name");
  const name = decoded(rawName, "Mcp-Name");
  if (name !== body) {
    throw mismatch(`Mcp-Name header value ${show(name)} does not match body value ${show(body)}`, "Mcp-Name");
  }
  if (msg.method !== "tools/call") return;
  const params = tools(name);
  const args = msg.params?.arguments;
  if (params instanceof Promise) {
    return params.then((list) => {
      for (const p of list) checkParamHeader(header, p, args);
    });
  }
  for (const p of params) checkParamHeader(header, p, args);
}
