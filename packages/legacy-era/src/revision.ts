import {
  type CancelAction,
  type ConnectionInfo,
  errorFromWire,
  type HandshakeContext,
  type InstalledHandlers,
  type JSONRPCErrorObject,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type ListItemSchemas,
  NO_TOOL_HEADERS,
  type Revision,
  type RevisionFeatures,
} from "@mcpx/core";
import { legacyCapabilities } from "./capabilities.js";
import { LEGACY_BASE } from "./features.js";
import { initializeHandshake } from "./handshake.js";
import { legacyMethods, type MethodAdditions } from "./methods.js";
import { type LegacyServerSpec, legacyServer } from "./server.js";

export interface LegacyRevisionSpec {
  version: string;
  /** How this revision differs from LEGACY_BASE. */
  features: Partial<RevisionFeatures>;
  /** The requests and notifications it adds to 2024-11-05's. */
  methods?: MethodAdditions;
  /** What it adds when mcpx serves it: server capabilities, tools in sampling. */
  server?: LegacyServerSpec;
  /** The revision's list-item schemas (Tool, Prompt, Resource, ResourceTemplate), from its schema.json. */
  listItemSchemas?: ListItemSchemas;
}

/**
 * A revision of the initialize era, from its version and its features. Every rule reads the
 * revision it is called on (`this`), so `{ ...revision, version }` derives a revision that offers,
 * sends and answers its own version.
 */
export function legacyRevision(spec: LegacyRevisionSpec): Revision {
  const revision: Revision = {
    version: spec.version,
    era: "legacy",
    features: Object.freeze({ ...LEGACY_BASE, ...spec.features }),
    methods: legacyMethods(spec.methods),
    toolHeaders: NO_TOOL_HEADERS,
    server: legacyServer(spec.server),
    capabilities(installed: InstalledHandlers) {
      return legacyCapabilities(this.features, installed);
    },
    handshake(ctx: HandshakeContext) {
      return initializeHandshake(this, ctx);
    },
    shapeRequest: (msg: JSONRPCRequest) => msg,
    headers(msg: JSONRPCMessage, conn: ConnectionInfo) {
      // The header did not exist before 2025-06-18, and initialize carries none: nothing is agreed yet.
      if (!this.features.versionHeader || ("method" in msg && msg.method === "initialize")) return undefined;
      return { "MCP-Protocol-Version": conn.version };
    },
    cancel: (method: string): CancelAction => (method === "initialize" ? "never" : "notify"),
    paginationEnded(sent: string | undefined, next: unknown): boolean {
      // Legacy pages never said "" is a cursor, and a server that writes an unset cursor as "" means the end.
      return typeof next !== "string" || next === "" || next === sent;
    },
    // -32002 is ResourceNotFoundError; a legacy -32602 stays invalid params (the request was wrong).
    mapError: (err: JSONRPCErrorObject) => errorFromWire(err),
    ...(spec.listItemSchemas ? { listItemSchemas: spec.listItemSchemas } : {}),
  };
  return Object.freeze(revision);
}
