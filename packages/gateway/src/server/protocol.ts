/**
 * The server side of MCP, for every revision, independent of the transport: legacy initialize and
 * its session state, modern per-request _meta (version, capabilities), server/discover, ping and
 * logging/setLevel where they exist; everything else goes to the gateway's dispatcher. Results are
 * shaped for the revision the client speaks (modern: resultType, caching hints, serverInfo; legacy:
 * none of those keys), and errors carry the code that revision uses.
 */
import {
  CACHEABLE_METHODS,
  type ClientCapabilities,
  errorResponse,
  type Implementation,
  InternalError,
  InvalidParamsError,
  InvalidRequestError,
  type JSONObject,
  type JSONRPCErrorObject,
  type JSONRPCRequest,
  type JSONRPCResponse,
  LEGACY_VERSIONS,
  LOGGING_LEVELS,
  type LoggingLevel,
  McpxError,
  MetaKey,
  MethodNotFoundError,
  MODERN_VERSIONS,
  type Redactor,
  ResourceNotFoundError,
  redactValue,
  resultResponse,
  UnsupportedProtocolVersionError,
  withKey,
} from "@mcpx/core";
import type { Dispatcher } from "../dispatcher.js";
import type { CallContext, Peer } from "./peer.js";

export const SERVED_LEGACY: readonly string[] = [...LEGACY_VERSIONS].reverse();
export const SERVED_MODERN: readonly string[] = [...MODERN_VERSIONS];
/** Every version mcpx serves, newest first (what a -32022 lists). */
export const SERVED: readonly string[] = [...SERVED_MODERN, ...SERVED_LEGACY];

export interface ServerIdentity {
  serverInfo: Implementation;
  instructions?: string;
}

/** What a modern request declared in its _meta. */
export interface ModernMeta {
  version: string;
  capabilities: ClientCapabilities;
  clientInfo?: Implementation;
  logLevel?: LoggingLevel;
}

export class ServerProtocol {
  readonly #dispatcher: Dispatcher;
  readonly #identity: ServerIdentity;
  readonly #redact: Redactor | undefined;

  /** @param redact takes the config's secrets out of every error a client is sent (the pool's redact). */
  constructor(dispatcher: Dispatcher, identity: ServerIdentity, redact?: Redactor) {
    this.#dispatcher = dispatcher;
    this.#identity = identity;
    this.#redact = redact;
  }

  /** The capabilities mcpx declares to a client of this version. */
  capabilities(version: string): JSONObject {
    const caps: JSONObject = {
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      logging: {},
    };
    // completions was added in 2025-03-26.
    if (version !== "2024-11-05") caps.completions = {};
    return caps;
  }

  /** The version a legacy client gets: the one it offered if mcpx serves it, else the newest legacy one. */
  negotiate(offered: unknown): string {
    return typeof offered === "string" && SERVED_LEGACY.includes(offered)
      ? offered
      : (SERVED_LEGACY[0] as string);
  }

  initializeResult(version: string): JSONObject {
    const result: JSONObject = {
      protocolVersion: version,
      capabilities: this.capabilities(version),
      serverInfo: this.#identity.serverInfo,
    };
    if (this.#identity.instructions) result.instructions = this.#identity.instructions;
    return result;
  }

  /**
   * The _meta a modern request must carry: a version mcpx serves (else -32022 naming the ones it
   * does) and clientCapabilities (else -32602).
   */
  modernMeta(msg: JSONRPCRequest): ModernMeta {
    const meta = msg.params?._meta as JSONObject | undefined;
    const version = meta?.[MetaKey.protocolVersion];
    if (typeof version !== "string") {
      throw new InvalidParamsError(`${msg.method}: params._meta["${MetaKey.protocolVersion}"] is required`);
    }
    if (!SERVED_MODERN.includes(version)) {
      throw new UnsupportedProtocolVersionError(`Unsupported protocol version: ${version}`, {
        supported: SERVED,
        requested: version,
      });
    }
    const capabilities = meta?.[MetaKey.clientCapabilities];
    if (typeof capabilities !== "object" || capabilities === null || Array.isArray(capabilities)) {
      throw new InvalidParamsError(
        `${msg.method}: params._meta["${MetaKey.clientCapabilities}"] is required`,
      );
    }
    const out: ModernMeta = { version, capabilities: capabilities as ClientCapabilities };
    const info = meta?.[MetaKey.clientInfo];
    if (typeof info === "object" && info !== null) out.clientInfo = info as Implementation;
    const level = meta?.[MetaKey.logLevel];
    if (typeof level === "string" && LOGGING_LEVELS.includes(level as LoggingLevel))
      out.logLevel = level as LoggingLevel;
    return out;
  }

  discoverResult(): JSONObject {
    const result: JSONObject = {
      supportedVersions: SERVED,
      capabilities: this.capabilities(SERVED_MODERN[0] as string),
    };
    if (this.#identity.instructions) result.instructions = this.#identity.instructions;
    return result;
  }

  /**
   * Answers one request of an initialized legacy session or a checked modern request. initialize
   * and subscriptions/listen belong to the transport (they change its state) and never come here.
   */
  async respond(msg: JSONRPCRequest, ctx: CallContext): Promise<JSONRPCResponse> {
    const peer = ctx.peer;
    try {
      const result = await this.#answer(msg, ctx);
      return resultResponse(msg.id, this.shape(msg.method, result, peer));
    } catch (err) {
      return errorResponse(msg.id, this.errorFor(err, peer));
    }
  }

  async #answer(msg: JSONRPCRequest, ctx: CallContext): Promise<JSONObject> {
    const params = msg.params ?? {};
    const modern = ctx.peer.era === "modern";
    switch (msg.method) {
      case "ping":
        if (modern) break;
        return {};
      case "server/discover":
        if (!modern) break;
        return this.discoverResult();
      case "logging/setLevel": {
        if (modern) break;
        const level = params.level;
        if (typeof level !== "string" || !LOGGING_LEVELS.includes(level as LoggingLevel)) {
          throw new InvalidParamsError(`logging/setLevel: level must be one of ${LOGGING_LEVELS.join(", ")}`);
        }
        ctx.peer.logLevel = level as LoggingLevel;
        return {};
      }
      case "resources/subscribe":
      case "resources/unsubscribe":
        // 2026-07-28 subscribes through subscriptions/listen.
        if (modern) break;
        return this.#dispatcher.handle(msg.method, params, ctx);
      case "initialize":
        // 2026-07-28 has no initialize: a method it does not have (-32601, HTTP 404).
        if (modern)
          throw new MethodNotFoundError("Method not found: initialize (2026-07-28 has no handshake)");
        throw new InvalidRequestError("already initialized");
      default:
        if (this.#dispatcher.handles(msg.method)) return this.#dispatcher.handle(msg.method, params, ctx);
    }
    throw new MethodNotFoundError(`Method not found: ${msg.method}`);
  }

  /** The result as the client's revision writes it. */
  shape(method: string, result: JSONObject, peer: Peer): JSONObject {
    if (peer.era === "modern") {
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
      out._meta = withKey(out._meta as JSONObject | undefined, MetaKey.serverInfo, this.#identity.serverInfo);
      return out;
    }
    if (!("resultType" in result || "ttlMs" in result || "cacheScope" in result || "_meta" in result)) {
      return result;
    }
    // A legacy client gets none of 2026-07-28's result keys.
    const { resultType: _r, ttlMs: _t, cacheScope: _c, ...rest } = result;
    const meta = rest._meta as JSONObject | undefined;
    if (meta && MetaKey.serverInfo in meta) {
      const { [MetaKey.serverInfo]: _s, ...others } = meta;
      if (Object.keys(others).length > 0) rest._meta = others;
      else delete rest._meta;
    }
    return rest;
  }

  /**
   * The error object for a client of this revision (a missing resource is -32602 in 2026-07-28),
   * without a credential: an upstream's error may quote what it was sent.
   */
  errorFor(err: unknown, peer: Peer): JSONRPCErrorObject {
    let out: JSONRPCErrorObject;
    if (err instanceof ResourceNotFoundError) {
      out = {
        code: peer.era === "modern" ? -32602 : -32002,
        message: err.message,
        ...(err.data === undefined ? {} : { data: err.data }),
      };
    } else if (err instanceof McpxError) out = err.toJSONRPC();
    else out = new InternalError(err instanceof Error ? err.message : String(err)).toJSONRPC();
    return this.clean(out);
  }

  /**
   * An error object with the config's secrets taken out of its message and data (in every form
   * the config collected: raw, JSON-escaped, percent-encoded). For every error a client is sent.
   */
  clean(error: JSONRPCErrorObject): JSONRPCErrorObject {
    const redact = this.#redact;
    if (!redact) return error;
    const message = redact(error.message);
    if (error.data === undefined) return message === error.message ? error : { ...error, message };
    return { ...error, message, data: redactValue(error.data, redact) };
  }

  /** A text with the config's secrets taken out (an error's message put in a result). */
  redact(text: string): string {
    return this.#redact ? this.#redact(text) : text;
  }
}
