/**
 * 2024-11-05 HTTP with SSE: GET /sse opens the session's stream and names, in an `endpoint` event,
 * where to POST (relative, same origin: `/messages?sessionId=<id>`). Each POST is accepted (202) and
 * its answer goes on the stream as an `event: message`, as do the session's notifications. The
 * session ends with the stream.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  errorResponse,
  InvalidRequestError,
  type JSONObject,
  type JSONRPCMessage,
  type JSONRPCRequest,
  resultResponse,
} from "@mcpx/core";
import type { Gateway } from "../../gateway.js";
import { notAcceptable } from "./body.js";
import type { LegacySession } from "./legacy-sessions.js";
import type { RequestInfo } from "./modern.js";
import { accepted } from "./reply.js";
import { clientAddress, type SessionTable } from "./session-table.js";
import { keepAlive, openSse, writable, writeFrame } from "./sse.js";

export class HttpSse {
  readonly #gateway: Gateway;
  readonly #sessions: SessionTable;
  readonly #messagesPath: string;
  readonly #keepAliveMs: number;

  constructor(gateway: Gateway, sessions: SessionTable, opts: { messagesPath: string; keepAliveMs: number }) {
    this.#gateway = gateway;
    this.#sessions = sessions;
    this.#messagesPath = opts.messagesPath;
    this.#keepAliveMs = opts.keepAliveMs;
  }

  /**
   * GET /sse: a new session and its stream. The handshake bound runs from here: initialize and
   * notifications/initialized come later, on POSTs.
   */
  async open(req: IncomingMessage, res: ServerResponse, info: RequestInfo): Promise<void> {
    if (!info.accept.sse) throw notAcceptable("text/event-stream");
    const session = this.#sessions.create("sse", info.authContext, clientAddress(req));
    await this.#sessions.announce(session);
    openSse(res);
    res.write(
      `event: endpoint\ndata: ${this.#messagesPath}?sessionId=${encodeURIComponent(session.sessionId)}\n\n`,
    );
    session.channel = (frame) => writeFrame(res, frame, "message");
    // Reaped or evicted: the stream ends, and a POST with its sessionId gets 404.
    session.hangUp = () => {
      if (writable(res)) res.end();
    };
    keepAlive(res, this.#keepAliveMs);
    res.once("close", () => void this.#sessions.close(session));
  }

  /** POST /messages?sessionId=…: accepted at once; the answers follow on the stream. */
  post(res: ServerResponse, session: LegacySession, messages: JSONRPCMessage[]): void {
    session.touch();
    accepted(res);
    for (const m of messages) {
      if (!("method" in m)) {
        // A response to a question mcpx asked the client (elicitation, sampling).
        session.clientRequests.settle(m);
        continue;
      }
      if ("id" in m) void this.#request(session, m);
      else session.notification(m.method, m.params);
    }
  }

  async #request(session: LegacySession, msg: JSONRPCRequest): Promise<void> {
    const send = (frame: JSONRPCMessage) => session.channel?.(frame);
    if (!session.revision) {
      const protocol = this.#gateway.protocol;
      // The transport is 2024-11-05's: its revisions come first, so a version it does not serve gets
      // the newest of them; the first initialize-era revision negotiates.
      const ctx = protocol.served.context(undefined, "http+sse");
      const opener = ctx.served.find((r) => r.features.initialize && r.server.opens(msg));
      if (opener) {
        const client = opener.server.negotiate(msg, ctx);
        session.revision = client.revision;
        session.capabilities = client.capabilities;
        if (client.clientInfo) session.clientInfo = client.clientInfo;
        this.#sessions.join(session);
        send(resultResponse(msg.id, protocol.handshakeResult(client.revision)));
        return;
      }
      if (msg.method === "ping") return void send(resultResponse(msg.id, {}));
      send(errorResponse(msg.id, new InvalidRequestError(`${msg.method} before initialize`).toJSONRPC()));
      return;
    }
    const notify = (method: string, params: JSONObject) => void send({ jsonrpc: "2.0", method, params });
    const answer = await session.answer(this.#gateway, msg, notify, (frame) => send(frame) ?? false);
    if (answer) send(answer);
  }

  /** The session of this transport for the POST's sessionId, if it was opened with these credentials. */
  session(req: IncomingMessage, authContext: string): LegacySession | undefined {
    const url = req.url ?? "";
    const q = url.indexOf("?");
    const id = q < 0 ? null : new URLSearchParams(url.slice(q + 1)).get("sessionId");
    return this.#sessions.get(id ?? undefined, "sse", authContext);
  }

  static sessionIdGiven(req: IncomingMessage): boolean {
    const url = req.url ?? "";
    const q = url.indexOf("?");
    return q >= 0 && new URLSearchParams(url.slice(q + 1)).has("sessionId");
  }
}
