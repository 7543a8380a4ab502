import type { RevisionSchema } from "./revision-schema.js";
import { isRecord, propertiesOf, type SchemaObject } from "./schema-node.js";

/** Who sends a frame: the client's requests are ClientRequest members, the server's ServerRequest members. */
export type Sender = "client" | "server";
export type MethodKind = "request" | "notification";

const UNION: Record<Sender, Record<MethodKind, string>> = {
  client: { request: "ClientRequest", notification: "ClientNotification" },
  server: { request: "ServerRequest", notification: "ServerNotification" },
};

/**
 * What a revision has, read from its schema: a method belongs to a sender when it is a member of that
 * sender's union (ClientRequest, ServerNotification, ...). Absence from the union is the answer
 * "not in this revision"; there is no list of methods to keep in step with the schemas.
 */
export interface MethodCatalog {
  /** The definition for `method` sent by `sender`, or undefined when the revision does not have it. */
  lookup(sender: Sender, kind: MethodKind, method: string): string | undefined;
  /** Any definition whose `method` const is `method`, whoever sends it (used to line revisions up). */
  anyDefinition(method: string): string | undefined;
  /** The result definition answering `method`, by the schema's naming (CallToolRequest → CallToolResult). */
  resultDefinition(method: string, result: unknown): string;
}

const catalogs = new Map<string, MethodCatalog>();

export function methodCatalog(rs: RevisionSchema): MethodCatalog {
  let catalog = catalogs.get(rs.revision);
  if (!catalog) {
    catalog = build(rs);
    catalogs.set(rs.revision, catalog);
  }
  return catalog;
}

function build(rs: RevisionSchema): MethodCatalog {
  const members = new Map<string, Map<string, string>>();
  for (const sender of ["client", "server"] as const) {
    for (const kind of ["request", "notification"] as const) {
      members.set(`${sender}/${kind}`, unionMembers(rs, UNION[sender][kind]));
    }
  }
  const everywhere = new Map<string, string>();
  for (const [name, schema] of Object.entries(rs.defs)) {
    const method = methodConst(schema);
    // Union members first: 2026-07-28 defines notifications/cancelled twice (ClientNotification inline too).
    if (method !== undefined && !everywhere.has(method)) everywhere.set(method, name);
  }
  for (const byMethod of members.values())
    for (const [method, name] of byMethod) everywhere.set(method, name);

  const lookup = (sender: Sender, kind: MethodKind, method: string) =>
    members.get(`${sender}/${kind}`)?.get(method);
  return {
    lookup,
    anyDefinition: (method) => everywhere.get(method),
    resultDefinition(method, result) {
      // 2026-07-28: any request may be answered "come back with input" instead of its own result.
      if (isRecord(result) && result.resultType === "input_required" && rs.defs.InputRequiredResult) {
        return "InputRequiredResult";
      }
      const request = everywhere.get(method);
      const named = request?.replace(/Request$/, "Result");
      if (named && rs.defs[named]) return named;
      // ping, logging/setLevel, resources/subscribe... answer with an empty result.
      return rs.defs.EmptyResult ? "EmptyResult" : "Result";
    },
  };
}

function unionMembers(rs: RevisionSchema, unionName: string): Map<string, string> {
  const out = new Map<string, string>();
  const union = rs.defs[unionName];
  if (!union) return out;
  const own = methodConst(union);
  // A union of one is written as the member itself (2026-07-28 ClientNotification).
  if (own !== undefined) out.set(own, unionName);
  const branches = Array.isArray(union.anyOf) ? union.anyOf : [];
  for (const branch of branches) {
    const name = isRecord(branch) && typeof branch.$ref === "string" ? rs.refName(branch.$ref) : undefined;
    const method = name === undefined ? undefined : methodConst(rs.defs[name]);
    if (name !== undefined && method !== undefined) out.set(method, name);
  }
  return out;
}

function methodConst(schema: SchemaObject | undefined): string | undefined {
  if (!schema) return undefined;
  const method = propertiesOf({ schema, ptr: undefined }).method;
  return isRecord(method) && typeof method.const === "string" ? method.const : undefined;
}
