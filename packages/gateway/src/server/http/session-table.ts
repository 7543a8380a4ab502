/**
 * The live legacy sessions, by session id, and the bounds that keep any local process from
 * denying service to every legacy client: a session that never finishes its handshake is reaped,
 * sessions are bounded in all and per client address, and when a bound is reached the least
 * recently used idle session makes room before anyone is refused.
 */
import type { IncomingMessage } from "node:http";
import { ErrorCode } from "@mcpx/core";
import type { Gateway } from "../../gateway.js";
import { LegacySession, type SessionTransport } from "./legacy-sessions.js";
import type { Replicas } from "./replicas.js";
import { HttpRefusal } from "./reply.js";

export interface SessionTableOptions {
  /** A session with no request in flight and no open stream ends after this long unused. */
  idleMs: number;
  /**
   * A session that has not sent notifications/initialized ends after this long unused (from its
   * opening, or its last request: a client that sends requests before it is not abandoned).
   */
  handshakeMs: number;
  /** Sessions held at once. */
  maxSessions: number;
  /** Sessions held at once for one client address. */
  maxPerClient: number;
  /** The replica set on a shared store, where each session's holder is recorded. */
  replicas?: Replicas;
}

/** Which bound made room or refused: named in events and errors as its config key. */
export type SessionBound = "max" | "perClient";

/** The client's address as its socket sees it (an IPv4 peer of a dual-stack socket without ::ffff:). */
export function clientAddress(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? "unknown";
  return address.startsWith("::ffff:") ? address.slice(7) : address;
}

export class SessionTable {
  readonly #gateway: Gateway;
  readonly #opts: SessionTableOptions;
  readonly #byId = new Map<string, LegacySession>();
  readonly #perClient = new Map<string, number>();
  readonly #sweeper: NodeJS.Timeout;
  #seq = 0;

  constructor(gateway: Gateway, opts: SessionTableOptions) {
    this.#gateway = gateway;
    this.#opts = opts;
    const every = Math.min(opts.handshakeMs / 2, opts.idleMs / 2, 60_000);
    this.#sweeper = setInterval(() => this.#sweep(), Math.max(50, every));
    this.#sweeper.unref();
  }

  get size(): number {
    return this.#byId.size;
  }

  /** A new session for `client`, after making room if a bound is reached; 503 when none can be made. */
  create(transport: SessionTransport, authContext: string, client: string): LegacySession {
    if (this.#count(client) >= this.#opts.maxPerClient) this.#makeRoom("perClient", client);
    if (this.#byId.size >= this.#opts.maxSessions) this.#makeRoom("max", client);
    const session = new LegacySession(`http-${transport}-${++this.#seq}`, transport, authContext, client);
    this.#byId.set(session.sessionId, session);
    this.#perClient.set(client, this.#count(client) + 1);
    return session;
  }

  /**
   * The session with this id, of this transport, opened with the same credentials: a session id
   * presented with other credentials (or none) is no session (404), so knowing an id is not enough
   * to use it (2025-11-25 basic/transports.mdx §Session Management → security_best_practices, Session
   * Hijacking: bind the session id to the user).
   */
  get(
    sessionId: string | undefined,
    transport: SessionTransport,
    authContext: string,
  ): LegacySession | undefined {
    if (sessionId === undefined) return undefined;
    const session = this.#byId.get(sessionId);
    return session?.transport === transport && session.authContext === authContext ? session : undefined;
  }

  /**
   * Records the session as held here (on a shared store), before its client learns its id: the
   * client's next request finds its holder whichever replica it reaches.
   */
  async announce(session: LegacySession): Promise<void> {
    await this.#opts.replicas?.opened(session.sessionId, session.transport, session.authContext);
  }

  /** Whether a session with this id is held here (whatever its transport and credentials). */
  holds(sessionId: string): boolean {
    return this.#byId.has(sessionId);
  }

  /** The client's session becomes a peer of the gateway (after initialize). */
  join(session: LegacySession): void {
    this.#gateway.addPeer(session);
  }

  async close(session: LegacySession): Promise<void> {
    if (this.#byId.get(session.sessionId) !== session) return;
    this.#byId.delete(session.sessionId);
    const left = this.#count(session.client) - 1;
    if (left > 0) this.#perClient.set(session.client, left);
    else this.#perClient.delete(session.client);
    session.end();
    await Promise.all([this.#opts.replicas?.closed(session.sessionId), this.#gateway.removePeer(session)]);
  }

  async closeAll(): Promise<void> {
    clearInterval(this.#sweeper);
    await Promise.all([...this.#byId.values()].map((s) => this.close(s)));
  }

  #count(client: string): number {
    return this.#perClient.get(client) ?? 0;
  }

  /** Evicts the session to give up first under `bound`, or refuses with 503 naming the bound. */
  #makeRoom(bound: SessionBound, client: string): void {
    const victim = this.#firstToGo(bound === "perClient" ? client : undefined);
    if (victim) {
      this.#evict(victim, "lru", bound);
      return;
    }
    const limit = bound === "max" ? this.#opts.maxSessions : this.#opts.maxPerClient;
    this.#gateway.emit({ type: "session.refused", client, bound, limit });
    const holder = bound === "max" ? "mcpx" : client;
    throw new HttpRefusal(
      503,
      ErrorCode.InvalidRequest,
      `Service Unavailable: ${holder} already holds ${limit} legacy sessions (listen.sessions.${bound}) and every one is in use; retry later`,
      { headers: { "retry-after": "5" }, data: { bound: `listen.sessions.${bound}`, limit } },
    );
  }

  /**
   * The idle session to give up first (of `client`, if given): one that never finished its
   * handshake, else the least recently used. A session in use is never given up.
   */
  #firstToGo(client: string | undefined): LegacySession | undefined {
    let best: LegacySession | undefined;
    for (const s of this.#byId.values()) {
      if ((client !== undefined && s.client !== client) || s.inUse) continue;
      if (
        !best ||
        (best.initialized && !s.initialized) ||
        (best.initialized === s.initialized && s.lastUse < best.lastUse)
      ) {
        best = s;
      }
    }
    return best;
  }

  #evict(session: LegacySession, reason: "handshake-timeout" | "idle-timeout" | "lru", bound?: SessionBound) {
    // The peer id, never the session id: that is a credential.
    this.#gateway.emit({
      type: "session.evicted",
      session: session.id,
      client: session.client,
      reason,
      ...(bound ? { bound } : {}),
    });
    void this.close(session);
  }

  #sweep(): void {
    const now = Date.now();
    for (const s of this.#byId.values()) {
      if (s.inUse) continue;
      if (!s.initialized && now - s.lastSeen >= this.#opts.handshakeMs) this.#evict(s, "handshake-timeout");
      else if (now - s.lastSeen >= this.#opts.idleMs) this.#evict(s, "idle-timeout");
    }
  }
}
