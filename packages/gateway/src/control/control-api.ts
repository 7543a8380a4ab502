/**
 * The control API over HTTP, beside /mcp on the daemon's port, under /.mcpx/: loopback callers only
 * (the same Origin/Host checks and token as the MCP endpoint), JSON in and out, and server-sent
 * events for the routes that stream. Plugins' routes (host.registerControlRoute) join the built-in ones.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  CONTROL_PREFIX,
  type ControlRoute,
  ControlText,
  ErrorCode,
  MAX_NESTING_DEPTH,
  McpxError,
  NestingTooDeepError,
  nestingDepth,
} from "@mcpx/core";
import type { Gateway } from "../gateway.js";
import { checkContentType, readBody } from "../server/http/body.js";
import { errorBody, HttpRefusal, refuse, sendJson } from "../server/http/reply.js";
import { Gatekeeper, type SecurityOptions } from "../server/http/security.js";
import { keepAlive } from "../server/http/sse.js";
import { builtinRoutes, type DaemonInfo } from "./routes.js";

export interface ControlOptions extends SecurityOptions {
  info: DaemonInfo;
  /** Routes plugins registered. */
  routes?: readonly ControlRoute[];
  maxBodyBytes?: number;
  /** SSE comments on a streaming route while it is quiet, in ms (default 25 s; 0 for none). */
  keepAliveMs?: number;
}

interface Compiled {
  route: ControlRoute;
  parts: string[];
}

function match(compiled: readonly Compiled[], method: string, path: string) {
  const segs = path.split("/").filter(Boolean);
  for (const c of compiled) {
    if (c.route.method !== method || c.parts.length !== segs.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    c.parts.forEach((p, i) => {
      const seg = segs[i] ?? "";
      if (p.startsWith(":")) params[p.slice(1)] = decodeSegment(seg);
      else if (p !== seg) ok = false;
    });
    if (ok) return { route: c.route, params };
  }
  return undefined;
}

/** A path segment, percent-decoded; a malformed escape (`%E0%A4%A`) is the caller's mistake: 400. */
function decodeSegment(seg: string): string {
  try {
    return decodeURIComponent(seg);
  } catch {
    throw new HttpRefusal(
      400,
      ErrorCode.InvalidRequest,
      `Bad Request: the path segment ${JSON.stringify(seg)} is not valid percent-encoding (RFC 3986 §2.1: % and two hex digits, of UTF-8)`,
      { data: { segment: seg } },
    );
  }
}

/** A POST body: JSON, and no deeper than a frame may be (it is forwarded, and serialised again). */
function parseBody(text: string): unknown {
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    throw new HttpRefusal(400, ErrorCode.ParseError, "the body is not JSON");
  }
  // As in decodeFrame: nesting d levels takes at least 2d characters.
  if (text.length > 2 * MAX_NESTING_DEPTH) {
    const depth = nestingDepth(body);
    if (depth > MAX_NESTING_DEPTH) {
      throw new NestingTooDeepError(
        `the body is nested ${depth} levels deep, over mcpx's limit of ${MAX_NESTING_DEPTH} (MAX_NESTING_DEPTH: JSON nesting of one message)`,
        { depth, limit: MAX_NESTING_DEPTH },
      );
    }
  }
  return body;
}

export function createControlHandler(gateway: Gateway, options: ControlOptions) {
  const gate = new Gatekeeper(options);
  const compiled: Compiled[] = [...builtinRoutes(gateway, options.info), ...(options.routes ?? [])].map(
    (route) => ({
      route,
      parts: route.path.split("/").filter(Boolean),
    }),
  );
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://control.invalid");
    } catch {
      return false; // not a path of ours (an absolute-form target that is no URL): the 404 answers it
    }
    if (!url.pathname.startsWith(CONTROL_PREFIX)) return false;
    try {
      // The control API is for the CLI on this machine, whatever the MCP endpoint allows.
      gate.checkLocal(req, "the control API");
      const found = match(compiled, req.method ?? "GET", url.pathname.slice(CONTROL_PREFIX.length));
      if (!found)
        throw new HttpRefusal(
          404,
          ErrorCode.MethodNotFound,
          `no control route ${req.method} ${url.pathname}`,
        );
      let body: unknown;
      if (req.method === "POST") {
        // JSON only: a cross-site form or text/plain POST is a "simple" request a browser sends
        // without asking first (Fetch, CORS-safelisted Content-Type); application/json is not one.
        checkContentType(req);
        body = parseBody(await readBody(req, options.maxBodyBytes ?? 1 << 20));
      }
      const abort = new AbortController();
      res.on("close", () => abort.abort());
      const out = await found.route.handle({
        params: found.params,
        query: url.searchParams,
        body,
        signal: abort.signal,
      });
      if (isAsyncIterable(out)) {
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store" });
        res.flushHeaders();
        // A quiet stream (nothing to watch for minutes) must not look dead to the caller's timeouts.
        keepAlive(res, options.keepAliveMs ?? 25_000);
        for await (const item of out) {
          if (res.destroyed) break;
          res.write(`data: ${JSON.stringify(item)}\n\n`);
        }
        res.end();
      } else if (out instanceof ControlText) {
        res.writeHead(200, { "content-type": out.contentType, "cache-control": "no-store" });
        res.end(out.body);
      } else {
        sendJson(res, 200, out ?? {});
      }
    } catch (err) {
      // An upstream's error may quote a credential: cleaned as every error a client is sent.
      const { protocol } = gateway;
      if (err instanceof HttpRefusal) refuse(res, err);
      else if (err instanceof McpxError)
        sendJson(res, 400, errorBody(undefined, protocol.clean(err.toJSONRPC())));
      else {
        const error = { code: ErrorCode.InternalError, message: (err as Error).message };
        sendJson(res, 500, errorBody(undefined, protocol.clean(error)));
      }
    }
    return true;
  };
}

function isAsyncIterable(v: unknown): v is AsyncIterable<unknown> {
  return typeof v === "object" && v !== null && Symbol.asyncIterator in v;
}
