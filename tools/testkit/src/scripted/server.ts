/**
 * A scripted MCP server: the logic of a server of any revision, living in the test process, with
 * fronts that carry it over stdio (a relay child) or HTTP. It records every frame it receives and
 * checks each one strictly against the revision in use; the test overrides any method's answer,
 * sends server requests and notifications, and misbehaves on cue.
 */
import { defaultHandler } from "./default-handlers.js";
import { MODERN, type RequestLike, revisionOfFrame } from "./frame-revision.js";
import type { Listen } from "./listen.js";
import { strictValidate } from "./strict.js";
import { type CheckedServer, registerServer } from "./strict-check.js";

export type JSONObject = Record<string, unknown>;
export type Id = string | number;

export interface Frame {
  jsonrpc: "2.0";
  id?: Id | null;
  method?: string;
  params?: JSONObject;
  result?: JSONObject;
  error?: { code: number; message: string; data?: unknown };
}

/** Where a frame came from, as the front saw it. */
export interface Received {
  frame: Frame;
  /** The revision it was checked against. */
  revision: string | undefined;
  /** HTTP request headers, lower-cased, when the front is HTTP. */
  headers?: Record<string, string>;
  /** The HTTP method (POST, GET, DELETE), when the front is HTTP. */
  httpMethod?: string;
  at: number;
}

/** A handler's answer: a result, an error, or NO_ANSWER (the request is left hanging). */
export const NO_ANSWER = Symbol("no answer");
export type Answer =
  | JSONObject
  | { error: { code: number; message: string; data?: unknown } }
  | typeof NO_ANSWER;

export interface HandlerContext {
  server: ScriptedServer;
  /** The protocol version of this frame (negotiated, or from _meta). */
  version: string | undefined;
  headers?: Record<string, string>;
  /** Sends a frame to the client on the stream of this request (HTTP SSE) or the channel (stdio). */
  push(frame: Frame): void;
}

export type Handler = (
  req: Frame & { id: Id; method: string },
  ctx: HandlerContext,
) => Answer | Promise<Answer>;
export type NotificationHandler = (n: Frame & { method: string }, ctx: HandlerContext) => void;

export type Validate = (revision: string, frame: Frame, forMethod?: string) => string[];

export interface ScriptedServerOptions {
  /** Versions this server speaks, preferred first. */
  versions: string[];
  /** Answer initialize with this version whatever was offered (a server mcpx must refuse). */
  answerVersion?: string;
  serverInfo?: { name: string; version: string };
  capabilities?: JSONObject;
  instructions?: string;
  tools?: JSONObject[];
  prompts?: JSONObject[];
  resources?: JSONObject[];
  resourceTemplates?: JSONObject[];
  /** Items per page of every list; lists are not paged when absent. */
  pageSize?: number;
  /** Overrides per method. */
  handlers?: Record<string, Handler>;
  /** What a subscriptions/listen acknowledges of the filter asked (default: all of it). */
  honour?: (filter: JSONObject) => JSONObject;
  /** Checks every received frame (strictly, by default); failures are collected in `failures`. */
  validate?: Validate | false;
  /**
   * Why this test sends this server invalid frames on purpose. Without it, the after-each strict
   * check (strict-check.ts) fails the test on any failure this server collects; with it, the test
   * asserts `failures` itself, and a server that saw no invalid frame at all is reported as stale.
   */
  expectInvalidFrames?: string;
  /** How the strict check names this server (default: its serverInfo name, versions and number). */
  label?: string;
}

export class ScriptedServer implements CheckedServer {
  readonly options: ScriptedServerOptions;
  /** How failure reports name this server; a harness may set the name its test knows it by. */
  label: string;
  readonly #validate: Validate | undefined;
  readonly received: Received[] = [];
  /** Strict-validation failures, each naming the frame. Tests assert this stays empty. */
  readonly failures: string[] = [];
  /** The frame behind each validation failure, by index in `failures`. */
  readonly #failedFrames = new Map<number, Frame>();
  /** The version initialize settled (legacy), for checking the frames after it. */
  negotiated: string | undefined;
  readonly handlers: Map<string, Handler>;
  readonly notificationHandlers = new Map<string, NotificationHandler>();
  /** subscriptions/listen streams opened, in order. */
  readonly listens: Listen[] = [];
  readonly #waiters: { match: (r: Received) => boolean; resolve: (r: Received) => void }[] = [];
  readonly #serverRequests = new Map<Id, { method: string; resolve: (f: Frame) => void }>();
  #nextServerId = 1;
  /** Set by the front: sends a frame to the client outside any request (stdio, GET stream). */
  pushOut: ((frame: Frame) => void) | undefined;

  constructor(options: ScriptedServerOptions) {
    this.options = options;
    this.#validate = options.validate === false ? undefined : (options.validate ?? strictValidate);
    this.handlers = new Map(Object.entries(options.handlers ?? {}));
    if (options.expectInvalidFrames !== undefined && options.expectInvalidFrames.trim() === "") {
      throw new Error("ScriptedServer: expectInvalidFrames must say why the test sends invalid frames");
    }
    const n = registerServer(this);
    this.label =
      options.label ??
      `scripted server #${n} "${options.serverInfo?.name ?? "scripted"}" (${options.versions.join(", ")})`;
  }

  get invalidFramesExpected(): string | undefined {
    return this.options.expectInvalidFrames;
  }

  frameOfFailure(index: number): Frame | undefined {
    return this.#failedFrames.get(index);
  }

  get modern(): boolean {
    return this.options.versions.some((v) => MODERN.includes(v));
  }

  /** Overrides one method's answer. */
  on(method: string, handler: Handler): this {
    this.handlers.set(method, handler);
    return this;
  }

  onNotification(method: string, handler: NotificationHandler): this {
    this.notificationHandlers.set(method, handler);
    return this;
  }

  /** The frames received with this method. */
  frames(method?: string): Frame[] {
    return this.received.map((r) => r.frame).filter((f) => method === undefined || f.method === method);
  }

  /** Resolves with the first received frame (past or future) that matches. */
  waitFor(match: (r: Received) => boolean, timeoutMs = 5000): Promise<Received> {
    const seen = this.received.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error("scripted server: timed out waiting for a frame")),
        timeoutMs,
      );
      this.#waiters.push({
        match,
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
      });
    });
  }

  waitForMethod(method: string, timeoutMs?: number): Promise<Received> {
    return this.waitFor((r) => r.frame.method === method, timeoutMs);
  }

  /**
   * Handles frames the front decoded. Returns the responses to send back, in order; a request
   * whose handler returned NO_ANSWER contributes none.
   */
  async receive(
    frames: Frame[],
    meta: { headers?: Record<string, string>; httpMethod?: string; push?: (f: Frame) => void } = {},
  ): Promise<Frame[]> {
    const out: Frame[] = [];
    for (const frame of frames) {
      const response = await this.#one(frame, meta);
      if (response) out.push(response);
    }
    return out;
  }

  #record(frame: Frame, meta: { headers?: Record<string, string>; httpMethod?: string }): Received {
    const revision = revisionOfFrame(frame as RequestLike, this.negotiated, this.options.versions);
    const rec: Received = { frame, revision, at: Date.now() };
    if (meta.headers) rec.headers = meta.headers;
    if (meta.httpMethod) rec.httpMethod = meta.httpMethod;
    this.received.push(rec);
    if (this.#validate && revision) {
      const forMethod =
        frame.method === undefined && frame.id != null
          ? this.#serverRequests.get(frame.id)?.method
          : undefined;
      for (const problem of this.#validate(revision, frame, forMethod)) {
        this.#failedFrames.set(this.failures.length, frame);
        this.failures.push(`${frame.method ?? `response to ${forMethod ?? "?"}`} (${revision}): ${problem}`);
      }
    }
    for (const w of [...this.#waiters]) {
      if (w.match(rec)) {
        this.#waiters.splice(this.#waiters.indexOf(w), 1);
        w.resolve(rec);
      }
    }
    return rec;
  }

  async #one(
    frame: Frame,
    meta: { headers?: Record<string, string>; httpMethod?: string; push?: (f: Frame) => void },
  ): Promise<Frame | undefined> {
    const rec = this.#record(frame, meta);
    const push = meta.push ?? ((f: Frame) => this.pushOut?.(f));
    const ctx: HandlerContext = { server: this, version: rec.revision, push };
    if (meta.headers) ctx.headers = meta.headers;
    if (frame.method === undefined) {
      if (frame.id != null) {
        const waiting = this.#serverRequests.get(frame.id);
        this.#serverRequests.delete(frame.id);
        waiting?.resolve(frame);
      }
      return undefined;
    }
    if (frame.id === undefined || frame.id === null) {
      this.notificationHandlers.get(frame.method)?.(frame as Frame & { method: string }, ctx);
      return undefined;
    }
    const req = frame as Frame & { id: Id; method: string };
    const handler = this.handlers.get(req.method) ?? defaultHandler(req.method);
    let answer: Answer;
    try {
      answer = await handler(req, ctx);
    } catch (err) {
      answer = { error: { code: -32603, message: (err as Error).message } };
    }
    if (answer === NO_ANSWER) return undefined;
    if (
      "error" in answer &&
      typeof answer.error === "object" &&
      answer.error !== null &&
      Object.keys(answer).length === 1
    ) {
      return { jsonrpc: "2.0", id: req.id, error: answer.error as Frame["error"] };
    }
    return { jsonrpc: "2.0", id: req.id, result: answer as JSONObject };
  }

  /** Sends a request to the client and resolves with its response. The id may be a string. */
  request(
    method: string,
    params?: JSONObject,
    opts: { id?: Id; push?: (f: Frame) => void } = {},
  ): Promise<Frame> {
    const id = opts.id ?? `srv-${this.#nextServerId++}`;
    const frame: Frame =
      params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
    return new Promise((resolve) => {
      this.#serverRequests.set(id, { method, resolve });
      (opts.push ?? this.pushOut)?.(frame);
    });
  }

  notify(method: string, params?: JSONObject, push?: (f: Frame) => void): void {
    const frame: Frame =
      params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
    (push ?? this.pushOut)?.(frame);
  }

  /** Whether this server accepts a modern request's version; the -32022 answer when not. */
  versionError(version: unknown): Answer | undefined {
    if (typeof version === "string" && this.options.versions.includes(version)) return undefined;
    return {
      error: {
        code: -32022,
        message: `Unsupported protocol version: ${String(version)}`,
        data: { supported: this.options.versions, requested: version ?? null },
      },
    };
  }

  /** A result as this server's revision writes it (modern results carry resultType). */
  complete(result: JSONObject, cacheable = false): JSONObject {
    if (!this.modern || this.negotiated) return result;
    const out: JSONObject = { resultType: "complete", ...result };
    if (cacheable) {
      out.ttlMs ??= 0;
      out.cacheScope ??= "public";
    }
    return out;
  }
}
