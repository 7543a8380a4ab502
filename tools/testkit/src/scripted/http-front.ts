/**
 * Carries a ScriptedServer over Streamable HTTP on 127.0.0.1 (port 0): POST frames answered with JSON
 * or SSE, Mcp-Session-Id minted on initialize (and forgotten on cue), the standalone GET stream (or
 * 405), server pushes on the GET stream or the current POST stream, SSE event ids, `retry`, priming,
 * resumption by Last-Event-ID, streams cut on cue, and raw answers (a bare 400/404/405, a malformed
 * body, a batch). It records every HTTP request with its lower-cased headers. A modern frame whose
 * mirrored headers disagree with its body is a failure and is answered 400 with -32020.
 */

import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { RequestLog } from "../request-log.js";
import { metaVersion } from "./frame-revision.js";
import { mirrorProblems } from "./mirror-check.js";
import type { Frame, ScriptedServer } from "./server.js";
import { SseStream, type StreamOptions, streamOfEventId } from "./sse-writer.js";

export type AnswerMode = "json" | "sse";

export interface HttpScriptOptions {
  /** How requests are answered: JSON (default) or an SSE stream; per method when a function. */
  answer?: AnswerMode | ((method: string) => AnswerMode);
  /** Mint an Mcp-Session-Id on initialize and require it afterwards (default true). */
  sessions?: boolean;
  /** Serve the standalone GET stream (default true); false answers GET with 405. */
  getStream?: boolean;
  /** Answer DELETE (default true); false answers it 405. */
  deleteSession?: boolean;
  /** Give SSE events ids (default true). */
  eventIds?: boolean;
  /** Open each SSE stream with an event holding an id and empty data (default false). */
  prime?: boolean;
  /** Send `retry: <ms>` at the start of every SSE connection. */
  retry?: number;
  /** The endpoint's path (default /mcp). */
  path?: string;
  /** Extra headers on every answer to a POST (e.g. an Mcp-Session-Id a misbehaving server mints). */
  responseHeaders?: (rec: HttpRecord) => Record<string, string> | undefined;
}

export interface HttpRecord {
  httpMethod: string;
  path: string;
  /** Lower-cased. */
  headers: Record<string, string>;
  /** The frames of a POST body (a batch has several). */
  frames: Frame[];
  status?: number;
  /** The stream that answered it (SSE answers, GET streams and their resumptions). */
  stream?: SseStream;
  /** The client closed the connection before the answer was complete (an abort). */
  closedByClient?: boolean;
  at: number;
}

export interface RawAnswer {
  status: number;
  contentType?: string;
  body?: string | ((frames: Frame[]) => string);
  headers?: Record<string, string>;
  /** Write the body and leave the answer open (a stream that lasts until the client or close() ends it). */
  open?: boolean;
}

type Match = (r: HttpRecord) => boolean;

export interface HttpScript {
  readonly url: string;
  readonly server: ScriptedServer;
  readonly options: HttpScriptOptions;
  /** Every HTTP request received, in order. */
  readonly requests: HttpRecord[];
  readonly sessionId: string | undefined;
  /** Every SSE stream opened, by id. */
  readonly streams: Map<string, SseStream>;
  /** The current GET stream, if any. */
  readonly getStream: SseStream | undefined;
  /** The server forgets its session: the next request carrying it gets 404. */
  expireSession(): void;
  /** Answers the next `times` (default 1) requests that match with exactly this, frames unhandled. */
  rawAnswer(match: Match, answer: RawAnswer, times?: number): void;
  /** Cuts the SSE stream answering the next matching POST after `afterEvents` events. */
  cutNext(match: Match, opts: { afterEvents: number; cutResumes?: boolean }): void;
  /** Ends the GET stream's connection (the stream lives on for a resumption). */
  cutGetStream(): void;
  /** Resolves when a GET stream is connected. */
  getStreamConnected(): Promise<SseStream>;
  /** Resolves with the first request (past or future) that matches. */
  waitForRequest(match: Match, timeoutMs?: number): Promise<HttpRecord>;
  close(): Promise<void>;
}

const isRequestFrame = (f: Frame) => f.method !== undefined && f.id !== undefined && f.id !== null;

export async function httpScript(
  server: ScriptedServer,
  options: HttpScriptOptions = {},
): Promise<HttpScript> {
  const path = options.path ?? "/mcp";
  const log = new RequestLog<HttpRecord>("HTTP front");
  const requests = log.requests;
  const streams = new Map<string, SseStream>();
  const raws: { match: Match; answer: RawAnswer; times: number }[] = [];
  const cuts: { match: Match; afterEvents: number; cutResumes: boolean }[] = [];
  const liveSessions = new Set<string>();
  const pendingPushes: Frame[] = [];
  let getStream: SseStream | undefined;
  let getWaiters: ((s: SseStream) => void)[] = [];
  let sessionId: string | undefined;
  let streamCount = 0;
  const open = new Set<ServerResponse>();

  const streamOptions = (): StreamOptions => ({
    eventIds: options.eventIds ?? true,
    retry: options.retry,
    prime: options.prime ?? false,
  });
  const newStream = (kind: string) => {
    const s = new SseStream(`${kind}${++streamCount}`, streamOptions());
    streams.set(s.id, s);
    return s;
  };

  server.pushOut = (frame) => {
    if (getStream) getStream.write(JSON.stringify(frame));
    else pendingPushes.push(frame);
  };

  const record = (rec: HttpRecord) => log.record(rec);

  const sessionHeaders = (): Record<string, string> => (sessionId ? { "Mcp-Session-Id": sessionId } : {});

  /** A legacy request must carry the live session id; a modern one is outside sessions. */
  const sessionRefusal = (rec: HttpRecord, modern: boolean): number | undefined => {
    if (options.sessions === false || modern) return undefined;
    if (rec.frames.some((f) => f.method === "initialize")) return undefined;
    const sent = rec.headers["mcp-session-id"];
    if (sent === undefined) {
      if (!sessionId) return undefined;
      server.failures.push(`${rec.httpMethod} ${rec.frames[0]?.method ?? ""} without Mcp-Session-Id`.trim());
      return 400;
    }
    return liveSessions.has(sent) ? undefined : 404;
  };

  async function onPost(res: ServerResponse, rec: HttpRecord, text: string) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      server.failures.push(`POST body is not JSON: ${text.slice(0, 80)}`);
      return end(res, rec, 400);
    }
    rec.frames = (Array.isArray(parsed) ? parsed : [parsed]) as Frame[];
    const raw = takeRaw(rec);
    record(rec);
    if (raw) return answerRaw(res, rec, raw);
    const accept = rec.headers.accept ?? "";
    if (!accept.includes("application/json") || !accept.includes("text/event-stream")) {
      server.failures.push(`POST Accept is ${JSON.stringify(accept)}, not both JSON and SSE`);
    }
    const modern = rec.frames.some((f) => metaVersion(f.params) !== undefined);
    if (modern) {
      const problems = rec.frames.flatMap((f) =>
        metaVersion(f.params) === undefined ? [] : mirrorProblems(f, rec.headers, server.options.tools ?? []),
      );
      if (problems.length > 0) {
        server.failures.push(...problems);
        const first = rec.frames[0];
        return json(res, rec, 400, {
          jsonrpc: "2.0",
          id: first?.id ?? null,
          error: { code: -32020, message: `Header mismatch: ${problems.join("; ")}` },
        });
      }
    }
    const refused = sessionRefusal(rec, modern);
    if (refused) return end(res, rec, refused);
    const initialize = rec.frames.some((f) => f.method === "initialize");
    if (initialize && options.sessions !== false) {
      sessionId = `sess-${randomBytes(8).toString("hex")}`;
      liveSessions.add(sessionId);
    }
    const extra = { ...options.responseHeaders?.(rec), ...(initialize ? sessionHeaders() : {}) };
    const first = rec.frames.find(isRequestFrame);
    const meta = { headers: rec.headers, httpMethod: "POST" };
    if (!first) {
      await server.receive(rec.frames, meta);
      return end(res, rec, 202, extra);
    }
    const mode =
      typeof options.answer === "function" ? options.answer(first.method ?? "") : (options.answer ?? "json");
    if (mode === "json") {
      const responses = await server.receive(rec.frames, meta);
      // NO_ANSWER holds the response headers until the client gives up.
      if (responses.length === 0) return;
      const body = Array.isArray(parsed) ? responses : responses[0];
      return json(res, rec, 200, body, extra);
    }
    const stream = newStream("post");
    rec.stream = stream;
    rec.status = 200;
    const cut = cuts.find((c) => c.match(rec));
    if (cut) {
      cuts.splice(cuts.indexOf(cut), 1);
      stream.cutAfter = cut.afterEvents;
      stream.cutResumes = cut.cutResumes;
    }
    stream.attach(res, extra);
    const responses = await server.receive(rec.frames, {
      ...meta,
      push: (f) => stream.write(JSON.stringify(f)),
    });
    if (responses.length === 0) return;
    stream.write(JSON.stringify(Array.isArray(parsed) ? responses : responses[0]));
    stream.finish();
  }

  function onGet(res: ServerResponse, rec: HttpRecord) {
    const raw = takeRaw(rec);
    record(rec);
    if (raw) return answerRaw(res, rec, raw);
    if (!(rec.headers.accept ?? "").includes("text/event-stream")) {
      server.failures.push(`GET Accept is ${JSON.stringify(rec.headers.accept)}, not text/event-stream`);
    }
    const refused = sessionRefusal(rec, false);
    if (refused) return end(res, rec, refused);
    const last = rec.headers["last-event-id"];
    if (last !== undefined) {
      const stream = streams.get(streamOfEventId(last));
      if (!stream) return end(res, rec, 400);
      rec.stream = stream;
      rec.status = 200;
      if (stream === getStream || stream.id.startsWith("get")) getStream = stream;
      stream.resume(res, last);
      if (stream === getStream) flushGet(stream);
      return;
    }
    if (options.getStream === false) return end(res, rec, 405);
    const stream = newStream("get");
    getStream = stream;
    rec.stream = stream;
    rec.status = 200;
    stream.attach(res);
    flushGet(stream);
  }

  function flushGet(stream: SseStream) {
    for (const f of pendingPushes.splice(0)) stream.write(JSON.stringify(f));
    for (const w of getWaiters) w(stream);
    getWaiters = [];
  }

  function onDelete(res: ServerResponse, rec: HttpRecord) {
    record(rec);
    if (options.deleteSession === false) return end(res, rec, 405);
    const sent = rec.headers["mcp-session-id"];
    if (sent === undefined || !liveSessions.delete(sent)) return end(res, rec, 404);
    if (sent === sessionId) sessionId = undefined;
    end(res, rec, 200);
  }

  function takeRaw(rec: HttpRecord): RawAnswer | undefined {
    const hit = raws.find((r) => r.match(rec));
    if (!hit) return undefined;
    if (--hit.times <= 0) raws.splice(raws.indexOf(hit), 1);
    return hit.answer;
  }

  function answerRaw(res: ServerResponse, rec: HttpRecord, raw: RawAnswer) {
    const body = typeof raw.body === "function" ? raw.body(rec.frames) : (raw.body ?? "");
    rec.status = raw.status;
    const headers: Record<string, string> = { ...raw.headers };
    if (raw.contentType) headers["Content-Type"] = raw.contentType;
    res.writeHead(raw.status, headers);
    if (raw.open) res.write(body);
    else res.end(body);
  }

  const http = createServer((req, res) => {
    const rec: HttpRecord = {
      httpMethod: req.method ?? "",
      path: req.url ?? "",
      headers: lower(req),
      frames: [],
      at: Date.now(),
    };
    open.add(res);
    res.on("close", () => {
      open.delete(res);
      if (!res.writableFinished) rec.closedByClient = true;
    });
    if (new URL(req.url ?? "/", "http://x").pathname !== path) {
      record(rec);
      return end(res, rec, 404);
    }
    if (req.method === "GET") return onGet(res, rec);
    if (req.method === "DELETE") return onDelete(res, rec);
    if (req.method !== "POST") {
      record(rec);
      return end(res, rec, 405);
    }
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => {
      text += c;
    });
    req.on("end", () => {
      onPost(res, rec, text).catch((err: Error) => {
        server.failures.push(`HTTP front: ${err.message}`);
        if (!res.headersSent) end(res, rec, 500);
      });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const port = (http.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}${path}`,
    server,
    options,
    requests,
    streams,
    get sessionId() {
      return sessionId;
    },
    get getStream() {
      return getStream;
    },
    expireSession() {
      if (sessionId) liveSessions.delete(sessionId);
      getStream?.destroy();
      getStream = undefined;
    },
    rawAnswer(match, answer, times = 1) {
      raws.push({ match, answer, times });
    },
    cutNext(match, opts) {
      cuts.push({ match, afterEvents: opts.afterEvents, cutResumes: opts.cutResumes ?? false });
    },
    cutGetStream() {
      getStream?.cut();
    },
    getStreamConnected() {
      if (getStream?.connected) return Promise.resolve(getStream);
      return new Promise((resolve) => getWaiters.push(resolve));
    },
    waitForRequest(match, timeoutMs = 5000) {
      return log.waitFor(match, timeoutMs);
    },
    close() {
      for (const s of streams.values()) s.destroy();
      for (const res of open) res.destroy();
      return new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      });
    },
  };
}

function lower(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

function end(
  res: ServerResponse,
  rec: HttpRecord,
  status: number,
  headers: Record<string, string> = {},
): void {
  rec.status = status;
  res.writeHead(status, headers).end();
}

function json(
  res: ServerResponse,
  rec: HttpRecord,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  rec.status = status;
  res.writeHead(status, { "Content-Type": "application/json", ...headers }).end(JSON.stringify(body));
}
