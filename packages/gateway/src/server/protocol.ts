/**
 * The server side of MCP, for every revision, independent of the transport. It holds no rule of a
 * revision: the client's revision (the peer's, from the registry) says which methods exist (a
 * method it lacks is -32601 by its absence), what mcpx declares to it, how its handshake is
 * answered and how results and errors are written for it. mcpx itself answers ping, the modern
 * handshake (server/discover) and logging/setLevel where the revision has them; everything else
 * goes to the gateway's dispatcher.
 */
import {
  errorResponse,
  type Implementation,
  InternalError,
  InvalidParamsError,
  InvalidRequestError,
  type JSONObject,
  type JSONRPCErrorObject,
  type JSONRPCRequest,
  type JSONRPCResponse,
  LOGGING_LEVELS,
  type LoggingLevel,
  MethodNotFoundError,
  type RegistryView,
  type Revision,
  requestOf,
  resultResponse,
  type ServerCapabilities,
  SKILLS_EXTENSION,
  type Telemetry,
  withoutKeys,
} from "@mcpx/core";
import { type Redactor, redactValue } from "@mcpx/host";
import type { Dispatcher } from "../dispatcher.js";
import type { CallContext } from "./peer.js";
import { ServedRevisions } from "./served.js";

export interface ServerIdentity {
  serverInfo: Implementation;
  instructions?: string;
}

/** Everything mcpx can declare; each revision's client gets the part its revision defines. */
const FULL_CAPABILITIES: ServerCapabilities = Object.freeze({
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  logging: {},
  completions: {},
  // SEP-2640: the union of the upstreams' skills; directories are read through their upstreams.
  extensions: { [SKILLS_EXTENSION]: { directoryRead: true } },
});

export class ServerProtocol {
  readonly #dispatcher: Dispatcher;
  readonly #identity: ServerIdentity;
  readonly #redact: Redactor | undefined;
  readonly #capabilities = new Map<Revision, ServerCapabilities>();
  readonly #extensions: (() => Record<string, JSONObject>) | undefined;
  /** Undefined when telemetry is off: then a request costs one check of it. */
  readonly #telemetry: Telemetry | undefined;
  /** The revisions mcpx serves (the registry's). */
  readonly served: ServedRevisions;

  /**
   * @param redact takes the config's secrets out of every error a client is sent (the pool's redact).
   * @param extensions the extensions mcpx relays that an upstream now offers (declared where the
   *   client's revision has `extensions`).
   */
  constructor(
    dispatcher: Dispatcher,
    identity: ServerIdentity,
    registry: RegistryView,
    redact?: Redactor,
    extensions?: () => Record<string, JSONObject>,
    telemetry?: Telemetry,
  ) {
    this.#telemetry = telemetry;
    this.#dispatcher = dispatcher;
    this.#extensions = extensions;
    this.#identity = identity;
    this.#redact = redact;
    this.served = new ServedRevisions(registry);
  }

  /** The capabilities mcpx declares to a client of this revision: those its revision defines. */
  capabilities(revision: Revision): ServerCapabilities {
    let caps = this.#capabilities.get(revision);
    if (!caps) {
      const defined = revision.server.capabilities;
      caps = Object.fromEntries(Object.entries(FULL_CAPABILITIES).filter(([key]) => defined.includes(key)));
      this.#capabilities.set(revision, caps);
    }
    // Extensions follow the upstreams (one offering tasks may connect later): asked each time.
    if (this.#extensions && revision.server.capabilities.includes("extensions")) {
      const offered = this.#extensions();
      // Beside those mcpx serves itself (skills), never in their place.
      if (Object.keys(offered).length > 0) return { ...caps, extensions: { ...caps.extensions, ...offered } };
    }
    return caps;
  }

  /** The answer to the handshake of a client of this revision (initialize, server/discover). */
  handshakeResult(revision: Revision): JSONObject {
    return revision.server.handshakeResult({
      revision,
      capabilities: this.capabilities(revision),
      serverInfo: this.#identity.serverInfo,
      supported: this.served.versions,
      ...(this.#identity.instructions ? { instructions: this.#identity.instructions } : {}),
    });
  }

  /**
   * Answers one request of an initialized legacy session or a checked modern request, as the
   * peer's revision writes it. The initialize that opens a session and subscriptions/listen belong
   * to the transport (they change its state) and never come here.
   */
  async respond(msg: JSONRPCRequest, ctx: CallContext): Promise<JSONRPCResponse> {
    const revision = ctx.peer.revision;
    if (!revision) {
      return errorResponse(
        msg.id,
        this.clean(new InternalError(`${msg.method}: the client speaks no revision`).toJSONRPC()),
      );
    }
    if (this.#telemetry !== undefined) return this.#traced(this.#telemetry, msg, ctx, revision);
    try {
      const result = await this.#answer(msg, ctx, revision);
      return resultResponse(msg.id, this.shape(msg.method, result, revision));
    } catch (err) {
      return errorResponse(msg.id, this.errorFor(err, revision));
    }
  }

  /** respond() inside the request's span, which the upstream calls it makes are children of. */
  async #traced(
    telemetry: Telemetry,
    msg: JSONRPCRequest,
    ctx: CallContext,
    revision: Revision,
  ): Promise<JSONRPCResponse> {
    const params = msg.params;
    const span = telemetry.startRequest({
      method: msg.method,
      id: msg.id,
      version: revision.version,
      ...(typeof params?.name === "string" ? { name: params.name } : {}),
      ...(typeof params?.uri === "string" ? { uri: params.uri } : {}),
      ...(ctx.headers ? { headers: ctx.headers } : {}),
      // Only a revision that defines trace context in _meta has it read from there.
      ...(revision.features.traceContextMeta && typeof params?._meta === "object" && params._meta !== null
        ? { meta: params._meta as JSONObject }
        : {}),
    });
    ctx.span = span;
    try {
      const result = await this.#answer(msg, ctx, revision);
      span.end();
      return resultResponse(msg.id, this.shape(msg.method, result, revision));
    } catch (err) {
      const error = this.errorFor(err, revision);
      span.end(error.code);
      return errorResponse(msg.id, error);
    }
  }

  async #answer(msg: JSONRPCRequest, ctx: CallContext, revision: Revision): Promise<JSONObject> {
    // A method the client's revision does not have is not found, whoever could answer it.
    if (
      !requestOf(revision.methods, msg.method, "client") &&
      !this.#dispatcher.servesExtension(msg.method, revision)
    ) {
      throw new MethodNotFoundError(`Method not found: ${msg.method}`);
    }
    const params = msg.params ?? {};
    switch (msg.method) {
      case "ping":
        return {};
      case "server/discover":
        return this.handshakeResult(revision);
      case "logging/setLevel": {
        const level = params.level;
        if (typeof level !== "string" || !LOGGING_LEVELS.includes(level as LoggingLevel)) {
          throw new InvalidParamsError(`logging/setLevel: level must be one of ${LOGGING_LEVELS.join(", ")}`);
        }
        ctx.peer.logLevel = level as LoggingLevel;
        return {};
      }
      case "initialize":
        throw new InvalidRequestError("already initialized");
      default:
        if (this.#dispatcher.handles(msg.method)) return this.#dispatcher.handle(msg.method, params, ctx);
    }
    throw new MethodNotFoundError(`Method not found: ${msg.method}`);
  }

  /** The result as the client's revision writes it, without the keys of other revisions. */
  shape(method: string, result: JSONObject, revision: Revision): JSONObject {
    return revision.server.shapeResult(
      method,
      withoutKeys(result, this.served.foreign(revision)),
      this.#identity.serverInfo,
    );
  }

  /**
   * The error object for a client of this revision, without a credential: an upstream's error may
   * quote what it was sent.
   */
  errorFor(err: unknown, revision: Revision): JSONRPCErrorObject {
    return this.clean(revision.server.errorFor(err));
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
