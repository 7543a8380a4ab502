/**
 * A revision's method table: which requests and notifications exist in it and who sends each, which
 * parameter names what a request acts on, and the result and `_meta` keys that are the revision's
 * own. A method a revision lacks is refused by its absence here (-32601), never by a test of the
 * version, as the official SDK v2 does with its per-revision registries.
 */
import type { JSONObject } from "./jsonrpc.js";

/** Who sends a method: the client, the server, or either. */
export type Sender = "client" | "server" | "both";

export interface MethodSpec {
  readonly from: Sender;
  /**
   * The parameter naming what the request acts on (tools/call: `name`, resources/read: `uri`): the
   * value mirrored into Mcp-Name where the revision mirrors headers, and what an input_required
   * round is bound to where the revision has them.
   */
  readonly names?: "name" | "uri" | "taskId";
}

export interface MethodTable {
  readonly requests: Readonly<Record<string, MethodSpec>>;
  readonly notifications: Readonly<Record<string, MethodSpec>>;
  /**
   * Result keys and `_meta` keys this revision defines and others do not: a result for a client of
   * another revision goes without them.
   */
  readonly ownKeys: { readonly result: readonly string[]; readonly meta: readonly string[] };
}

function sentBy(spec: MethodSpec | undefined, from: "client" | "server"): MethodSpec | undefined {
  return spec && (spec.from === from || spec.from === "both") ? spec : undefined;
}

/** The request as the table has it, if `from` may send it (own keys only: "constructor" is no method). */
export function requestOf(
  table: MethodTable,
  method: string,
  from: "client" | "server",
): MethodSpec | undefined {
  return sentBy(Object.hasOwn(table.requests, method) ? table.requests[method] : undefined, from);
}

/** The notification as the table has it, if `from` may send it. */
export function notificationOf(
  table: MethodTable,
  method: string,
  from: "client" | "server",
): MethodSpec | undefined {
  return sentBy(Object.hasOwn(table.notifications, method) ? table.notifications[method] : undefined, from);
}

/** The keys a client of one revision must not be sent: the other revisions' own, less its own. */
export interface ForeignKeys {
  readonly result: readonly string[];
  readonly meta: readonly string[];
}

export function foreignKeys(mine: MethodTable, others: readonly MethodTable[]): ForeignKeys {
  const result = new Set<string>();
  const meta = new Set<string>();
  for (const t of others) {
    for (const k of t.ownKeys.result) if (!mine.ownKeys.result.includes(k)) result.add(k);
    for (const k of t.ownKeys.meta) if (!mine.ownKeys.meta.includes(k)) meta.add(k);
  }
  return { result: [...result], meta: [...meta] };
}

/**
 * The result without the foreign keys (an emptied `_meta` goes too). The result itself when it has
 * none of them, which is the common case: nothing is copied on the per-call path then.
 */
export function withoutKeys(result: JSONObject, foreign: ForeignKeys): JSONObject {
  const raw = result._meta;
  // An upstream's _meta that is not an object is passed on as it came.
  const meta =
    typeof raw === "object" && raw !== null && !Array.isArray(raw) ? (raw as JSONObject) : undefined;
  const inResult = hasAny(result, foreign.result);
  const inMeta = meta !== undefined && hasAny(meta, foreign.meta);
  if (!inResult && !inMeta) return result;
  // Copied key by key, never deleted from a copy (a delete turns the object into a slow dictionary).
  const out: JSONObject = {};
  for (const k of Object.keys(result)) {
    if (foreign.result.includes(k) || (inMeta && k === "_meta")) continue;
    out[k] = result[k];
  }
  if (inMeta) {
    const kept: JSONObject = {};
    for (const k of Object.keys(meta)) if (!foreign.meta.includes(k)) kept[k] = meta[k];
    if (Object.keys(kept).length > 0) out._meta = kept;
  }
  return out;
}

/** Whether `obj` has any of `keys` (a plain loop: this runs on every result a client is sent). */
function hasAny(obj: JSONObject, keys: readonly string[]): boolean {
  for (const k of keys) if (k in obj) return true;
  return false;
}
