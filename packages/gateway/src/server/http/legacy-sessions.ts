/**
 * Legacy sessions over HTTP (Streamable HTTP 2025-03-26 … 2025-11-25, and 2024-11-05 HTTP+SSE):
 * each is a Peer of the gateway from initialize until DELETE, the end of its SSE connection, or
 * idle expiry. The session id is cryptographically random visible ASCII and is never used as the
 * peer's id (peer ids appear in logs; the session id is a credential).
 */
import { randomBytes } from "node:crypto";
import {
  type ClientCapabilities,
  ErrorCode,
  type Implementation,
  type JSONObject,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type LoggingLevel,
  type RequestId,
} from "@mcpx/core";
import type { Gateway } from "../../gateway.js";
import { anySignal, ClientRequests, type FrameWriter } from "../client-requests.js";
import type { CallContext, Peer } from "../peer.js";
import { callContext, progressTokenOf } from "./context.js";
import { ReplayStream } from "./replay-stream.js";
import { HttpRefusal } from "./reply.js";

export type SessionTransport = "streamable" | "sse";

/** The key of a session's standalone GET stream; POST streams are numbered from 1. */
export const GET_STREAM = "0";

export class LegacySession implements Peer {
  readonly id: string;
  readonly sessionId: string;
  readonly era = "legacy" as const;
  readonly transport: SessionTransport;
  readonly authContext: string;
  version = "";
  capabilities: ClientCapabilities = {};
  clientInfo?: Implementation;
  logLevel?: LoggingLevel;
  initialized = false;
  lastSeen = Date.now();
  readonly inFlight = new Map<RequestId, AbortController>();
  /** Streamable HTTP: the session's resumable streams, by key. */
  readonly streams = new Map<string, ReplayStream>();
  /** Where notifications outside any request go; false when nothing took it now. */
  channel: ((frame: JSONRPCMessage) => boolean) | undefined;
  /** What mcpx asked the client (elicitation, sampling) and awaits its response to. */
  readonly clientRequests = new ClientRequests();
  #nextStream = 1;

  constructor(id: string, transport: SessionTransport, authContext: string) {
    this.id = id;
    this.sessionId = randomBytes(24).toString("base64url");
    this.transport = transport;
    this.authContext = authContext;
  }

  notify(method: string, params: JSONObject): boolean {
    return this.channel?.({ jsonrpc: "2.0", method, params }) ?? false;
  }

  /** Whether something still holds the session open (expiry waits for it). */
  get busy(): boolean {
    if (this.inFlight.size > 0) return true;
    // HTTP+SSE: the session lives as long as its stream.
    if (this.transport === "sse") return this.channel !== undefined;
    return this.streams.get(GET_STREAM)?.attached ?? false;
  }

  /** A new resumable stream for a POST's answer; the oldest undelivered ones go past `retain`. */
  openStream(capacity: number, retain: number): ReplayStream {
    const stream = new ReplayStream(String(this.#nextStream++), capacity);
    stream.onDelivered = () => this.streams.delete(stream.key);
    this.streams.set(stream.key, stream);
    if (this.streams.size > retain + 1) {
      for (const [key, s] of this.streams) {
        if (key === GET_STREAM || key === stream.key || s.attached) continue;
        s.close();
        this.streams.delete(key);
        if (this.streams.size <= retain + 1) break;
      }
    }
    return stream;
  }

  /** A client notification: initialized, or the cancellation of an in-flight request. */
  notification(method: string, params: JSONObject | undefined): void {
    if (method === "notifications/initialized") this.initialized = true;
    else if (method === "notifications/cancelled") {
      const reason = typeof params?.reason === "string" ? params.reason : "cancelled by the client";
      this.inFlight.get(params?.requestId as RequestId)?.abort(reason);
    }
  }

  /**
   * Answers one request through the protocol; undefined when the client cancelled it (a cancelled
   * request gets no response). `ask` carries questions related to it to the client, where it can.
   */
  async answer(
    gateway: Gateway,
    msg: JSONRPCRequest,
    notify: (method: string, params: JSONObject) => void,
    ask?: FrameWriter,
  ): Promise<JSONRPCResponse | undefined> {
    const abort = new AbortController();
    this.inFlight.set(msg.id, abort);
    try {
      const request: CallContext["request"] = ask
        ? (method, params, opts) =>
            this.clientRequests.send(method, params, ask, anySignal(abort.signal, opts?.signal))
        : undefined;
      const ctx = callContext(this, abort.signal, progressTokenOf(msg), notify, request);
      const response = await gateway.protocol.respond(msg, ctx);
      return abort.signal.aborted ? undefined : response;
    } finally {
      if (this.inFlight.get(msg.id) === abort) this.inFlight.delete(msg.id);
      this.lastSeen = Date.now();
    }
  }

  /** Ends everything the session holds. */
  end(): void {
    for (const a of this.inFlight.values()) a.abort("the session ended");
    this.inFlight.clear();
    for (const s of this.streams.values()) s.close();
    this.streams.clear();
    this.channel = undefined;
    this.clientRequests.closeAll("the session ended");
  }
}

export interface SessionTableOptions {
  idleMs: number;
  maxSessions: number;
}

/** The live sessions, by session id, with idle expiry swept on a timer. */
export class SessionTable {
  readonly #gateway: Gateway;
  readonly #opts: SessionTableOptions;
  readonly #byId = new Map<string, LegacySession>();
  readonly #sweeper: NodeJS.Timeout;
  #seq = 0;

  constructor(gateway: Gateway, opts: SessionTableOptions) {
    this.#gateway = gateway;
    this.#opts = opts;
    this.#sweeper = setInterval(() => this.#sweep(), Math.max(50, Math.min(opts.idleMs / 2, 60_000)));
    this.#sweeper.unref();
  }

  get size(): number {
    return this.#byId.size;
  }

  create(transport: SessionTransport, authContext: string): LegacySession {
    if (this.#byId.size >= this.#opts.maxSessions) {
      throw new HttpRefusal(
        503,
        ErrorCode.InvalidRequest,
        `Service Unavailable: mcpx already holds ${this.#opts.maxSessions} sessions`,
        { headers: { "retry-after": "5" } },
      );
    }
    const session = new LegacySession(`http-${transport}-${++this.#seq}`, transport, authContext);
    this.#byId.set(session.sessionId, session);
    return session;
  }

  get(sessionId: string | undefined, transport: SessionTransport): LegacySession | undefined {
    if (sessionId === undefined) return undefined;
    const session = this.#byId.get(sessionId);
    return session?.transport === transport ? session : undefined;
  }

  /** The client's session becomes a peer of the gateway (after initialize). */
  join(session: LegacySession): void {
    this.#gateway.addPeer(session);
  }

  async close(session: LegacySession): Promise<void> {
    if (this.#byId.get(session.sessionId) !== session) return;
    this.#byId.delete(session.sessionId);
    session.end();
    await this.#gateway.removePeer(session);
  }

  async closeAll(): Promise<void> {
    clearInterval(this.#sweeper);
    await Promise.all([...this.#byId.values()].map((s) => this.close(s)));
  }

  #sweep(): void {
    const before = Date.now() - this.#opts.idleMs;
    for (const s of this.#byId.values()) {
      if (s.lastSeen < before && !s.busy) void this.close(s);
    }
  }
}
