/**
 * subscriptions/listen as mcpx serves it: which notifications a listen filter asks for, and the
 * acknowledgement (mcpx honours every kind; resource URIs it cannot route are left out).
 */
import { type JSONObject, MetaKey, type RequestId } from "@mcpx/core";

export interface ListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

const BY_METHOD: Record<string, keyof ListenFilter> = {
  "notifications/tools/list_changed": "toolsListChanged",
  "notifications/prompts/list_changed": "promptsListChanged",
  "notifications/resources/list_changed": "resourcesListChanged",
};

export function parseFilter(params: JSONObject | undefined): ListenFilter {
  const n = (params?.notifications ?? {}) as JSONObject;
  const f: ListenFilter = {};
  for (const key of ["toolsListChanged", "promptsListChanged", "resourcesListChanged"] as const) {
    if (n[key] === true) f[key] = true;
  }
  if (Array.isArray(n.resourceSubscriptions)) {
    f.resourceSubscriptions = n.resourceSubscriptions.filter((u): u is string => typeof u === "string");
  }
  return f;
}

/** Whether a listen with this filter receives this notification. */
export function wants(filter: ListenFilter, method: string, params: JSONObject): boolean {
  const key = Object.hasOwn(BY_METHOD, method) ? BY_METHOD[method] : undefined;
  if (key) return filter[key] === true;
  if (method === "notifications/resources/updated") {
    return typeof params.uri === "string" && (filter.resourceSubscriptions ?? []).includes(params.uri);
  }
  return false;
}

/** A notification on a listen stream, tagged with the listen's id. */
export function tagged(method: string, params: JSONObject, listenId: RequestId) {
  const meta = (params._meta as JSONObject | undefined) ?? {};
  return {
    jsonrpc: "2.0" as const,
    method,
    params: { ...params, _meta: { ...meta, [MetaKey.subscriptionId]: listenId } },
  };
}

export function acknowledgement(filter: ListenFilter, listenId: RequestId) {
  return tagged(
    "notifications/subscriptions/acknowledged",
    { notifications: filter as JSONObject },
    listenId,
  );
}
