import type { MethodSpec, MethodTable } from "@mcpx/core";

const client: MethodSpec = Object.freeze({ from: "client" });
const server: MethodSpec = Object.freeze({ from: "server" });
const both: MethodSpec = Object.freeze({ from: "both" });

/**
 * The methods of 2024-11-05, the first revision (its schema.json): what every initialize-era
 * revision has. A later one states what it adds.
 */
export const LEGACY_REQUESTS: Readonly<Record<string, MethodSpec>> = Object.freeze({
  initialize: client,
  ping: both,
  "logging/setLevel": client,
  "tools/list": client,
  "tools/call": Object.freeze({ from: "client", names: "name" }),
  "prompts/list": client,
  "prompts/get": Object.freeze({ from: "client", names: "name" }),
  "resources/list": client,
  "resources/templates/list": client,
  "resources/read": Object.freeze({ from: "client", names: "uri" }),
  "resources/subscribe": client,
  "resources/unsubscribe": client,
  "completion/complete": client,
  "sampling/createMessage": server,
  "roots/list": server,
});

export const LEGACY_NOTIFICATIONS: Readonly<Record<string, MethodSpec>> = Object.freeze({
  "notifications/initialized": client,
  "notifications/cancelled": both,
  "notifications/progress": both,
  "notifications/message": server,
  "notifications/tools/list_changed": server,
  "notifications/prompts/list_changed": server,
  "notifications/resources/list_changed": server,
  "notifications/resources/updated": server,
  "notifications/roots/list_changed": client,
});

/** What a revision adds to 2024-11-05's methods. */
export interface MethodAdditions {
  requests?: Readonly<Record<string, MethodSpec>>;
  notifications?: Readonly<Record<string, MethodSpec>>;
}

/**
 * The method table of an initialize-era revision. None has result or _meta keys of its own: a
 * legacy client is sent what it was always sent, less the keys later revisions define.
 */
export function legacyMethods(added: MethodAdditions = {}): MethodTable {
  return Object.freeze({
    requests: Object.freeze({ ...LEGACY_REQUESTS, ...added.requests }),
    notifications: Object.freeze({ ...LEGACY_NOTIFICATIONS, ...added.notifications }),
    ownKeys: Object.freeze({ result: Object.freeze([]), meta: Object.freeze([]) }),
  });
}
