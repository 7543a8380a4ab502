/**
 * Streamable HTTP for legacy clients (2025-03-26, 2025-06-18, 2025-11-25): POST initialize opens a
 * session (Mcp-Session-Id), later POSTs carry it and MCP-Protocol-Version, requests are answered as
 * JSON or as a resumable SSE stream (when the client asked for progress, or takes only SSE), the
 * standalone GET stream carries what happens outside requests, GET with Last-Event-ID resumes a
 * stream, and DELETE ends the session.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  ErrorCode,
  type JSONObject,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type Revision,
  resultResponse,
} from "@mcpx/core";
import type { Gateway } from "../../gateway.js";
import { notAcceptable } from "./body.js";
import { ignore, progressTokenOf } from "./context.js";
import { headerReader } from "./headers-check.js";
import { GET_STREAM, type LegacySession } from "./legacy-sessions.js";
import type { RequestInfo } from "./modern.js";
import { parseEventId, ReplayStream } from "./replay-stream.js";
import { accepted, HttpRefusal, sendJson } from "./reply.js";
import { clientAddress, type SessionTable } from "./session-table.js";
import { openSse, writeFrame } from "./sse.js";

export interface LegacyHttpOptions {
  /** Events kept per stream for resumption. */
  replayEvents: number;
  /** Finished-but-undelivered POST streams kept per session for resumption. */
  retainStreams: number;
  keepAliveMs: number;
}

function badRequest(message: string, id?: string | number): HttpRefusal {
  return new HttpRefusal(
    400,
    ErrorCode.InvalidRequest,
    `Bad Request: ${message}`,
    id === undefined ? {} : { id },
  );
}

export class LegacyHttp {
  readonly #gateway: Gateway;
  readonly #sessions: SessionTable;
  readonly #opts: LegacyHttpOptions;

  constructor(gateway: Gateway, sessions: SessionTable, opts: LegacyHttpOptions) {
    this.#gateway = gateway;
    this.#sessions = sessions;
    this.#opts = opts;
  }

  /**
   * POST initialize without a (live) session: a new session, its id in Mcp-Session-Id. An evicted
   * or reaped session's id is unknown from then on (404), so its client initializes again.
   */
  async initialize(
    req: IncomingMessage,
    res: ServerResponse,
    msg: JSONRPCRequest,
    info: RequestInfo,
    opener: Revision,
  ): Promise<void> {
    const protocol = this.#gateway.protocol;
    const client = opener.server.negotiate(msg, protocol.served.context(headerReader(req.headers)));
    const session = this.#sessions.create("streamable", info.authContext, clientAddress(req));
    session.revision = client.revision;
    session.capabilities = client.capabilities;
    if (client.clientInfo) session.clientInfo = client.clientInfo;
    this.#sessions.join(session);
    // Every later notification outside a request goes on the standalone GET stream, once opened.
    session.channel = (frame) => session.streams.get(GET_STREAM)?.send(frame) ?? false;
    await this.#sessions.announce(session);
    const response = resultResponse(msg.id, protocol.handshakeResult(client.revision));
    const headers = { "mcp-session-id": session.sessionId };
    if (info.accept.json) {
      sendJson(res, 200, response, headers);
      return;
    }
    openSse(res, headers);
    writeFrame(res, response);
    res.end();
  }

  /** Any other POST of a session: notifications and responses → 202, requests answered. */
  async post(
    req: IncomingMessage,
    res: ServerResponse,
    session: LegacySession,
    messages: JSONRPCMessage[],
    batch: boolean,
    info: RequestInfo,
  ): Promise<void> {
    session.touch();
    const revision = this.checkVersion(req, session);
    if (batch && !revision.features.batches) {
      const batched = this.#gateway.protocol.served.all
        .filter((r) => r.features.batches)
        .map((r) => r.version);
      const has = batched.length === 1 ? "has" : "have";
      throw badRequest(
        `JSON-RPC batches are not part of ${revision.version} (only ${batched.join(", ") || "none mcpx serves"} ${has} them)`,
      );
    }
    const requests: JSONRPCRequest[] = [];
    for (const m of messages) {
      if (!("method" in m)) {
        // A response to a question mcpx asked the client (elicitation, sampling).
        session.clientRequests.settle(m);
        continue;
      }
      if ("id" in m) {
        if (m.method === "initialize" && batch) throw badRequest("initialize must not be in a batch", m.id);
        requests.push(m);
      } else session.notification(m.method, m.params);
    }
    if (requests.length === 0) return accepted(res);

    const streamed = requests.some((r) => progressTokenOf(r) !== undefined)
      ? info.accept.sse
      : info.accept.preferSse;
    // A JSON answer switches to SSE when a question for the client comes first (if it takes SSE).
    let stream: ReplayStream | undefined;
    const openStream = (): ReplayStream => {
      if (!stream) {
        stream = session.openStream(this.#opts.replayEvents, this.#opts.retainStreams);
        // Primed (an id and an empty event, with retry) where the revision has it (SEP-1699).
        stream.attach(res, { prime: revision.features.primedStreams === true });
      }
      return stream;
    };
    if (streamed) openStream();
    const notify = streamed
      ? (method: string, params: JSONObject) => void stream?.send({ jsonrpc: "2.0", method, params })
      : ignore;
    const ask = this.#asker(session, info);
    const asks = ask && ((f: JSONRPCMessage) => ask(f, openStream));
    const held: JSONRPCResponse[] = [];
    const answer = async (r: JSONRPCRequest): Promise<void> => {
      const response = await session.answer(this.#gateway, r, notify, asks, req.headers);
      if (!response) return;
      if (stream) stream.send(response);
      else held.push(response);
    };
    // One request (every POST but a batch): no Promise.all around it.
    if (requests.length === 1) await answer(requests[0] as JSONRPCRequest);
    else await Promise.all(requests.map(answer));
    if (stream) {
      for (const answer of held) stream.send(answer);
      stream.end();
      return;
    }
    // Every request was cancelled: there is nothing to answer.
    if (held.length === 0) return accepted(res);
    return sendJson(res, 200, batch ? held : held[0]);
  }

  /**
   * How a question related to a POST's request reaches the client: on that POST's SSE stream when
   * the client takes SSE, else on the session's GET stream if it is open; undefined when neither.
   */
  #asker(
    session: LegacySession,
    info: RequestInfo,
  ): ((frame: JSONRPCMessage, open: () => ReplayStream) => boolean) | undefined {
    if (info.accept.sse) return (frame, open) => open().send(frame);
    if (!session.streams.get(GET_STREAM)?.attached) return undefined;
    return (frame) => session.streams.get(GET_STREAM)?.send(frame) ?? false;
  }

  /** GET: the standalone stream, or the resumption of any stream of the session (Last-Event-ID). */
  get(req: IncomingMessage, res: ServerResponse, session: LegacySession, info: RequestInfo): void {
    if (!info.accept.sse) throw notAcceptable("text/event-stream");
    const revision = this.checkVersion(req, session);
    session.touch();
    const last = req.headers["last-event-id"];
    const keepAliveMs = this.#opts.keepAliveMs;
    if (typeof last === "string" && last !== "") {
      const at = parseEventId(last);
      const stream = at && session.streams.get(at.key);
      if (!at || !stream) {
        throw badRequest(`Last-Event-ID ${JSON.stringify(last)} names no stream this session can resume`);
      }
      stream.attach(res, { afterSeq: at.seq, ...(at.key === GET_STREAM ? { keepAliveMs } : {}) });
      return;
    }
    let stream = session.streams.get(GET_STREAM);
    if (stream?.attached) {
      throw new HttpRefusal(
        409,
        ErrorCode.InvalidRequest,
        "Conflict: this session already has its GET stream open (one per session)",
      );
    }
    if (!stream) {
      stream = new ReplayStream(GET_STREAM, this.#opts.replayEvents);
      session.streams.set(GET_STREAM, stream);
    }
    stream.attach(res, { prime: revision.features.primedStreams === true, keepAliveMs });
  }

  /** DELETE: the session ends; later requests with its id get 404. */
  async delete(req: IncomingMessage, res: ServerResponse, session: LegacySession): Promise<void> {
    this.checkVersion(req, session);
    await this.#sessions.close(session);
    res.writeHead(200).end();
  }

  /**
   * MCP-Protocol-Version after initialize, as basic/transports "Protocol Version Header" says it
   * (2025-06-18, 2025-11-25): a server that receives none "and has no other way to identify the
   * version — for example, by relying on the protocol version negotiated during initialization"
   * assumes 2025-03-26; mcpx has that other way, the session's, so a request without the header is
   * of the session's version. A server refuses with 400 only "an invalid or unsupported" value:
   * one naming no initialize-era version mcpx serves (a session is of that era). Another supported
   * version than the session's is accepted (the official suite's server-sse-multiple-streams sends
   * 2025-03-26 on a 2025-11-25 session), and the session's revision answers it: the header names
   * no new negotiation. Returns the session's revision.
   */
  checkVersion(req: IncomingMessage, session: LegacySession): Revision {
    const revision = session.revision;
    // A streamable session has its revision from the initialize that opened it.
    if (!revision) throw badRequest("the session has not been initialized");
    const header = headerReader(req.headers)("mcp-protocol-version");
    if (header === undefined) return revision;
    const served = this.#gateway.protocol.served;
    if (served.get(header)?.features.initialize !== true) {
      const sessions = served.all.filter((r) => r.features.initialize).map((r) => r.version);
      throw badRequest(
        `unsupported MCP-Protocol-Version ${JSON.stringify(header)} (a session of mcpx speaks ${sessions.join(", ")}; this one negotiated ${revision.version})`,
      );
    }
    return revision;
  }
}
