import { type ConnectionInfo, encodeHeaderValue, type JSONRPCMessage, MetaKey } from "@mcpx/core";

/** Methods whose name or URI is mirrored into Mcp-Name. */
const NAME_SOURCE: Record<string, "name" | "uri"> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
};

/**
 * The standard headers of a modern POST: MCP-Protocol-Version equal to the frame's _meta version,
 * Mcp-Method always, Mcp-Name where the method names something. Mcp-Param-* come from the client,
 * which knows the tool's annotations.
 */
export function modernHeaders(msg: JSONRPCMessage, conn: ConnectionInfo): Record<string, string> | undefined {
  if (!("method" in msg)) return undefined;
  const params = msg.params;
  const meta = params?._meta as Record<string, unknown> | undefined;
  const version = meta?.[MetaKey.protocolVersion];
  const headers: Record<string, string> = {
    "MCP-Protocol-Version": typeof version === "string" ? version : conn.version,
    "Mcp-Method": msg.method,
  };
  const source = Object.hasOwn(NAME_SOURCE, msg.method) ? NAME_SOURCE[msg.method] : undefined;
  const name = source ? params?.[source] : undefined;
  if (typeof name === "string") headers["Mcp-Name"] = encodeHeaderValue(name);
  return headers;
}
