import { MetaKey, type MethodSpec, type MethodTable, TASK_METHODS } from "@mcpx/core";

const client: MethodSpec = Object.freeze({ from: "client" });
const server: MethodSpec = Object.freeze({ from: "server" });

/**
 * The methods of 2026-07-28 (its schema.json). No initialize, ping, logging/setLevel or
 * resources/(un)subscribe: a client sending them is answered -32601 by their absence. The server
 * sends no requests: elicitation/create, sampling/createMessage and roots/list travel inside an
 * input_required result (mrtr.mdx), not as JSON-RPC requests, so they are not here.
 * The tasks extension's requests (SEP-2663) ride this wire and mirror their taskId into Mcp-Name
 * (its §Routing Headers), so they are listed; who may use them (a request that declared the
 * extension) is the gateway's check, and tasks/result and tasks/list stay absent.
 */
export const MODERN_METHODS: MethodTable = Object.freeze({
  requests: Object.freeze({
    "server/discover": client,
    "tools/list": client,
    "tools/call": Object.freeze({ from: "client", names: "name" }),
    "prompts/list": client,
    "prompts/get": Object.freeze({ from: "client", names: "name" }),
    "resources/list": client,
    "resources/templates/list": client,
    "resources/read": Object.freeze({ from: "client", names: "uri" }),
    "completion/complete": client,
    "subscriptions/listen": client,
    ...TASK_METHODS,
  }),
  notifications: Object.freeze({
    // Over stdio only: over HTTP a client cancels by closing the response stream.
    "notifications/cancelled": client,
    "notifications/progress": server,
    "notifications/message": server,
    "notifications/tools/list_changed": server,
    "notifications/prompts/list_changed": server,
    "notifications/resources/list_changed": server,
    "notifications/resources/updated": server,
    "notifications/subscriptions/acknowledged": server,
  }),
  // What a result of 2026-07-28 carries that no initialize-era client knows (schema.json: Result,
  // CacheableResult; serverInfo in _meta, PR #3002).
  ownKeys: Object.freeze({
    result: Object.freeze(["resultType", "ttlMs", "cacheScope"]),
    meta: Object.freeze([MetaKey.serverInfo]),
  }),
});
