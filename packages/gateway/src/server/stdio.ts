/**
 * `mcpx stdio`: one downstream client on stdin and stdout, newline-delimited JSON-RPC. Each message
 * is decided once: after a legacy initialize, everything is that session's; before it, a request
 * goes to the revision whose way of opening a client it follows: initialize opens the legacy
 * session of the revision it negotiates, a request whose _meta names a modern version is served
 * statelessly (its subscriptions/listen streams tagged on the one channel).
 */
import type { Readable, Writable } from "node:stream";
import {
  Cancellation,
  decodeMessages,
  errorResponse,
  type FramedLine,
  formatBytes,
  InvalidRequestError,
  type JSONObject,
  type JSONRPCMessage,
  type JSONRPCRequest,
  LineFramer,
  type Logger,
  type McpxError,
  NestingTooDeepError,
  type OversizedLine,
  oversizedFrameId,
  type RequestId,
  type Revision,
  requestOf,
  resultResponse,
  type ServedClient,
} from "@mcpx/core";
import type { Gateway } from "../gateway.js";
import { anySignal, ClientRequests } from "./client-requests.js";
import { parseFilter } from "./listen.js";
import { type OpenListen, openListen } from "./listen-peer.js";
import { type CallContext, type Peer, requestContext } from "./peer.js";

export interface StdioServerOptions {
  input: Readable;
  output: Writable;
  log: Logger;
  /** Called when the input ends (the client went away). */
  onEnd?: () => void;
  /**
   * The longest line taken from the client, in bytes: config `listen.maxBodyBytes`, the same bound as
   * the HTTP endpoint's bodies (default 4 MiB). A longer one is answered with an error, and dropped.
   */
  maxFrameBytes?: number;
}

const DEFAULT_MAX_FRAME_BYTES = 4 * 1024 * 1024;

export class StdioServer {
  readonly #gateway: Gateway;
  readonly #opts: StdioServerOptions;
  readonly #inFlight = new Map<RequestId, Cancellation>();
  readonly #listens = new Map<RequestId, OpenListen>();
  readonly #peer: Peer;
  /** What mcpx asked a legacy client (elicitation, sampling) and awaits its response to. */
  readonly #clientRequests = new ClientRequests();
  /** A legacy client's session: from its initialize on, every message is the session's. */
  #session = false;
  #initialized = false;

  constructor(gateway: Gateway, opts: StdioServerOptions) {
    this.#gateway = gateway;
    this.#opts = opts;
    const self = this;
    this.#peer = {
      id: "stdio",
      revision: undefined,
      capabilities: {},
      authContext: "stdio",
      notify(method: string, params: JSONObject) {
        // A legacy client hears everything on the one channel; a modern one only through its listens.
        if (!self.#session || !self.#initialized) return false;
        self.#write({ jsonrpc: "2.0", method, params });
        return true;
      },
    };
  }

  start(): void {
    // Linear and bounded (the framer of @mcpx/core): a huge line neither stalls nor fills memory.
    const framer = new LineFramer(this.#opts.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES);
    const input = this.#opts.input;
    input.on("data", (chunk: Buffer | string) => {
      for (const line of framer.push(chunk)) this.#framed(line);
    });
    input.on("end", () => void this.close().then(() => this.#opts.onEnd?.()));
  }

  #framed(line: FramedLine): void {
    if (typeof line !== "string") this.#oversized(line);
    else if (line.trim()) this.#line(line);
  }

  /** A line over the limit: -32600 naming it, with the request's id when the line's ends show it. */
  #oversized(line: OversizedLine): void {
    const max = this.#opts.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    const found = oversizedFrameId(line);
    const id = found?.kind === "request" ? (found.id ?? null) : null;
    const err = new InvalidRequestError(
      `the message is ${formatBytes(line.bytes)}, over listen.maxBodyBytes (${formatBytes(max)}); it was dropped`,
      { size: line.bytes, maxBodyBytes: max },
    );
    this.#opts.log.warn(err.message, { peer: "stdio" });
    this.#write(errorResponse(id, err.toJSONRPC()));
  }

  async close(): Promise<void> {
    for (const a of this.#inFlight.values()) a.abort();
    this.#clientRequests.closeAll();
    for (const l of this.#listens.values()) await l.close();
    this.#listens.clear();
    await this.#gateway.removePeer(this.#peer);
  }

  #write(msg: JSONRPCMessage): void {
    this.#opts.output.write(`${JSON.stringify(msg)}\n`);
  }

  #line(line: string): void {
    let messages: JSONRPCMessage[];
    try {
      messages = decodeMessages(line);
    } catch (err) {
      // A request nested too deep is answered as itself: -32602 with its id.
      const id = err instanceof NestingTooDeepError ? (err.requestId ?? null) : null;
      this.#write(errorResponse(id, this.#gateway.protocol.clean((err as McpxError).toJSONRPC())));
      return;
    }
    for (const msg of messages) {
      if (!("method" in msg)) {
        // A response to a question mcpx asked the client (elicitation, sampling).
        this.#clientRequests.settle(msg);
        continue;
      }
      if ("id" in msg) void this.#request(msg);
      else this.#notification(msg.method, msg.params ?? {});
    }
  }

  #notification(method: string, params: JSONObject): void {
    if (method === "notifications/initialized" && this.#session) {
      this.#initialized = true;
      return;
    }
    if (method === "notifications/cancelled") {
      const id = params.requestId as RequestId;
      const listen = this.#listens.get(id);
      if (listen) {
        this.#listens.delete(id);
        void listen.close();
        return;
      }
      this.#inFlight.get(id)?.abort(typeof params.reason === "string" ? params.reason : "cancelled");
    }
  }

  async #request(msg: JSONRPCRequest): Promise<void> {
    if (this.#session) return this.#respond(msg, this.#peer);
    const served = this.#gateway.protocol.served;
    const opener = served.opener(msg);
    if (opener?.features.initialize) return this.#initialize(msg, opener);
    if (opener) return this.#modern(msg, opener);
    if (msg.method === "ping") return this.#write(resultResponse(msg.id, {}));
    const standalone = served.all.filter((r) => !r.features.initialize).map((r) => r.version);
    const err = new InvalidRequestError(
      `${msg.method} before initialize (or a ${standalone.join(" or ") || "modern"} request without _meta)`,
    );
    return this.#write(errorResponse(msg.id, err.toJSONRPC()));
  }

  /** Answers through the protocol; a request the client cancelled gets no answer. */
  async #respond(msg: JSONRPCRequest, peer: Peer): Promise<void> {
    const ctx = this.#context(msg, peer);
    const response = await this.#gateway.protocol.respond(msg, ctx);
    this.#inFlight.delete(msg.id);
    if (!ctx.cancellation?.aborted) this.#write(response);
  }

  /** The legacy session opens: the revision negotiates the version initialize offered. */
  #initialize(msg: JSONRPCRequest, opener: Revision): void {
    const protocol = this.#gateway.protocol;
    const client = opener.server.negotiate(msg, protocol.served.context());
    this.#session = true;
    this.#peer.revision = client.revision;
    this.#peer.capabilities = client.capabilities;
    if (client.clientInfo) this.#peer.clientInfo = client.clientInfo;
    this.#gateway.addPeer(this.#peer);
    this.#write(resultResponse(msg.id, protocol.handshakeResult(client.revision)));
  }

  /** A request that stands alone: its revision negotiates with it (its _meta), then it is answered. */
  async #modern(msg: JSONRPCRequest, opener: Revision): Promise<void> {
    const protocol = this.#gateway.protocol;
    let meta: ServedClient;
    try {
      meta = opener.server.negotiate(msg, protocol.served.context());
    } catch (err) {
      this.#write(errorResponse(msg.id, protocol.errorFor(err, opener)));
      return;
    }
    const peer: Peer = {
      id: "stdio",
      revision: meta.revision,
      capabilities: meta.capabilities,
      authContext: "stdio",
      notify: () => false,
    };
    if (msg.method === "subscriptions/listen" && requestOf(meta.revision.methods, msg.method, "client")) {
      let listen: OpenListen;
      try {
        listen = await openListen(
          this.#gateway,
          { id: "stdio", revision: meta.revision, capabilities: meta.capabilities, authContext: "stdio" },
          msg.id,
          parseFilter(msg.params),
          (frame) => this.#write(frame),
        );
      } catch (err) {
        this.#write(errorResponse(msg.id, protocol.errorFor(err, meta.revision)));
        return;
      }
      this.#listens.set(msg.id, listen);
      return;
    }
    await this.#respond(msg, peer);
  }

  #context(msg: JSONRPCRequest, peer: Peer): CallContext {
    const abort = new Cancellation();
    this.#inFlight.set(msg.id, abort);
    const token = (msg.params?._meta as JSONObject | undefined)?.progressToken;
    const ctx = requestContext(peer, abort, (method, params) =>
      this.#write({ jsonrpc: "2.0", method, params }),
    );
    if (typeof token === "string" || typeof token === "number") ctx.progressToken = token;
    if (peer.revision?.features.serverRequests) {
      // stdio has one channel: the question goes on it, and the client's response comes back on it.
      ctx.request = (method, params, opts) =>
        this.#clientRequests.send(
          method,
          params,
          (frame) => {
            this.#write(frame);
            return true;
          },
          anySignal(abort.signal, opts?.signal),
        );
    }
    return ctx;
  }
}
