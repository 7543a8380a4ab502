/**
 * A revision when mcpx serves it: how a client of it says who it is, what mcpx may declare to it,
 * how its handshake is answered, how its requests' mirrored headers are checked, and how results
 * and errors are written for it. The gateway asks the revision of each downstream client; it holds
 * no rule of a revision itself.
 */
import { InternalError, McpxError } from "./errors.js";
import type { JSONObject, JSONRPCErrorObject, JSONRPCRequest } from "./jsonrpc.js";
import type { ClientCapabilities, Implementation, LoggingLevel, ServerCapabilities } from "./mcp.js";
import type { ParamHeader } from "./param-headers.js";
import type { Revision } from "./revision.js";

/** One request header by its lower-case name (repeated ones joined with ", "); none over stdio. */
export type HeaderReader = (name: string) => string | undefined;

/** What a revision negotiating with a client is told of what mcpx serves. */
export interface ServeContext {
  /** The revisions mcpx serves on this transport, preferred first. */
  readonly served: readonly Revision[];
  /** Every version mcpx serves, newest first by era: what a -32022 lists and server/discover answers. */
  readonly supported: readonly string[];
  readonly header: HeaderReader;
}

/** A downstream client as a request of it tells: the revision it speaks and what it declared. */
export interface ServedClient {
  revision: Revision;
  capabilities: ClientCapabilities;
  clientInfo?: Implementation;
  /** The level a modern request asks for in its _meta (legacy clients use logging/setLevel). */
  logLevel?: LoggingLevel;
}

/** What the answer to a client's handshake is made of. */
export interface ServerHandshake {
  /** The client's revision (its version is the one answered). */
  revision: Revision;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
  supported: readonly string[];
}

/**
 * The parameter headers of a listed tool, by its name as the client calls it: at once when they
 * are known, a promise when the tool list must be read first (no wait on the call path otherwise).
 */
export type ToolParamHeaders = (tool: string) => readonly ParamHeader[] | Promise<readonly ParamHeader[]>;

export interface ServerFacet {
  /** The server capabilities this revision defines (keys of ServerCapabilities): mcpx declares no other. */
  readonly capabilities: readonly string[];
  /** Whether a sampling/createMessage to a client of this revision may carry tools (sampling.tools). */
  readonly samplingTools: boolean;
  /**
   * Whether this request is how a client of this revision's era makes itself known: legacy, an
   * initialize; modern, any request whose _meta names a protocol version.
   */
  opens(msg: JSONRPCRequest): boolean;
  /**
   * The client a request of this era opens, checked: the revision it gets (legacy: the version it
   * offered if served, else the first served of the era; modern: the version its _meta names, which
   * must be served) and what it declared. Throws the error this era refuses a request with.
   */
  negotiate(msg: JSONRPCRequest, ctx: ServeContext): ServedClient;
  /** The result of the handshake request (legacy initialize, modern server/discover). */
  handshakeResult(handshake: ServerHandshake): JSONObject;
  /**
   * HTTP: the headers a request mirrors, checked against its body; throws (or rejects with)
   * HeaderMismatchError naming the header. Returns a promise only when it must wait for `tools`;
   * a revision that mirrors nothing returns at once.
   */
  checkHeaders(msg: JSONRPCRequest, header: HeaderReader, tools: ToolParamHeaders): void | Promise<void>;
  /** A result as this revision writes it (other revisions' own keys are already gone). */
  shapeResult(method: string, result: JSONObject, serverInfo: Implementation): JSONObject;
  /** The error object a client of this revision is sent for `err`. */
  errorFor(err: unknown): JSONRPCErrorObject;
}

/** An error as it crosses the wire: its own code, or -32603 for anything that is not an McpxError. */
export function wireError(err: unknown): JSONRPCErrorObject {
  if (err instanceof McpxError) return err.toJSONRPC();
  return new InternalError(err instanceof Error ? err.message : String(err)).toJSONRPC();
}
