/**
 * 2026-07-28 over HTTP: every POST stands alone. Its _meta says the version and capabilities, its
 * mirrored headers must agree with the body, and the answer is JSON, or a request-scoped SSE stream
 * when the client asked for progress or log lines (those notifications, then the response, which
 * ends it). Closing the response before the answer cancels the request. subscriptions/listen is a
 * POST whose stream stays open: the acknowledgement, then the notifications it asked for, until the
 * client closes it or mcpx stops (a graceful `complete` response).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  Cancellation,
  type JSONObject,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type JSONRPCResponse,
  MetaKey,
  type RequestId,
  type Revision,
  requestOf,
  resultResponse,
  type ServedClient,
} from "@mcpx/core";
import type { Gateway } from "../../gateway.js";
import { parseFilter } from "../listen.js";
import { type OpenListen, openListen } from "../listen-peer.js";
import type { Peer } from "../peer.js";
import { type Accepts, notAcceptable } from "./body.js";
import { callContext, ignore, progressTokenOf } from "./context.js";
import { headerReader, ParamHeaderIndex } from "./headers-check.js";
import { errorBody, refuse, sendJson } from "./reply.js";
import { keepAlive, openSse, writable, writeFrame } from "./sse.js";

/** What the router learnt of the request before the body. */
export interface RequestInfo {
  authContext: string;
  accept: Accepts;
}

/** The HTTP status a modern answer travels with (streamable-http.mdx §Status). */
export function modernStatus(response: JSONRPCResponse): number {
  if (!("error" in response)) return 200;
  const code = response.error.code;
  if (code === -32601) return 404;
  if (code === -32020 || code === -32021 || code === -32022) return 400;
  return 200;
}

interface LiveListen {
  id: RequestId;
  res: ServerResponse;
  opening: Promise<OpenListen | undefined>;
}

export class ModernHttp {
  readonly #gateway: Gateway;
  readonly #keepAliveMs: number;
  readonly #params: ParamHeaderIndex;
  readonly #listens = new Set<LiveListen>();
  #seq = 0;
  #closing = false;

  constructor(gateway: Gateway, opts: { keepAliveMs: number }) {
    this.#gateway = gateway;
    this.#keepAliveMs = opts.keepAliveMs;
    this.#params = new ParamHeaderIndex(gateway.catalog);
  }

  /**
   * One request, of the revision `opener`'s era (the router decided): the revision negotiates with
   * it (its _meta: version, capabilities) and checks its mirrored headers; every error up to here
   * is its refusal, with HTTP 400.
   */
  async request(
    req: IncomingMessage,
    res: ServerResponse,
    msg: JSONRPCRequest,
    info: RequestInfo,
    opener: Revision,
  ): Promise<void> {
    const protocol = this.#gateway.protocol;
    const header = headerReader(req.headers);
    let meta: ServedClient;
    try {
      meta = opener.server.negotiate(msg, protocol.served.context(header));
      const rules = meta.revision.toolHeaders;
      // Awaited only when the check must wait (the tool list read after a change): no tick otherwise.
      const checking = meta.revision.server.checkHeaders(msg, header, (tool) => this.#params.of(rules, tool));
      if (checking) await checking;
    } catch (err) {
      sendJson(res, 400, errorBody(msg.id, protocol.errorFor(err, opener)));
      return;
    }
    if (msg.method === "subscriptions/listen" && requestOf(meta.revision.methods, msg.method, "client")) {
      return this.#listen(res, msg, meta, info);
    }

    const peer: Peer = {
      id: `http-modern-${++this.#seq}`,
      revision: meta.revision,
      capabilities: meta.capabilities,
      authContext: info.authContext,
      notify: () => false,
    };
    if (meta.clientInfo) peer.clientInfo = meta.clientInfo;
    const token = progressTokenOf(msg);
    // SSE when something may come before the answer, or when the client prefers it (or takes nothing else).
    const streamed =
      token !== undefined || meta.logLevel !== undefined ? info.accept.sse : info.accept.preferSse;
    const abort = new Cancellation();
    res.once("close", () => {
      if (!res.writableFinished) abort.abort("the client closed the response stream");
    });
    let notify: (method: string, params: JSONObject) => void = ignore;
    let logging = false;
    if (streamed) {
      openSse(res);
      notify = (method, params) => void writeFrame(res, { jsonrpc: "2.0", method, params });
      if (meta.logLevel !== undefined) {
        // Log lines reach a modern client only on the stream of a request that asked for them.
        peer.logLevel = meta.logLevel;
        peer.notify = (method, params) => {
          if (method !== "notifications/message") return false;
          return writeFrame(res, { jsonrpc: "2.0", method, params });
        };
        this.#gateway.addPeer(peer);
        logging = true;
      }
    }
    const response = await protocol.respond(
      msg,
      callContext(peer, abort, token, notify, undefined, req.headers),
    );
    if (logging) void this.#gateway.removePeer(peer);
    if (abort.aborted || !writable(res)) {
      // Cancelled by closing: nothing more is sent for it.
      if (writable(res)) res.end();
      return;
    }
    if (streamed) {
      writeFrame(res, response);
      res.end();
    } else sendJson(res, modernStatus(response), response);
  }

  async #listen(
    res: ServerResponse,
    msg: JSONRPCRequest,
    meta: ServedClient,
    info: RequestInfo,
  ): Promise<void> {
    if (!info.accept.sse)
      return refuse(res, notAcceptable("text/event-stream (subscriptions/listen)", msg.id));
    openSse(res);
    const write = (frame: JSONRPCMessage) => void writeFrame(res, frame);
    const owner = {
      id: `http-listen-${++this.#seq}`,
      revision: meta.revision,
      capabilities: meta.capabilities,
      authContext: info.authContext,
      ...(meta.clientInfo ? { clientInfo: meta.clientInfo } : {}),
    };
    const live: LiveListen = {
      id: msg.id,
      res,
      opening: openListen(this.#gateway, owner, msg.id, parseFilter(msg.params), write).catch((err) => {
        write(errorBody(msg.id, this.#gateway.protocol.errorFor(err, meta.revision)));
        return undefined;
      }),
    };
    this.#listens.add(live);
    res.once("close", () => {
      // The client closed the stream: the subscription ends.
      this.#listens.delete(live);
      void live.opening.then((l) => l?.close());
    });
    const listen = await live.opening;
    if (!listen) {
      if (writable(res)) res.end();
      return;
    }
    if (this.#closing) return;
    keepAlive(res, this.#keepAliveMs);
  }

  /** mcpx is stopping: every listen ends with its graceful `complete` response. */
  async close(): Promise<void> {
    this.#closing = true;
    const all = [...this.#listens];
    this.#listens.clear();
    await Promise.all(
      all.map(async (live) => {
        const listen = await live.opening;
        if (writable(live.res)) {
          writeFrame(
            live.res,
            resultResponse(live.id, {
              resultType: "complete",
              _meta: { [MetaKey.subscriptionId]: live.id },
            }),
          );
          await new Promise<void>((resolve) => live.res.end(resolve));
        }
        await listen?.close();
      }),
    );
  }
}
