/**
 * Result caching (2026-07-28 server/utilities/caching.mdx): complete results of the cacheable
 * methods are kept for ttlMs (absent or negative is 0: not kept), keyed by method and the params
 * that shape the result. A private entry is served only to the authorization context that fetched
 * it. input_required results and retries carrying inputResponses or requestState are never cached.
 * A list_changed or resources/updated notification invalidates at once.
 */
import { CACHEABLE_METHODS, type JSONObject, type Result } from "@mcpx/core";

const INVALIDATED_BY: Record<string, string[]> = {
  "notifications/tools/list_changed": ["tools/list"],
  "notifications/prompts/list_changed": ["prompts/list"],
  "notifications/resources/list_changed": ["resources/list", "resources/templates/list"],
};

interface Entry {
  result: Result;
  expires: number;
  scope: "public" | "private";
  auth: string;
  method: string;
  uri: string | undefined;
}

/** Where a private entry of one authorization context is kept. */
function privateKey(key: string, auth: string): string {
  return `${key}\u0000private\u0000${auth}`;
}

export class ResultCache {
  readonly #entries = new Map<string, Entry>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  static key(method: string, params: JSONObject | undefined): string | undefined {
    if (!CACHEABLE_METHODS.has(method)) return undefined;
    if (params && ("inputResponses" in params || "requestState" in params)) return undefined;
    const cursor = typeof params?.cursor === "string" ? params.cursor : "";
    const uri = typeof params?.uri === "string" ? params.uri : "";
    return `${method}\u0000${cursor}\u0000${uri}`;
  }

  /** The caller's own private entry for `key`, or else the public one. */
  get(key: string, auth: string): Result | undefined {
    return this.#fresh(privateKey(key, auth)) ?? this.#fresh(key);
  }

  #fresh(k: string): Result | undefined {
    const e = this.#entries.get(k);
    if (!e) return undefined;
    if (this.#now() >= e.expires) {
      this.#entries.delete(k);
      return undefined;
    }
    return structuredClone(e.result);
  }

  set(key: string, method: string, params: JSONObject | undefined, result: Result, auth: string): void {
    if (result.resultType === "input_required") return;
    const ttl = typeof result.ttlMs === "number" && result.ttlMs > 0 ? result.ttlMs : 0;
    if (ttl === 0) return;
    const scope = result.cacheScope === "public" ? "public" : "private";
    // A private entry is kept per authorization context, so one context's read never takes the
    // place of another's; a newer answer for the key supersedes its public entry either way.
    if (scope === "private") this.#entries.delete(key);
    this.#entries.set(scope === "private" ? privateKey(key, auth) : key, {
      result: structuredClone(result),
      expires: this.#now() + ttl,
      scope,
      auth,
      method,
      uri: typeof params?.uri === "string" ? params.uri : undefined,
    });
  }

  /** Drops what a notification says has changed. */
  invalidate(method: string, params: JSONObject): void {
    const methods = Object.hasOwn(INVALIDATED_BY, method) ? INVALIDATED_BY[method] : undefined;
    if (methods) {
      for (const [k, e] of this.#entries) if (methods.includes(e.method)) this.#entries.delete(k);
      return;
    }
    if (method === "notifications/resources/updated") {
      for (const [k, e] of this.#entries)
        if (e.method === "resources/read" && e.uri === params.uri) this.#entries.delete(k);
    }
  }

  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}
