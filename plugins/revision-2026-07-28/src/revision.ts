import {
  type CancelAction,
  type ClientCapabilities,
  type ConnectionInfo,
  ErrorCode,
  errorFromWire,
  type HandshakeContext,
  type InstalledHandlers,
  type JSONObject,
  type JSONRPCErrorObject,
  type JSONRPCMessage,
  type JSONRPCRequest,
  MissingRequiredClientCapabilityError,
  ResourceNotFoundError,
  type Revision,
  withKey,
} from "@mcpx/core";
import listItemSchemas from "../schemas/list-items.json" with { type: "json" };
import { MODERN_FEATURES } from "./features.js";
import { discoverHandshake } from "./handshake.js";
import { modernHeaders } from "./headers.js";
import { requestMeta } from "./meta.js";
import { MODERN_METHODS } from "./methods.js";
import { TOOL_HEADERS } from "./param-headers.js";
import { MODERN_SERVER } from "./server.js";

function capabilities(installed: InstalledHandlers): ClientCapabilities {
  // roots is {} (listChanged went with notifications/roots/list_changed); form always; url and
  // sampling only with a handler that can answer them.
  const caps: ClientCapabilities = {
    roots: {},
    elicitation: installed.elicitation.url ? { form: {}, url: {} } : { form: {} },
  };
  if (installed.sampling) caps.sampling = {};
  return caps;
}

function mapError(err: JSONRPCErrorObject, method: string): Error {
  // 2026-07-28 uses -32602 for a missing resource and asks clients to accept -32002 too.
  if (
    method === "resources/read" &&
    (err.code === ErrorCode.InvalidParams || err.code === ErrorCode.ResourceNotFound)
  ) {
    return new ResourceNotFoundError(err.message, err.data, err.code);
  }
  const mapped = errorFromWire(err);
  if (mapped instanceof MissingRequiredClientCapabilityError) {
    return new MissingRequiredClientCapabilityError(
      `${err.message} (the server requires client capabilities ${JSON.stringify(mapped.requiredCapabilities)})`,
      err.data,
    );
  }
  return mapped;
}

/**
 * 2026-07-28. Every rule reads the revision it is called on (`this`) or its arguments, so a revision
 * derived with `{ ...revision, version }` speaks its own version.
 */
export const revision: Revision = Object.freeze({
  version: "2026-07-28",
  era: "modern",
  features: MODERN_FEATURES,
  methods: MODERN_METHODS,
  toolHeaders: TOOL_HEADERS,
  server: MODERN_SERVER,
  capabilities,
  handshake(ctx: HandshakeContext) {
    return discoverHandshake(this, ctx);
  },
  shapeRequest(msg: JSONRPCRequest, conn: ConnectionInfo): JSONRPCRequest {
    const own = msg.params?._meta as JSONObject | undefined;
    const meta = own ? { ...own, ...requestMeta(conn) } : requestMeta(conn);
    // withKey: the call's params rarely carry _meta, and adding it to a spread copy is V8's slow path.
    return { jsonrpc: "2.0", id: msg.id, method: msg.method, params: withKey(msg.params, "_meta", meta) };
  },
  headers(msg: JSONRPCMessage, conn: ConnectionInfo) {
    return modernHeaders(msg, conn, this.methods);
  },
  // Closing the request's stream is the cancellation; where a transport has no per-request streams
  // (stdio) the engine sends the notification, which the stdio transport page requires.
  cancel: (): CancelAction => "close-stream",
  // "" is a cursor in 2026-07-28; a cursor that repeats the one just sent still ends the list.
  paginationEnded: (sent: string | undefined, next: unknown): boolean =>
    typeof next !== "string" || next === sent,
  mapError,
  listItemSchemas,
});
