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
  resultResponse,
} from "@mcpx/core";
import type { Gateway } from "../../gateway.js";
import { SERVED } from "../protocol.js";
import { notAcceptable } from "./body.js";
import { ignore, progressTokenOf } from "./context.js";
import { GET_STREAM, type LegacySession } from "./legacy-sessions.js";
import type { RequestInfo } from "./modern.js";
import { parseEventId, ReplayStream } from "./replay-stream.js";
import { accepted, HttpRefusal, sendJson } from "./reply.js";
import { clientAddress, type SessionTable } from "./session-table.js";
import { openSse, writeFrame } from "./sse.js";

/** Versions older than the MCP-Protocol-Version header: a request without it is taken for them. */
const BEFORE_HEADER = new Set(["2024-11-05", "2025-03-26"]);

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
  initialize(req: IncomingMessage, res: ServerResponse, msg: JSONRPCRequest, info: RequestInfo): void {
    const protocol = this.#gateway.protocol;
    const params = msg.params ?? {};
    const session = this.#sessions.create("streamable", info.authContext, clientAddress(req));
    session.version = protocol.negotiate(params.protocolVersion);
    session.capabilities = (params.capabilities as JSONObject | undefined) ?? {};
    if (typeof params.clientInfo === "object" && params.clientInfo !== null) {
      session.clientInfo = params.clientInfo as LegacySession["clientInfo"] & object;
    }
    this.#sessions.join(session);
    // Every later notification outside a request goes on the standalone GET stream, once opened.
    session.channel = (frame) => session.streams.get(GET_STREAM)?.send(frame) ?? false;
    const response = resultResponse(msg.id, protocol.initializeResult(session.version));
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
    this.checkVersion(req, session);
    if (batch && session.version !== "2025-03-26") {
      throw badRequest(`JSON-RPC batches are not part of ${session.version} (only 2025-03-26 has them)`);
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
        stream.attach(res, { prime: session.version === "2025-11-25" });
      }
      return stream;
    };
    if (streamed) openStream();
    const notify = streamed
      ? (method: string, params: JSONObject) => void stream?.send({ jsonrpc: "2.0", method, params })
      : ignore;
    const ask = this.#asker(session, info);
    const held: JSONRPCResponse[] = [];
    await Promise.all(
      requests.map(async (r) => {
        const answer = await session.answer(this.#gateway, r, notify, ask && ((f) => ask(f, openStream)));
        if (!answer) return;
        if (stream) stream.send(answer);
        else held.push(answer);
      }),
    );
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
    this.checkVersion(req, session);
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
    stream.attach(res, { prime: session.version === "2025-11-25", keepAliveMs });
  }

  /** DELETE: the session ends; later requests with its id get 404. */
  async delete(req: IncomingMessage, res: ServerResponse, session: LegacySession): Promise<void> {
    this.checkVersion(req, session);
    await this.#sessions.close(session);
    res.writeHead(200).end();
  }

  /**
   * MCP-Protocol-Version after initialize: a version mcpx serves, and the session's. Without the
   * header the request is taken for 2025-03-26 (the spec's default), which suits only sessions that
   * negotiated a version from before the header (2024-11-05, 2025-03-26); from 2025-06-18 on the
   * client must send it.
   */
  checkVersion(req: IncomingMessage, session: LegacySession): void {
    const raw = req.headers["mcp-protocol-version"];
    const header = Array.isArray(raw) ? raw.join(", ") : raw;
    if (header === undefined) {
      if (BEFORE_HEADER.has(session.version)) return;
      throw badRequest(
        `the MCP-Protocol-Version header is required (this session negotiated ${session.version})`,
      );
    }
    if (!SERVED.includes(header)) {
      throw badRequest(
        `unsupported MCP-Protocol-Version ${JSON.stringify(header)} (mcpx serves ${SERVED.join(", ")})`,
      );
    }
    if (header !== session.version) {
      throw badRequest(
        `MCP-Protocol-Version ${header} is not the version this session negotiated (${session.version})`,
      );
    }
  }
}
