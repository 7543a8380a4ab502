import type { MethodKind } from "./catalog.js";
import type { RevisionSchema } from "./revision-schema.js";
import type { SchemaNode } from "./schema-node.js";

/**
 * The schema nodes that together describe a request or notification in a revision. The method's own
 * definition is not enough: up to 2025-06-18 it leaves `jsonrpc`, `id` and `params._meta` to the
 * JSON-RPC envelope and the generic Request, and from 2025-11-25 generic params are a definition of their
 * own (RequestParams). Taking all of them means a revision "declares" every key any of them declares,
 * and a revision without the method still has a counterpart for `params._meta`.
 */
export function messageNodes(
  rs: RevisionSchema,
  kind: MethodKind,
  definition: string | undefined,
): SchemaNode[] {
  const names =
    kind === "request"
      ? ["JSONRPCRequest", "Request", definition]
      : ["JSONRPCNotification", "Notification", definition];
  const nodes = defined(rs, names);
  const params = rs.def(kind === "request" ? "RequestParams" : "NotificationParams");
  if (params) {
    const schema = {
      type: "object",
      properties: {
        params: { $ref: `#/${rs.defsKey}/${kind === "request" ? "RequestParams" : "NotificationParams"}` },
      },
    };
    nodes.push({ schema, ptr: undefined });
  }
  return nodes;
}

/** A result: its own definition and the generic Result every result extends. */
export function resultNodes(rs: RevisionSchema, definition: string | undefined): SchemaNode[] {
  return defined(rs, [definition, "Result"]);
}

/** The envelope of a successful response (renamed in 2025-11-25, when JSONRPCResponse became a union). */
export function resultEnvelope(rs: RevisionSchema): string {
  return rs.defs.JSONRPCResultResponse ? "JSONRPCResultResponse" : "JSONRPCResponse";
}

export function errorEnvelope(rs: RevisionSchema): string {
  return rs.defs.JSONRPCErrorResponse ? "JSONRPCErrorResponse" : "JSONRPCError";
}

/** Whether the revision lets a frame carry a JSON array of messages (2025-03-26 only). */
export function hasBatches(rs: RevisionSchema): boolean {
  return rs.defs.JSONRPCBatchRequest !== undefined || rs.defs.JSONRPCBatchResponse !== undefined;
}

function defined(rs: RevisionSchema, names: readonly (string | undefined)[]): SchemaNode[] {
  const nodes: SchemaNode[] = [];
  for (const name of names) {
    const node = name === undefined ? undefined : rs.def(name);
    if (node) nodes.push(node);
  }
  return nodes;
}
