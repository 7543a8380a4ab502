import {
  type ConnectionInfo,
  encodeHeaderValue,
  type JSONRPCMessage,
  MetaKey,
  type MethodTable,
  requestOf,
} from "@mcpx/core";

/**
 * The standard headers of a modern POST: MCP-Protocol-Version equal to the frame's _meta version,
 * Mcp-Method always, Mcp-Name where the method names something (the table's `names`). Mcp-Param-*
 * come from the client, which knows the tool's annotations.
 */
export function modernHeaders(
  msg: JSONRPCMessage,
  conn: ConnectionInfo,
  methods: MethodTable,
): Record<string, string> | undefined {
  if (!("method" in msg)) return undefined;
  const params = msg.params;
  const meta = params?._meta as Record<string, unknown> | undefined;
  const version = meta?.[MetaKey.protocolVersion];
  const headers: Record<string, string> = {
    "MCP-Protocol-Version": typeof version === "string" ? version : conn.version,
    "Mcp-Method": msg.method,
  };
  const source = requestOf(methods, msg.method, "client")?.names;
  const name = source ? params?.[source] : undefined;
  if (typeof name === "string") headers["Mcp-Name"] = encodeHeaderValue(name);
  return headers;
}
