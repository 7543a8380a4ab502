/**
 * mcpx's downstream HTTP server: one MCP endpoint (`/mcp`) for modern clients (stateless, mirrored
 * headers checked) and legacy Streamable HTTP clients (sessions, GET stream, resumption), and the
 * 2024-11-05 HTTP+SSE pair (`/sse`, `/messages`). Every request passes the Origin, Host and token
 * checks; POST bodies are bounded, typed and parsed before a frame reaches the protocol.
 *
 * `createMcpHttpHandler` is a node:http handler that answers those paths and returns false for any
 * other, so a control API can sit beside it; `startHttpServer` listens (loopback unless told).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { hostname } from "node:os";
import {
  decodeFrame,
  ErrorCode,
  InternalError,
  type JSONRPCFrame,
  type JSONRPCMessage,
  type Logger,
  type McpxError,
  MetaKey,
  NestingTooDeepError,
} from "@mcpx/core";
import type { Gateway } from "../../gateway.js";
import { accepts, checkContentType, notAcceptable, readBody } from "./body.js";
import { type ConnectionBounds, guardConnections, serverOptions } from "./connection-bounds.js";
import { HttpSse } from "./http-sse.js";
import { LegacyHttp } from "./legacy.js";
import { ModernHttp, type RequestInfo } from "./modern.js";
import { proxyToHolder } from "./proxy.js";
import { HOP_HEADER, type ReplicaOptions, Replicas } from "./replicas.js";
import { accepted, errorBody, HttpRefusal, refuse, sendJson } from "./reply.js";
import { Gatekeeper, isLoopbackHost, type SecurityOptions } from "./security.js";
import { SessionTable } from "./session-table.js";

export interface McpHttpOptions extends SecurityOptions {
  /** The MCP endpoint (default "/mcp"). */
  path?: string;
  /** 2024-11-05 HTTP+SSE: the stream (default "/sse") and where its POSTs go (default "/messages"). */
  ssePath?: string;
  messagesPath?: string;
  /** The largest POST body taken (default 4 MiB); larger ones get 413. */
  maxBodyBytes?: number;
  /** A legacy session with no request and no open stream for this long ends (default 30 min). */
  sessionIdleMs?: number;
  /**
   * A legacy session that has not sent notifications/initialized ends after this long unused
   * (default 10 s; HTTP+SSE: from GET /sse). Abandoned initializes cannot fill the table.
   */
  sessionHandshakeMs?: number;
  /**
   * Legacy sessions held at once (default 1000), and per client address (default 100). At a
   * bound, the least recently used idle session (never-initialized ones first) is evicted; only
   * when every one is in use does a new session get 503.
   */
  maxSessions?: number;
  maxSessionsPerClient?: number;
  /** Events kept per legacy SSE stream for Last-Event-ID resumption (default 100). */
  replayEvents?: number;
  /** Finished POST streams a legacy session keeps for a client that lost them (default 8). */
  retainStreams?: number;
  /** SSE comment keep-alives on long-lived streams, in ms (default 25 s; 0 for none). */
  keepAliveMs?: number;
  /**
   * Replicas behind one balancer on a shared store: legacy sessions are recorded there, and a
   * request for a session another live replica holds is proxied to it (replicas.ts, proxy.ts).
   * Nothing changes while the store is not shared.
   */
  replica?: ReplicaOptions;
  log?: Logger;
}

export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean> | boolean;

export interface McpHttpHandler {
  (req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** Ends every listen (gracefully), stream and session. */
  close(): Promise<void>;
  /** The replica set, when `replica` was given. */
  readonly replicas: Replicas | undefined;
}

const MiB = 1024 * 1024;

function pathOf(url: string | undefined): string {
  if (!url) return "/";
  const q = url.indexOf("?");
  return q < 0 ? url : url.slice(0, q);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function methodNotAllowed(allow: string, why: string): HttpRefusal {
  return new HttpRefusal(405, ErrorCode.InvalidRequest, `Method Not Allowed: ${why}`, {
    headers: { allow },
  });
}

function sessionNotFound(): HttpRefusal {
  return new HttpRefusal(
    404,
    ErrorCode.InvalidRequest,
    "Not Found: no such session (it ended or expired); start a new one with initialize",
  );
}

export function createMcpHttpHandler(gateway: Gateway, options: McpHttpOptions = {}): McpHttpHandler {
  const path = options.path ?? "/mcp";
  const ssePath = options.ssePath ?? "/sse";
  const messagesPath = options.messagesPath ?? "/messages";
  const maxBody = options.maxBodyBytes ?? 4 * MiB;
  const keepAliveMs = options.keepAliveMs ?? 25_000;
  const log = options.log;
  const gate = new Gatekeeper(options);
  const served = gateway.protocol.served;
  const replicas = options.replica
    ? new Replicas({ ...options.replica, ...(log ? { log } : {}) })
    : undefined;
  const sessions = new SessionTable(gateway, {
    ...(replicas ? { replicas } : {}),
    idleMs: options.sessionIdleMs ?? 30 * 60_000,
    handshakeMs: options.sessionHandshakeMs ?? 10_000,
    maxSessions: options.maxSessions ?? 1000,
    maxPerClient: options.maxSessionsPerClient ?? 100,
  });
  const modern = new ModernHttp(gateway, { keepAliveMs });
  const legacy = new LegacyHttp(gateway, sessions, {
    replayEvents: options.replayEvents ?? 100,
    retainStreams: options.retainStreams ?? 8,
    keepAliveMs,
  });
  const sse = new HttpSse(gateway, sessions, { messagesPath, keepAliveMs });

  /** A POST body, bounded, decoded, checked as JSON-RPC. */
  async function frame(req: IncomingMessage): Promise<JSONRPCFrame> {
    const text = await readBody(req, maxBody);
    try {
      return decodeFrame(text);
    } catch (err) {
      const e = err as McpxError;
      // A request nested too deep is answered as itself: -32602 with its id.
      const id = err instanceof NestingTooDeepError ? err.requestId : undefined;
      throw new HttpRefusal(400, e.code, e.message, {
        ...(id === undefined ? {} : { id }),
        ...(e.data === undefined ? {} : { data: e.data }),
      });
    }
  }

  /**
   * One POST to the MCP endpoint. Its era and revision are decided here, once: a request of a live
   * session is the session's; any other request goes to the revision whose way of opening a client
   * it follows (a modern request's _meta, or initialize), which takes it from there.
   */
  async function postMcp(req: IncomingMessage, res: ServerResponse, authContext: string): Promise<void> {
    checkContentType(req);
    const info: RequestInfo = { authContext, accept: accepts(header(req, "accept")) };
    if (!info.accept.json && !info.accept.sse) throw notAcceptable("application/json or text/event-stream");
    const body = await frame(req);
    const sid = header(req, "mcp-session-id");
    const batch = Array.isArray(body);
    const messages: JSONRPCMessage[] = batch ? body : [body];
    const session = sessions.get(sid, "streamable", authContext);
    if (session) return legacy.post(req, res, session, messages, batch, info);
    if (batch) {
      if (sid !== undefined) throw sessionNotFound();
      const batched = served.all.filter((r) => r.features.batches).map((r) => r.version);
      throw new HttpRefusal(
        400,
        ErrorCode.InvalidRequest,
        batched.length > 0
          ? `Bad Request: a batch needs a ${batched.join(" or ")} session`
          : "Bad Request: no revision mcpx serves has JSON-RPC batches",
      );
    }
    const msg = body as JSONRPCMessage;
    const headerVersion = header(req, "mcp-protocol-version");
    if ("method" in msg && "id" in msg) {
      // A modern request stands alone (a stray Mcp-Session-Id means nothing to it); an initialize
      // opens a session. Whose it is, its revision says (served.opener).
      const opener = served.opener(msg, headerVersion);
      if (opener?.features.initialize) return legacy.initialize(req, res, msg, info, opener);
      if (opener) return modern.request(req, res, msg, info, opener);
      if (sid !== undefined) throw sessionNotFound();
      throw new HttpRefusal(
        400,
        ErrorCode.InvalidRequest,
        `Bad Request: ${msg.method} carries neither an Mcp-Session-Id (legacy clients: initialize first) nor params._meta["${MetaKey.protocolVersion}"] (${standalone()})`,
        { id: msg.id },
      );
    }
    if ("method" in msg) {
      // A notification with no session: a modern client's (cancellation over HTTP is closing the stream).
      if (sid === undefined || served.standsAlone(headerVersion)) return accepted(res);
      throw sessionNotFound();
    }
    if (sid !== undefined) throw sessionNotFound();
    throw new HttpRefusal(
      400,
      ErrorCode.InvalidRequest,
      `Bad Request: a response needs a session (${standalone()} clients send none)`,
    );
  }

  /** The served versions whose requests stand alone, for messages that name them. */
  function standalone(): string {
    return served.all
      .filter((r) => !r.features.initialize)
      .map((r) => r.version)
      .join(", ");
  }

  /** GET or DELETE on the MCP endpoint: legacy sessions only. */
  async function sessionRequest(req: IncomingMessage, res: ServerResponse, info: RequestInfo): Promise<void> {
    const sid = header(req, "mcp-session-id");
    if (sid === undefined || served.standsAlone(header(req, "mcp-protocol-version"))) {
      throw methodNotAllowed(
        "POST",
        `${req.method} is for legacy sessions (${standalone()} clients only POST)`,
      );
    }
    const session = sessions.get(sid, "streamable", info.authContext);
    if (!session) throw sessionNotFound();
    if (req.method === "GET") legacy.get(req, res, session, info);
    else await legacy.delete(req, res, session);
  }

  /**
   * The session id a request names (Mcp-Session-Id on the MCP endpoint, ?sessionId= on the
   * messages path), when it is held by another live replica for these credentials: then the
   * request goes there. Never for a session held here (no store read on that path), nor for a
   * request that was proxied already.
   */
  async function proxied(req: IncomingMessage, res: ServerResponse, at: string, authContext: string) {
    if (!replicas?.shared || req.headers[HOP_HEADER] !== undefined) return false;
    let sid: string | undefined;
    let transport: "streamable" | "sse";
    if (at === path) {
      sid = header(req, "mcp-session-id");
      transport = "streamable";
    } else if (at === messagesPath && req.method === "POST") {
      const q = (req.url ?? "").indexOf("?");
      sid =
        q < 0 ? undefined : (new URLSearchParams((req.url ?? "").slice(q + 1)).get("sessionId") ?? undefined);
      transport = "sse";
    } else return false;
    if (sid === undefined || sessions.holds(sid)) return false;
    const holder = await replicas.holder(sid, transport, authContext);
    if (!holder) return false;
    await proxyToHolder(req, res, holder, {
      self: replicas.id ?? "unknown",
      ...(replicas.log ? { log: replicas.log } : {}),
    });
    return true;
  }

  async function route(req: IncomingMessage, res: ServerResponse, at: string): Promise<void> {
    const authContext = gate.check(req);
    if (await proxied(req, res, at, authContext)) return;
    const method = req.method;
    if (at === path) {
      if (method === "POST") return postMcp(req, res, authContext);
      if (method === "GET" || method === "DELETE") {
        return sessionRequest(req, res, { authContext, accept: accepts(header(req, "accept")) });
      }
      throw methodNotAllowed("GET, POST, DELETE", `${method} is not an MCP method`);
    }
    if (at === ssePath) {
      if (method !== "GET") throw methodNotAllowed("GET", `${ssePath} opens a stream with GET`);
      return sse.open(req, res, { authContext, accept: accepts(header(req, "accept")) });
    }
    if (method !== "POST") throw methodNotAllowed("POST", `${messagesPath} takes POST`);
    checkContentType(req);
    if (!HttpSse.sessionIdGiven(req)) {
      throw new HttpRefusal(
        400,
        ErrorCode.InvalidRequest,
        "Bad Request: the sessionId query parameter is required",
      );
    }
    const session = sse.session(req, authContext);
    if (!session) throw sessionNotFound();
    const body = await frame(req);
    sse.post(res, session, Array.isArray(body) ? body : [body]);
  }

  const handler = (async (req: IncomingMessage, res: ServerResponse) => {
    const at = pathOf(req.url);
    if (at !== path && at !== ssePath && at !== messagesPath) return false;
    try {
      await route(req, res, at);
    } catch (err) {
      if (err instanceof HttpRefusal) refuse(res, err);
      else {
        log?.error(`HTTP ${req.method} ${at} failed: ${(err as Error).message}`);
        if (!res.headersSent) {
          const error = new InternalError((err as Error).message).toJSONRPC();
          sendJson(res, 500, errorBody(undefined, gateway.protocol.clean(error)));
        } else res.destroy();
      }
    }
    return true;
  }) as McpHttpHandler;

  const offStop = gateway.onStop(() => handler.close());
  handler.close = async () => {
    offStop();
    await modern.close();
    await sessions.closeAll();
    await replicas?.close();
  };
  Object.defineProperty(handler, "replicas", { value: replicas });
  return handler;
}

export interface HttpServerOptions extends McpHttpOptions, ConnectionBounds {
  /** Default 127.0.0.1; anything but loopback needs allowNonLoopback. */
  host?: string;
  /** Default 7333; 0 for any free port. */
  port?: number;
  /** Tried in order after the MCP paths (a control API, health checks); a 404 when none answers. */
  extraHandlers?: HttpHandler[];
}

export interface RunningHttpServer {
  server: Server;
  /** The MCP endpoint's URL, e.g. http://127.0.0.1:7333/mcp. */
  url: string;
  close(): Promise<void>;
}

export async function startHttpServer(
  gateway: Gateway,
  options: HttpServerOptions = {},
): Promise<RunningHttpServer> {
  const host = options.host ?? "127.0.0.1";
  if (!isLoopbackHost(host) && !options.allowNonLoopback) {
    throw new Error(
      `refusing to listen on ${host}: it is not a loopback address, and mcpx's endpoint would be reachable from the network; set allowNonLoopback: true (with a token) to do so on purpose`,
    );
  }
  const mcp = createMcpHttpHandler(gateway, options);
  const extra = options.extraHandlers ?? [];
  const server = createServer(serverOptions(options), async (req, res) => {
    try {
      if (await mcp(req, res)) return;
      for (const h of extra) if (await h(req, res)) return;
      if (!res.headersSent)
        sendJson(
          res,
          404,
          errorBody(undefined, { code: ErrorCode.InvalidRequest, message: `Not Found: ${pathOf(req.url)}` }),
        );
    } catch (err) {
      options.log?.error(`HTTP handler failed: ${(err as Error).message}`);
      if (!res.headersSent)
        sendJson(res, 500, errorBody(undefined, new InternalError("internal error").toJSONRPC()));
      else res.destroy();
    }
  });
  guardConnections(server, options, options.log);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 7333, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${shown}:${address.port}${options.path ?? "/mcp"}`;
  await mcp.replicas?.bind({ id: `${hostname()}:${address.port}`, url: `http://${shown}:${address.port}` });
  return {
    server,
    url,
    async close() {
      await mcp.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
