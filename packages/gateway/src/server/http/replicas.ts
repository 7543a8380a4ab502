/**
 * Replicas of one gateway on a shared store: which replica holds which legacy session, and whether
 * a replica is alive. A replica that opens a legacy session writes a record (space "session", key =
 * the session id) naming itself and the URL the others reach it at, renewed while the session lives
 * and deleted when it ends; it keeps a liveness entry (space "replica") the same way. A replica that
 * gets a request for a session it does not hold proxies it to the holder (proxy.ts); a session whose
 * holder is gone is no session (404), and its client initializes again, as the spec says.
 *
 * Nothing here runs on the per-call path of a session held in this process: the store is read only
 * when a session id is not found locally, and written when a session opens or ends.
 */
import { createHash } from "node:crypto";
import type { Logger, StateStore } from "@mcpx/core";
import { isSessionIdShape, type SessionTransport } from "./legacy-sessions.js";

export const SESSION_SPACE = "session";
export const REPLICA_SPACE = "replica";
/** Marks a request one replica proxied to another: it is answered where it lands, never proxied again. */
export const HOP_HEADER = "mcpx-replica-hop";

/** What the store holds for one legacy session: where it lives, never its credentials. */
export interface SessionRecord {
  /** The holder replica's id. */
  replica: string;
  /** Where the other replicas reach the holder (origin, no path). */
  url: string;
  transport: SessionTransport;
  /** A hash of the session's authorization context (itself a hash of the credentials, or "anonymous"). */
  auth: string;
}

export interface ReplicaLiveness {
  url: string;
  since: string;
}

export interface ReplicaOptions {
  /** The store in use (asked each time: the daemon may put the configured one in place after start). */
  store: () => StateStore;
  /** This replica's id (default `<hostname>:<port>`, settled by `bind`). */
  id?: string;
  /** Where the other replicas reach this one (default `http://<listen host>:<port>`). */
  url?: string;
  /** How long a record and the liveness entry outlive their last renewal (default 15 s). */
  ttlMs?: number;
  log?: Logger;
}

/** The hash of an authorization context a record carries. */
export function authHash(authContext: string): string {
  return createHash("sha256").update(`mcpx-session-auth:${authContext}`).digest("base64url").slice(0, 32);
}

export class Replicas {
  readonly #opts: ReplicaOptions;
  readonly #ttl: number;
  /** Session id → record, for every session this replica holds and has announced. */
  readonly #held = new Map<string, SessionRecord>();
  #id: string | undefined;
  #url: string | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(opts: ReplicaOptions) {
    this.#opts = opts;
    this.#ttl = opts.ttlMs ?? 15_000;
    this.#id = opts.id;
    this.#url = opts.url?.replace(/\/+$/, "");
  }

  /** Whether other replicas may hold sessions (the store is shared): else nothing here does anything. */
  get shared(): boolean {
    return this.#opts.store().shared;
  }

  get id(): string | undefined {
    return this.#id;
  }

  get url(): string | undefined {
    return this.#url;
  }

  get log(): Logger | undefined {
    return this.#opts.log;
  }

  /**
   * The listening address is known: the defaults are settled, the liveness entry written and the
   * renewals started (every third of the TTL, so one late renewal does not lose a record).
   */
  async bind(defaults: { id: string; url: string }): Promise<void> {
    this.#id ??= defaults.id;
    this.#url ??= defaults.url.replace(/\/+$/, "");
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.renew(), Math.max(50, Math.floor(this.#ttl / 3)));
    this.#timer.unref();
    await this.renew();
  }

  /** Writes the liveness entry and every held session's record again, with a fresh TTL. */
  async renew(): Promise<void> {
    if (!this.shared || this.#id === undefined || this.#url === undefined) return;
    const store = this.#opts.store();
    const opts = { ttlMs: this.#ttl };
    try {
      await store.set(REPLICA_SPACE, this.#id, { url: this.#url, since: new Date().toISOString() }, opts);
      await Promise.all([...this.#held].map(([sid, record]) => store.set(SESSION_SPACE, sid, record, opts)));
    } catch (err) {
      this.#opts.log?.warn(`replica ${this.#id}: renewing its entries failed: ${(err as Error).message}`);
    }
  }

  /**
   * A session opened here: its record is written before the client learns its id, so the next
   * request, wherever the balancer sends it, finds the holder. A store that fails leaves the session
   * working here alone (a warning says so).
   */
  async opened(sessionId: string, transport: SessionTransport, authContext: string): Promise<void> {
    if (!this.shared || this.#id === undefined || this.#url === undefined) return;
    const record: SessionRecord = {
      replica: this.#id,
      url: this.#url,
      transport,
      auth: authHash(authContext),
    };
    this.#held.set(sessionId, record);
    try {
      await this.#opts.store().set(SESSION_SPACE, sessionId, record, { ttlMs: this.#ttl });
    } catch (err) {
      this.#opts.log?.warn(
        `replica ${this.#id}: a legacy session's record was not written (${(err as Error).message}); only this replica will know it`,
      );
    }
  }

  /** A session held here ended: its record goes. */
  async closed(sessionId: string): Promise<void> {
    if (!this.#held.delete(sessionId)) return;
    try {
      await this.#opts.store().delete(SESSION_SPACE, sessionId);
    } catch (err) {
      // The record lapses with its TTL.
      this.#opts.log?.warn(
        `replica ${this.#id}: deleting a session record failed: ${(err as Error).message}`,
      );
    }
  }

  /**
   * Where the session with this id lives, when another replica holds it, for these credentials, and
   * is alive; undefined otherwise (the caller answers 404).
   */
  async holder(
    sessionId: string,
    transport: SessionTransport,
    authContext: string,
  ): Promise<SessionRecord | undefined> {
    // A client's header: an id no replica could have made is no session, and costs no store read.
    if (!this.shared || this.#held.has(sessionId) || !isSessionIdShape(sessionId)) return undefined;
    const store = this.#opts.store();
    const record = await store.get<SessionRecord>(SESSION_SPACE, sessionId);
    if (!record || record.replica === this.#id || record.transport !== transport) return undefined;
    if (record.auth !== authHash(authContext)) return undefined;
    const alive = await store.get<ReplicaLiveness>(REPLICA_SPACE, record.replica);
    return alive ? record : undefined;
  }

  /** This replica stops: its liveness entry and its records go, so its sessions are 404 at once. */
  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    if (!this.shared || this.#id === undefined) return;
    const store = this.#opts.store();
    const sids = [...this.#held.keys()];
    this.#held.clear();
    try {
      await Promise.all([
        store.delete(REPLICA_SPACE, this.#id),
        ...sids.map((sid) => store.delete(SESSION_SPACE, sid)),
      ]);
    } catch (err) {
      this.#opts.log?.warn(`replica ${this.#id}: removing its entries failed: ${(err as Error).message}`);
    }
  }
}
