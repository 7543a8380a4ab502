/**
 * A hostile upstream's logic: a ScriptedServer of the chosen revision (its default handlers speak
 * the protocol) wrapped so that the chosen modes misbehave on top. The fronts (stdio.ts, http.ts)
 * hand it every frame they read and give it a Wire to write on; everything it writes goes through
 * that Wire, so the same modes work over a child's stdout and over an HTTP answer.
 */
import { defaultHandler } from "../scripted/default-handlers.js";
import {
  type Answer,
  type Frame,
  type Handler,
  type HandlerContext,
  type Id,
  type JSONObject,
  NO_ANSWER,
  ScriptedServer,
  type ScriptedServerOptions,
} from "../scripted/server.js";
import {
  HANDSHAKE_METHODS,
  type HostileMode,
  hasMode,
  MIB,
  modeFor,
  modesFor,
  SERVER_REQUEST_KINDS,
  type ServerRequestKind,
} from "./modes.js";
import { floodLine, garbageLines, maliciousTools, prototypeNameLines, serverRequest } from "./payloads.js";

/** Where a hostile server writes. */
export interface Wire {
  /** One frame: a line on stdio, an event (or the JSON body) over HTTP. */
  frame(f: Frame): void;
  /** Bytes exactly as given (garbage lines carry their own "\n"). */
  raw(bytes: Buffer): void;
  /** `text` written `times` times, as fast as the reader takes it. */
  repeat(text: string, times: number): void;
  /** `start`, then filler bytes forever: a line (or body) that never ends. */
  endless(start: string): void;
  /** The server dies: the process exits (stdio), the connection is reset (HTTP). */
  exit(code: number): void;
}

export interface HostileOptions extends ScriptedServerOptions {
  modes: HostileMode[];
  /** How long a question of server-requests mode waits for mcpx's answer before the next (default 3000 ms). */
  questionTimeoutMs?: number;
}

/** What the server asked mcpx during a call (server-requests mode), and what mcpx answered. */
export interface AskedQuestion {
  kind: ServerRequestKind;
  method: string;
  id: Id;
  /** Undefined when mcpx did not answer within questionTimeoutMs. */
  answer: Frame | undefined;
}

export class HostileServer {
  readonly server: ScriptedServer;
  readonly modes: readonly HostileMode[];
  readonly #questionTimeoutMs: number;
  /** Every question asked in server-requests mode, with mcpx's answer. */
  readonly asked: AskedQuestion[] = [];
  readonly #wrapped = new Set<string>();
  /** The wire of each request being answered, for modes that write more than frames. */
  readonly #wires = new Map<Id, Wire>();
  #nextQuestion = 1;

  constructor(options: HostileOptions) {
    const { modes, questionTimeoutMs, ...scripted } = options;
    this.modes = modes;
    this.#questionTimeoutMs = questionTimeoutMs ?? 3000;
    const unknown = hasMode(modes, "unknown-revision");
    this.server = new ScriptedServer(
      unknown && unknown.via !== "server/discover"
        ? { ...scripted, answerVersion: unknown.version ?? "1999-01-01" }
        : scripted,
    );
  }

  /** Handles one frame a front read; whatever the modes say is written on `wire`. */
  async receive(frame: Frame, wire: Wire): Promise<void> {
    const push = (f: Frame) => this.emit(f, wire);
    const isRequest = typeof frame.method === "string" && frame.id !== undefined && frame.id !== null;
    if (isRequest) {
      this.#wrap(frame.method as string);
      this.#wires.set(frame.id as Id, wire);
    }
    try {
      const responses = await this.server.receive([frame], { push });
      for (const response of responses) this.#answer(frame, response, wire);
    } finally {
      if (isRequest) this.#wires.delete(frame.id as Id);
    }
  }

  /** Writes a frame the way the modes say: garbage first, if that is a mode. */
  emit(f: Frame, wire: Wire): void {
    const garbage = hasMode(this.modes, "garbage-lines");
    if (garbage) for (const line of garbageLines(garbage.kinds)) wire.raw(line);
    wire.frame(f);
  }

  /** The answer to a request, with the ids the wrong-ids mode gives it. */
  #answer(request: Frame, response: Frame, wire: Wire): void {
    const wrong = modeFor(this.modes, "wrong-ids", request.method ?? "");
    let out = [response];
    if (wrong?.how === "unasked") {
      out = [
        { jsonrpc: "2.0", id: 987_654_321, result: {} },
        { jsonrpc: "2.0", id: "never-asked", error: { code: -32603, message: "for nobody" } },
        response,
      ];
    } else if (wrong?.how === "duplicate") {
      out = [response, response];
    } else if (wrong?.how === "string-for-number" && typeof response.id === "number") {
      out = [{ ...response, id: String(response.id) }];
    }
    for (const f of out) this.emit(f, wire);
  }

  /**
   * Puts this hostile server's handler in front of the scripted one for `method`, once: the
   * scripted server's own (a test's override, or its default for the revision) answers whatever
   * the modes leave alone.
   */
  #wrap(method: string): void {
    if (this.#wrapped.has(method)) return;
    this.#wrapped.add(method);
    const own = this.server.handlers.get(method) ?? defaultHandler(method);
    this.server.handlers.set(method, (req, ctx) => this.#handle(req, ctx, own));
  }

  async #handle(req: Frame & { id: Id; method: string }, ctx: HandlerContext, own: Handler): Promise<Answer> {
    const m = this.modes;
    const method = req.method;
    const wire = this.#wires.get(req.id);
    if (HANDSHAKE_METHODS.includes(method) && hasMode(m, "hung-handshake")) return NO_ANSWER;
    const crash = modeFor(m, "crash-mid-call", method);
    if (crash) {
      wire?.exit(crash.code ?? 1);
      return NO_ANSWER;
    }
    if (modeFor(m, "never-answer", method)) return NO_ANSWER;
    if (modeFor(m, "endless-line", method)) {
      wire?.endless(
        `{"jsonrpc":"2.0","id":${JSON.stringify(req.id)},"result":{"content":[{"type":"text","text":"`,
      );
      return NO_ANSWER;
    }
    const unknown = hasMode(m, "unknown-revision");
    if (unknown && unknown.via !== "initialize" && method === "server/discover") {
      const version = unknown.version ?? "1999-01-01";
      return {
        error: {
          code: -32022,
          message: "Unsupported protocol version",
          data: { supported: [version], requested: null },
        },
      };
    }
    for (const flood of modesFor(m, "flood", method)) wire?.repeat(floodLine(flood.what), flood.count);
    if (modeFor(m, "prototype-names", method)) wire?.raw(Buffer.from(prototypeNameLines()));
    const asks = modeFor(m, "server-requests", method);
    if (asks) await this.#ask(asks.requests ?? SERVER_REQUEST_KINDS, req.id, ctx);
    const malicious = hasMode(m, "malicious-tools");
    if (malicious && method === "tools/list") {
      const tools = malicious.notAnArray
        ? { not: "an array" }
        : maliciousTools(malicious.items, this.server.options.tools ?? []);
      return this.server.complete({ tools } as JSONObject);
    }
    const huge = modeFor(m, "huge-answer", method);
    if (huge) {
      return this.server.complete({
        content: [{ type: "text", text: "h".repeat(Math.round(huge.mib * MIB)) }],
      });
    }
    return own(req, ctx);
  }

  /** Asks each question on the request's channel and waits for mcpx's answer to it. */
  async #ask(kinds: readonly ServerRequestKind[], requestId: Id, ctx: HandlerContext): Promise<void> {
    for (const kind of kinds) {
      const q = serverRequest(kind, requestId);
      const id = q.id ?? `hostile-${this.#nextQuestion++}`;
      let timer: NodeJS.Timeout | undefined;
      const answer = await Promise.race([
        this.server.request(q.method, q.params, { id, push: ctx.push }),
        new Promise<undefined>((resolve) => {
          timer = setTimeout(() => resolve(undefined), this.#questionTimeoutMs);
        }),
      ]);
      clearTimeout(timer);
      this.asked.push({ kind, method: q.method, id, answer });
    }
  }
}
