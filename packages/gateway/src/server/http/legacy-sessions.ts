/**
 * A legacy session over HTTP (Streamable HTTP 2025-03-26 … 2025-11-25, and 2024-11-05 HTTP+SSE):
 * a Peer of the gateway from initialize until DELETE, the end of its SSE connection, or the session
 * table closing it (session-table.ts). The session id is cryptographically random visible ASCII and
 * is never used as the peer's id (peer ids appear in logs; the session id is a credential).
 */
import { randomBytes } from "node:crypto";
import {
  Cancellation,
  type ClientCapabilities,
  type Implementation,
  type JSONObject,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type LoggingLevel,
  type RequestId,
  type Revision,
} from "@mcpx/core";
import type { Gateway } from "../../gateway.js";
import { anySignal, ClientRequests, type FrameWriter } from "../client-requests.js";
import type { CallContext, Peer } from "../peer.js";
import { callContext, progressTokenOf } from "./context.js";
import { ReplayStream } from "./replay-stream.js";

export type SessionTransport = "streamable" | "sse";

/** The key of a session's standalone GET stream; POST streams are numbered from 1. */
export const GET_STREAM = "0";

/** A session id: 24 random bytes, base64url (32 characters). */
function newSessionId(): string {
  return randomBytes(24).toString("base64url");
}

/** Whether a presented id has the shape of the ids mcpx makes (anything else names no session). */
export function isSessionIdShape(id: string): boolean {
  return id.length === 32 && /^[A-Za-z0-9_-]+$/.test(id);
}

/** Orders uses across sessions (least recently used first), where Date.now() would tie. */
let useClock = 0;

export class LegacySession implements Peer {
  readonly id: string;
  readonly sessionId: string;
  readonly transport: SessionTransport;
  readonly authContext: string;
  /** The client's address as the socket saw it: sessions are bounded per address. */
  readonly client: string;
  /** The revision initialize settled; none before it (HTTP+SSE opens the session first). */
  revision: Revision | undefined;
  capabilities: ClientCapabilities = {};
  clientInfo?: Implementation;
  logLevel?: LoggingLevel;
  initialized = false;
  /** When the client last used the session (opened it, posted, ended a request, opened a stream). */
  lastSeen = Date.now();
  lastUse = ++useClock;
  readonly inFlight = new Map<RequestId, Cancellation>();
  /** Streamable HTTP: the session's resumable streams, by key. */
  readonly streams = new Map<string, ReplayStream>();
  /** Where notifications outside any request go; false when nothing took it now. */
  channel: ((frame: JSONRPCMessage) => boolean) | undefined;
  /** What mcpx asked the client (elicitation, sampling) and awaits its response to. */
  readonly clientRequests = new ClientRequests();
  /** HTTP+SSE: ends the session's stream when the session is closed from this side. */
  hangUp: (() => void) | undefined;
  #nextStream = 1;

  constructor(id: string, transport: SessionTransport, authContext: string, client: string) {
    this.id = id;
    this.sessionId = newSessionId();
    this.transport = transport;
    this.authContext = authContext;
    this.client = client;
  }

  touch(): void {
    this.lastSeen = Date.now();
    this.lastUse = ++useClock;
  }

  notify(method: string, params: JSONObject): boolean {
    return this.channel?.({ jsonrpc: "2.0", method, params }) ?? false;
  }

  /**
   * Whether the client is using the session now: a request in flight, or a stream it holds open.
   * Such a session is never reaped nor evicted. An HTTP+SSE session's own stream counts only once
   * the handshake is done: the session opens with it, before initialize, so an abandoned opening
   * holds one too (and the handshake bound runs from that opening).
   */
  get inUse(): boolean {
    if (this.inFlight.size > 0) return true;
    if (this.transport === "sse") return this.initialized && this.channel !== undefined;
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
    headers?: CallContext["headers"],
  ): Promise<JSONRPCResponse | undefined> {
    const abort = new Cancellation();
    this.inFlight.set(msg.id, abort);
    try {
      const request: CallContext["request"] = ask
        ? (method, params, opts) =>
            this.clientRequests.send(method, params, ask, anySignal(abort.signal, opts?.signal))
        : undefined;
      const ctx = callContext(this, abort, progressTokenOf(msg), notify, request, headers);
      const response = await gateway.protocol.respond(msg, ctx);
      return abort.aborted ? undefined : response;
    } finally {
      if (this.inFlight.get(msg.id) === abort) this.inFlight.delete(msg.id);
      this.touch();
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
    this.hangUp?.();
    this.hangUp = undefined;
  }
}
