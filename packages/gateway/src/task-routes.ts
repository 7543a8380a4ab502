/**
 * Which upstream owns a task mcpx relayed (tasks extension, SEP-2663). A downstream client never
 * sees an upstream's task id: it gets one of mcpx's, an opaque random token (128 bits) that maps to
 * the upstream and its id, so a tasks/get, tasks/update or tasks/cancel reaches the owner, and two
 * upstreams may use the same ids. A route is bound to the authorization context that created the
 * task (another caller's tasks/get finds nothing, as for an unknown id) and lives as long as the
 * upstream said it keeps the task (ttlMs; at most `maxTtlMs`). The table is bounded: past
 * `maxRoutes` the oldest route goes first. Held in memory: a task outlives a restart of mcpx
 * upstream, not its route.
 */
import { randomBytes } from "node:crypto";

export interface TaskRoute {
  /** The upstream (server name) that created the task. */
  server: string;
  /** The task id that upstream knows. */
  upstreamId: string;
  authContext: string;
  expiresAt: number;
}

export interface TaskRoutesOptions {
  /** Default 10 000. */
  maxRoutes?: number;
  /** Kept at most this long, and this long when the upstream named no ttlMs (default 24 h). */
  maxTtlMs?: number;
  now?: () => number;
}

export const DEFAULT_MAX_TASK_ROUTES = 10_000;
export const DEFAULT_MAX_TASK_TTL_MS = 24 * 60 * 60_000;

export class TaskRoutes {
  readonly #routes = new Map<string, TaskRoute>();
  readonly #max: number;
  readonly #maxTtl: number;
  readonly #now: () => number;

  constructor(opts: TaskRoutesOptions = {}) {
    this.#max = opts.maxRoutes ?? DEFAULT_MAX_TASK_ROUTES;
    this.#maxTtl = opts.maxTtlMs ?? DEFAULT_MAX_TASK_TTL_MS;
    this.#now = opts.now ?? Date.now;
  }

  get size(): number {
    return this.#routes.size;
  }

  /** A new id for an upstream's task, routed back to it. `ttlMs`: the upstream's (null: unlimited). */
  add(server: string, upstreamId: string, authContext: string, ttlMs: unknown): string {
    const id = randomBytes(16).toString("base64url");
    const ttl =
      typeof ttlMs === "number" && Number.isFinite(ttlMs) && ttlMs > 0
        ? Math.min(ttlMs, this.#maxTtl)
        : this.#maxTtl;
    // Insertion order is age order: the first key is the oldest route.
    while (this.#routes.size >= this.#max) {
      const oldest = this.#routes.keys().next().value;
      if (oldest === undefined) break;
      this.#routes.delete(oldest);
    }
    this.#routes.set(id, { server, upstreamId, authContext, expiresAt: this.#now() + ttl });
    return id;
  }

  /** The route of one of mcpx's task ids for this caller; undefined when unknown, expired or another's. */
  get(id: unknown, authContext: string): TaskRoute | undefined {
    if (typeof id !== "string") return undefined;
    const route = this.#routes.get(id);
    if (!route) return undefined;
    if (route.expiresAt <= this.#now()) {
      this.#routes.delete(id);
      return undefined;
    }
    return route.authContext === authContext ? route : undefined;
  }

  /** The routes of an upstream that is gone from the config. */
  dropServer(server: string): void {
    for (const [id, route] of this.#routes) if (route.server === server) this.#routes.delete(id);
  }
}
