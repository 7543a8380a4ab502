/**
 * 2026-07-28 when mcpx serves it: every request says who its client is in its _meta (a served
 * modern version, else -32022 listing the served ones; clientCapabilities, else -32602), and over
 * HTTP mirrors its method, name and tool parameters into headers. Results carry resultType, the
 * caching hints of cacheable methods and serverInfo; a missing resource is -32602.
 */
import {
  CACHEABLE_METHODS,
  type ClientCapabilities,
  ErrorCode,
  type HeaderReader,
  type Implementation,
  InvalidParamsError,
  type JSONObject,
  type JSONRPCErrorObject,
  type JSONRPCRequest,
  LOGGING_LEVELS,
  type LoggingLevel,
  MetaKey,
  ResourceNotFoundError,
  type ServeContext,
  type ServedClient,
  type ServerFacet,
  type ServerHandshake,
  type ToolParamHeaders,
  UnsupportedProtocolVersionError,
  wireError,
  withKey,
} from "@mcpx/core";
import { checkMirroredHeaders, checkVersionHeader } from "./header-check.js";
import { MODERN_METHODS } from "./methods.js";

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function metaOf(msg: JSONRPCRequest): JSONObject | undefined {
  const meta = msg.params?._meta;
  return isObject(meta) ? (meta as JSONObject) : undefined;
}

export const MODERN_SERVER: ServerFacet = Object.freeze({
  capabilities: Object.freeze([
    "completions",
    "experimental",
    "extensions",
    "logging",
    "prompts",
    "resources",
    "tools",
  ]),
  samplingTools: true,
  opens: (msg: JSONRPCRequest) => metaOf(msg)?.[MetaKey.protocolVersion] !== undefined,
  negotiate(msg: JSONRPCRequest, ctx: ServeContext): ServedClient {
    checkVersionHeader(ctx.header, msg);
    const meta = metaOf(msg);
    const version = meta?.[MetaKey.protocolVersion];
    if (typeof version !== "string") {
      throw new InvalidParamsError(`${msg.method}: params._meta["${MetaKey.protocolVersion}"] is required`);
    }
    const revision = ctx.served.find((r) => r.version === version && r.era === "modern");
    if (!revision) {
      throw new UnsupportedProtocolVersionError(`Unsupported protocol version: ${version}`, {
        supported: ctx.supported,
        requested: version,
      });
    }
    const capabilities = meta?.[MetaKey.clientCapabilities];
    if (!isObject(capabilities)) {
      throw new InvalidParamsError(
        `${msg.method}: params._meta["${MetaKey.clientCapabilities}"] is required`,
      );
    }
    const client: ServedClient = { revision, capabilities: capabilities as ClientCapabilities };
    const info = meta?.[MetaKey.clientInfo];
    if (typeof info === "object" && info !== null) client.clientInfo = info as Implementation;
    const level = meta?.[MetaKey.logLevel];
    if (typeof level === "string" && LOGGING_LEVELS.includes(level as LoggingLevel)) {
      client.logLevel = level as LoggingLevel;
    }
    return client;
  },
  handshakeResult(h: ServerHandshake): JSONObject {
    const result: JSONObject = { supportedVersions: [...h.supported], capabilities: h.capabilities };
    if (h.instructions) result.instructions = h.instructions;
    return result;
  },
  checkHeaders: (msg: JSONRPCRequest, header: HeaderReader, tools: ToolParamHeaders) =>
    checkMirroredHeaders(msg, header, tools, MODERN_METHODS),
  shapeResult(method: string, result: JSONObject, serverInfo: Implementation): JSONObject {
    // Every key this may add has its slot before the spread (V8's fast path, see withKey); a slot
    // left undefined is not written out.
    const cacheable = CACHEABLE_METHODS.has(method);
    const out: JSONObject = cacheable
      ? { resultType: undefined, ttlMs: undefined, cacheScope: undefined, _meta: undefined, ...result }
      : { resultType: undefined, _meta: undefined, ...result };
    out.resultType ??= "complete";
    if (cacheable && out.resultType === "complete") {
      // Aggregated and routed results are mcpx's: fresh for nobody else to reuse.
      if (typeof out.ttlMs !== "number" || out.ttlMs < 0) out.ttlMs = 0;
      if (out.cacheScope !== "public" && out.cacheScope !== "private") out.cacheScope = "private";
    }
    out._meta = withKey(out._meta as JSONObject | undefined, MetaKey.serverInfo, serverInfo);
    return out;
  },
  errorFor(err: unknown): JSONRPCErrorObject {
    // 2026-07-28 reports a missing resource as invalid params (server/resources.mdx §Error Handling).
    if (err instanceof ResourceNotFoundError) {
      return {
        code: ErrorCode.InvalidParams,
        message: err.message,
        ...(err.data === undefined ? {} : { data: err.data }),
      };
    }
    return wireError(err);
  },
});
