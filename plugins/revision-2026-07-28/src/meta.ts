import { type ConnectionInfo, type JSONObject, MetaKey } from "@mcpx/core";

/**
 * The per-request _meta of 2026-07-28: protocol version, client capabilities and client info on
 * every request, and the log level where one was asked for (without it a server must not log).
 */
export function requestMeta(conn: ConnectionInfo, version: string = conn.version): JSONObject {
  const meta: JSONObject = {
    [MetaKey.protocolVersion]: version,
    [MetaKey.clientCapabilities]: conn.capabilities,
    [MetaKey.clientInfo]: conn.clientInfo,
  };
  if (conn.logLevel) meta[MetaKey.logLevel] = conn.logLevel;
  return meta;
}
