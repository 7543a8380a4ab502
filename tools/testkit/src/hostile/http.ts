/**
 * A hostile upstream over Streamable HTTP on 127.0.0.1 (port 0), without sessions or a GET stream
 * (both optional in every revision). A POST is answered with JSON, or with an SSE stream when a
 * mode writes more than the answer (garbage, floods, questions, wrong ids). On top of the modes the
 * stdio front shares, the HTTP ones: error bodies that quote the request's credentials, redirects
 * (to another origin: a second listener, also on 127.0.0.1, that records whatever reaches it; to
 * another path; to itself), and SSE streams with defects. Every request is recorded, and so is
 * every response still open, so a test sees a connection mcpx never let go of.
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { RequestLog } from "../request-log.js";
import type { Frame } from "../scripted/server.js";
import { type HostileOptions, HostileServer, type Wire } from "./hostile-server.js";
import { type HostileMode, MIB, modeFor } from "./modes.js";

export interface HostileHttpRecord {
  httpMethod: string;
  /** The path with its query string, as sent. */
  url: string;
  /** Lower-cased. */
  headers: Record<string, string>;
  frames: Frame[];
  status?: number;
  /** The client closed the connection before the answer ended. */
  closedByClient?: boolean;
  at: number;
}

export interface HostileHttp {
  /** The endpoint to configure: http://127.0.0.1:<port>/mcp. */
  readonly url: string;
  /** The other origin redirects point to. */
  readonly foreignUrl: string;
  readonly hostile: HostileServer;
  readonly requests: HostileHttpRecord[];
  /** Requests that reached the other origin: a client that keeps credentials to their origin sends none. */
  readonly foreignRequests: HostileHttpRecord[];
  /** Answers still open: streams and bodies the client has not let go of. */
  readonly openResponses: number;
  waitForRequest(match: (r: HostileHttpRecord) => boolean, timeoutMs?: number): Promise<HostileHttpRecord>;
  close(): Promise<void>;
}

const PATH = "/mcp";
const MOVED = "/mcp-moved";
const FILLER = Buffer.alloc(64 * 1024, "x");
const STREAMED = ["wrong-ids", "flood", "server-requests"] as const;

export async function hostileHttp(options: HostileOptions): Promise<HostileHttp> {
  const hostile = new HostileServer(options);
  const modes = options.modes;
  const log = new RequestLog<HostileHttpRecord>("hostile HTTP");
  const requests = log.requests;
  const foreignRequests: HostileHttpRecord[] = [];
  const open = new Set<ServerResponse>();
  // No GET stream: what the server sends outside a request has nowhere to go.
  hostile.server.pushOut = () => {};

  const record = (rec: HostileHttpRecord) => log.record(rec);

  const main = createServer((req, res) => {
    track(res, open);
    const rec = newRecord(req);
    res.on("close", () => {
      if (!res.writableFinished) rec.closedByClient = true;
    });
    const pathname = new URL(req.url ?? "/", "http://x").pathname;
    if (pathname !== PATH && pathname !== MOVED) {
      record(rec);
      return status(res, rec, 404);
    }
    if (req.method !== "POST") {
      record(rec);
      return status(res, rec, 405);
    }
    readBody(req).then((text) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        record(rec);
        return status(res, rec, 400);
      }
      rec.frames = (Array.isArray(parsed) ? parsed : [parsed]) as Frame[];
      record(rec);
      onPost(req, res, rec, pathname === MOVED).catch((err: Error) => {
        hostile.server.failures.push(`hostile HTTP: ${err.message}`);
        if (!res.headersSent) status(res, rec, 500);
      });
    });
  });

  const foreign = createServer((req, res) => {
    const rec = newRecord(req);
    readBody(req).then((text) => {
      try {
        const parsed = JSON.parse(text) as Frame;
        rec.frames = Array.isArray(parsed) ? parsed : [parsed];
      } catch {
        // recorded as it is
      }
      foreignRequests.push(rec);
      // What a trap would answer: a plausible result.
      const id = rec.frames[0]?.id ?? null;
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id, result: {} }));
    });
  });

  await Promise.all([listen(main), listen(foreign)]);
  const origin = `http://127.0.0.1:${(main.address() as AddressInfo).port}`;
  const foreignOrigin = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;

  async function onPost(
    req: IncomingMessage,
    res: ServerResponse,
    rec: HostileHttpRecord,
    moved: boolean,
  ): Promise<void> {
    const first = rec.frames.find((f) => typeof f.method === "string" && f.id !== undefined && f.id !== null);
    const method = first?.method ?? rec.frames[0]?.method ?? "";
    const redirect = moved ? undefined : modeFor(modes, "redirect", method);
    if (redirect) {
      const query = req.url?.includes("?") ? req.url.slice(req.url.indexOf("?")) : "";
      const location =
        redirect.to === "foreign"
          ? `${foreignOrigin}${PATH}${query}`
          : redirect.to === "same-origin"
            ? `${MOVED}${query}`
            : (req.url ?? PATH);
      rec.status = redirect.status;
      res.writeHead(redirect.status, { Location: location }).end();
      return;
    }
    const echo = modeFor(modes, "echo-credentials", method);
    if (echo) return echoCredentials(res, rec, echo, first);
    if (!first) {
      // Notifications and responses: 202, whatever the modes do with them.
      for (const f of rec.frames) await hostile.receive(f, dropWire);
      return status(res, rec, 202);
    }
    const defect = modeFor(modes, "sse", method);
    if (defect) return sseDefect(res, rec, defect, first);
    // What writes more than the answer needs a stream; garbage goes before every frame.
    const streamed =
      modes.some((m) => m.mode === "garbage-lines") ||
      STREAMED.some((name) => modeFor(modes, name, method) !== undefined);
    const wire = streamed ? sseWire(res, rec) : jsonWire(res, rec);
    for (const f of rec.frames) await hostile.receive(f, wire);
    if (streamed && !res.destroyed && !wire.held) res.end();
  }

  function echoCredentials(
    res: ServerResponse,
    rec: HostileHttpRecord,
    mode: Extract<HostileMode, { mode: "echo-credentials" }>,
    first: Frame | undefined,
  ): void {
    const query = new URL(rec.url, "http://x").search;
    const quoted = [
      `authorization: ${rec.headers.authorization ?? "(none)"}`,
      `query: ${query || "(none)"}`,
      ...Object.entries(rec.headers)
        .filter(([k]) => k !== "authorization")
        .map(([k, v]) => `${k}: ${v}`),
    ];
    rec.status = mode.status;
    if (mode.as === "json-rpc") {
      res.writeHead(mode.status, { "Content-Type": "application/json" });
      res.end(
        JSON.stringify({
          jsonrpc: "2.0",
          id: first?.id ?? null,
          error: {
            code: -32001,
            message: `refused; you sent ${quoted.join("; ")}`,
            data: { echoed: quoted },
          },
        }),
      );
      return;
    }
    res.writeHead(mode.status, { "Content-Type": "text/plain" });
    res.end(`${mode.status === 401 ? "Unauthorized" : "Internal Server Error"}\n${quoted.join("\n")}\n`);
  }

  async function sseDefect(
    res: ServerResponse,
    rec: HostileHttpRecord,
    mode: Extract<HostileMode, { mode: "sse" }>,
    request: Frame,
  ): Promise<void> {
    rec.status = 200;
    res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
    res.flushHeaders();
    // The scripted server still sees and answers the request; the defect decides what goes out.
    const answers: Frame[] = [];
    await hostile.receive(request, captureWire(answers));
    const answer = (f: Frame | undefined = answers.at(-1)) => (f ? `data: ${JSON.stringify(f)}\n\n` : "");
    switch (mode.defect) {
      case "never-ends":
        res.write(": nothing will come\n\n");
        return;
      case "open-after-answer":
        res.write(answer());
        return;
      case "no-data":
        res.write("event: message\n\n");
        res.write("id: 7\n\n");
        res.write("event: ping\nid: 8\n\n");
        res.end(answer());
        return;
      case "bad-json":
        res.write("data: {not json\n\n");
        res.write("data: [1,2\n\n");
        res.write('data: {"jsonrpc":"2.0"}\n\n');
        res.write('data: {"jsonrpc":"2.0","id":\n\n');
        res.end(answer());
        return;
      case "bogus-retry":
        res.write("retry: -5\n\n");
        res.write("retry: soon\n\n");
        res.write("retry: 99999999999999999999\n\n");
        res.write("retry: 1.5\n\n");
        res.end(answer());
        return;
      case "huge-event":
        res.write("data: ");
        await pour(res, FILLER, Math.ceil(((mode.mib ?? 1) * MIB) / FILLER.length));
        res.write("\n\n");
        res.end(answer());
        return;
      case "endless-event":
        res.write("data: ");
        await pour(res, FILLER, Number.POSITIVE_INFINITY);
        return;
      case "close-mid-event": {
        const whole = answer();
        res.end(`id: cut-1\n${whole.slice(0, Math.floor(whole.length / 2))}`);
        return;
      }
    }
  }

  return {
    url: `${origin}${PATH}`,
    foreignUrl: `${foreignOrigin}${PATH}`,
    hostile,
    requests,
    foreignRequests,
    get openResponses() {
      return open.size;
    },
    waitForRequest(match, timeoutMs = 5000) {
      return log.waitFor(match, timeoutMs);
    },
    async close() {
      for (const res of open) res.destroy();
      await Promise.all([stop(main), stop(foreign)]);
    },
  };
}

/** A wire that answers with one JSON body: the first frame that is a response; pushes have nowhere to go. */
function jsonWire(res: ServerResponse, rec: HostileHttpRecord): Wire & { held: boolean } {
  return {
    held: false,
    frame(f) {
      if (f.method !== undefined || res.headersSent) return;
      rec.status = 200;
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(f));
    },
    raw() {},
    repeat() {},
    endless(start) {
      this.held = true;
      rec.status = 200;
      res.writeHead(200, { "Content-Type": "application/json" });
      res.write(start);
      void pour(res, FILLER, Number.POSITIVE_INFINITY);
    },
    exit: () => res.destroy(),
  };
}

/** A wire that answers with an SSE stream: each frame an event, garbage as the data of an event. */
function sseWire(res: ServerResponse, rec: HostileHttpRecord): Wire & { held: boolean } {
  const start = () => {
    if (res.headersSent) return;
    rec.status = 200;
    res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
  };
  return {
    held: false,
    frame(f) {
      start();
      res.write(`data: ${JSON.stringify(f)}\n\n`);
    },
    raw(bytes) {
      start();
      const line = bytes.subarray(0, bytes.at(-1) === 0x0a ? -1 : undefined);
      res.write(Buffer.concat([Buffer.from("data: "), line, Buffer.from("\n\n")]));
    },
    repeat(text, times) {
      start();
      const event = Buffer.from(`data: ${text.trimEnd()}\n\n`);
      const per = Math.max(1, Math.floor(FILLER.length / event.length));
      const batch = Buffer.concat(Array.from({ length: per }, () => event));
      // Whole batches, then the rest: written in order before anything after it.
      for (let left = times; left > 0; left -= per) {
        res.write(left >= per ? batch : Buffer.concat(Array.from({ length: left }, () => event)));
      }
    },
    endless(begin) {
      start();
      this.held = true;
      res.write(`data: ${begin}`);
      void pour(res, FILLER, Number.POSITIVE_INFINITY);
    },
    exit: () => res.destroy(),
  };
}

function captureWire(into: Frame[]): Wire {
  return {
    frame: (f) => {
      if (f.method === undefined) into.push(f);
    },
    raw() {},
    repeat() {},
    endless() {},
    exit() {},
  };
}

const dropWire: Wire = { frame() {}, raw() {}, repeat() {}, endless() {}, exit() {} };

/** Writes `chunk` `times` times, waiting whenever the client is slower; stops when it goes away. */
async function pour(res: ServerResponse, chunk: Buffer, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    if (res.destroyed || res.writableEnded) return;
    if (!res.write(chunk)) {
      await new Promise<void>((resolve) => {
        res.once("drain", resolve);
        res.once("close", resolve);
      });
    }
  }
}

function newRecord(req: IncomingMessage): HostileHttpRecord {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  }
  return { httpMethod: req.method ?? "", url: req.url ?? "", headers, frames: [], at: Date.now() };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => {
      text += c;
    });
    req.on("end", () => resolve(text));
    req.on("error", () => resolve(text));
  });
}

function status(res: ServerResponse, rec: HostileHttpRecord, code: number): void {
  rec.status = code;
  res.writeHead(code).end();
}

function track(res: ServerResponse, open: Set<ServerResponse>): void {
  open.add(res);
  res.on("close", () => open.delete(res));
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
