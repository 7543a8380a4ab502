import {
  type ClientCapabilities,
  type Implementation,
  InternalError,
  type JSONObject,
  type JSONRPCRequest,
  type ServeContext,
  type ServedClient,
  type ServerFacet,
  type ServerHandshake,
  wireError,
} from "@mcpx/core";

/** The server capabilities of 2024-11-05 (its schema.json's ServerCapabilities). */
export const LEGACY_SERVER_CAPABILITIES: readonly string[] = Object.freeze([
  "experimental",
  "logging",
  "prompts",
  "resources",
  "tools",
]);

export interface LegacyServerSpec {
  /** The server capabilities this revision adds to 2024-11-05's (completions from 2025-03-26). */
  capabilities?: readonly string[];
  /** sampling/createMessage may carry tools (from 2025-11-25). */
  samplingTools?: boolean;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * An initialize-era revision when mcpx serves it. A client makes itself known once, with
 * initialize: it gets the version it offered when mcpx serves it in this era, else the first one
 * served (the newest: lifecycle.mdx §Version Negotiation, "SHOULD be the latest version supported").
 * Nothing is mirrored into headers, and results and errors go as they are (-32002 for a missing
 * resource). The session's MCP-Protocol-Version is the transport's to check (it needs the session).
 */
export function legacyServer(spec: LegacyServerSpec = {}): ServerFacet {
  return Object.freeze({
    capabilities: Object.freeze([...LEGACY_SERVER_CAPABILITIES, ...(spec.capabilities ?? [])]),
    samplingTools: spec.samplingTools ?? false,
    opens: (msg: JSONRPCRequest) => msg.method === "initialize",
    negotiate(msg: JSONRPCRequest, ctx: ServeContext): ServedClient {
      const params = msg.params ?? {};
      const offered = params.protocolVersion;
      const era = ctx.served.filter((r) => r.era === "legacy");
      const revision = era.find((r) => r.version === offered) ?? era[0];
      if (!revision) throw new InternalError("initialize: mcpx serves no initialize-era revision");
      const client: ServedClient = {
        revision,
        capabilities: isObject(params.capabilities) ? (params.capabilities as ClientCapabilities) : {},
      };
      if (isObject(params.clientInfo)) client.clientInfo = params.clientInfo as Implementation;
      return client;
    },
    handshakeResult(h: ServerHandshake): JSONObject {
      const result: JSONObject = {
        protocolVersion: h.revision.version,
        capabilities: h.capabilities,
        serverInfo: h.serverInfo,
      };
      if (h.instructions) result.instructions = h.instructions;
      return result;
    },
    checkHeaders: () => {},
    shapeResult: (_method: string, result: JSONObject) => result,
    errorFor: wireError,
  });
}
