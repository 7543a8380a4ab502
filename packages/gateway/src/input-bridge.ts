/**
 * Questions for a modern client, carried by input_required (2026-07-28 multi round-trip requests).
 *
 * A modern client's tools/call, prompts/get or resources/read goes upstream as one call that stays
 * pending in mcpx. When the upstream asks something the client can answer (an elicitation/create or
 * sampling/createMessage request from a legacy upstream, or an input request from a modern one), the
 * downstream request ends with an input_required result: the question under the key the upstream
 * gave it (else one of mcpx's; questions asked together go out together), and a requestState mcpx
 * minted. The client's retry brings inputResponses; mcpx answers the upstream with
 * them, and the retry waits on the same upstream call, ending with its result (or another
 * input_required).
 *
 * requestState is an opaque random token (192 bits), bound to the authorization context, the method
 * and the name or URI of the request that got it; it is single-use (each round mints a new one) and
 * expires after `ttlMs`. One mcpx did not mint, or that fails any of those checks, is refused with
 * -32602, and nothing reaches the upstream. A call whose state expires is cancelled upstream.
 */
import { randomBytes } from "node:crypto";
import {
  Cancellation,
  type ElicitResult,
  InvalidParamsError,
  type JSONObject,
  RequestDeclinedError,
  type Result,
  withKey,
} from "@mcpx/core";
import { type CallContext, requestContext } from "./server/peer.js";

export const DEFAULT_INPUT_TTL_MS = 10 * 60_000;

interface Question {
  key: string;
  method: string;
  params: JSONObject;
  resolve: (result: JSONObject) => void;
  reject: (err: Error) => void;
}

type Outcome = { kind: "done"; result: Result } | { kind: "failed"; error: unknown };

/** One upstream call of a modern client, across the downstream requests (rounds) that carry it. */
class BridgedCall {
  readonly method: string;
  readonly target: unknown;
  readonly authContext: string;
  /**
   * Cancels the upstream call. The first request's own cancellation when its transport gave one (no
   * second one and no listener between them on the path of a call that asks nothing).
   */
  readonly abort: Cancellation;
  /** Asked by the upstream, not yet sent to the client. */
  readonly queue: Question[] = [];
  /** Sent in the last input_required, awaiting the retry. */
  readonly sent = new Map<string, Question>();
  outcome: Outcome | undefined;
  /** The downstream request now waiting on this call (none between rounds). */
  current: CallContext | undefined;
  state: string | undefined;
  timer: NodeJS.Timeout | undefined;
  #wake: (() => void) | undefined;
  #keys = 0;

  constructor(method: string, target: unknown, authContext: string, abort: Cancellation | undefined) {
    this.method = method;
    this.target = target;
    this.authContext = authContext;
    this.abort = abort ?? new Cancellation();
  }

  ask(
    method: string,
    params: JSONObject,
    signal: AbortSignal | undefined,
    key?: string,
  ): Promise<JSONObject> {
    if (this.abort.aborted) return Promise.reject(new RequestDeclinedError(`${method}: the call ended`));
    return new Promise<JSONObject>((resolve, reject) => {
      const q: Question = { key: this.#keyFor(key), method, params, resolve, reject };
      // The upstream withdrew its question.
      signal?.addEventListener(
        "abort",
        () => {
          this.#drop(q);
          reject(new RequestDeclinedError(`${method}: withdrawn by the server`));
        },
        { once: true },
      );
      this.queue.push(q);
      this.wake();
    });
  }

  /** The upstream's own key when it has one and it is free in this call, else one of mcpx's. */
  #keyFor(preferred: string | undefined): string {
    const taken = (k: string) => this.sent.has(k) || this.queue.some((q) => q.key === k);
    if (preferred !== undefined && !taken(preferred)) return preferred;
    let key: string;
    do key = `q${++this.#keys}`;
    while (taken(key));
    return key;
  }

  finish(outcome: Outcome): void {
    this.outcome = outcome;
    this.wake();
  }

  wake(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  /** Resolves when there is something to tell the waiting request: the outcome, or questions. */
  next(): Promise<void> {
    if (this.outcome || this.queue.length > 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.#wake = resolve;
    });
  }

  /** Ends the call: upstream cancelled, every open question answered as nobody answered it. */
  cancel(reason: string): void {
    this.abort.abort(reason);
    for (const q of [...this.queue, ...this.sent.values()]) unanswered(q, reason);
    this.queue.length = 0;
    this.sent.clear();
    this.wake();
  }

  #drop(q: Question): void {
    const at = this.queue.indexOf(q);
    if (at >= 0) this.queue.splice(at, 1);
    this.sent.delete(q.key);
  }
}

/** A question nobody will answer: an elicitation is cancelled (truthful), anything else declined. */
function unanswered(q: Question, reason: string): void {
  if (q.method === "elicitation/create") q.resolve({ action: "cancel" } satisfies ElicitResult);
  else q.reject(new RequestDeclinedError(`${q.method}: ${reason}`));
}

export class InputBridge {
  readonly #ttlMs: number;
  readonly #byState = new Map<string, BridgedCall>();

  constructor(opts: { ttlMs?: number } = {}) {
    this.#ttlMs = opts.ttlMs ?? DEFAULT_INPUT_TTL_MS;
  }

  /** Calls in flight between rounds (for tests and status). */
  get parked(): number {
    return this.#byState.size;
  }

  /**
   * Runs one downstream request of a modern client: a first request starts the upstream call with
   * `start`, a retry (requestState) resumes the call it names. Either ends with the call's result
   * or an input_required result. `key` is the parameter naming what the request acts on (the
   * revision's method table says which), whose value a requestState is bound to.
   */
  async run(
    method: string,
    key: "name" | "uri",
    params: JSONObject,
    ctx: CallContext,
    start: (params: JSONObject, ctx: CallContext) => Promise<Result>,
  ): Promise<Result> {
    const { requestState, inputResponses, ...own } = params;
    // Malformed answers are the client's error, refused here before anything reaches an upstream.
    if (Object.hasOwn(params, "inputResponses")) checkInputResponses(method, inputResponses);
    const target = own[key];
    let call: BridgedCall;
    if (requestState === undefined) {
      call = new BridgedCall(method, target, ctx.peer.authContext, ctx.cancellation);
      call.current = ctx;
      const upstreamCtx = this.#upstreamContext(call, ctx);
      // Answers without a state answer nothing mcpx asked. A modern upstream may know them (its
      // questions reach the client under its own keys): the dispatcher passes them to a modern
      // upstream with the call, and to no other.
      if (isAnswers(inputResponses)) upstreamCtx.inputResponses = inputResponses;
      start(own, upstreamCtx).then(
        (result) => call.finish({ kind: "done", result }),
        (error: unknown) => call.finish({ kind: "failed", error }),
      );
    } else {
      call = this.#find(method, target, requestState, ctx);
      // Checked before anything changes: a bad retry leaves the call waiting for a good one.
      const answers = this.#answers(call, inputResponses);
      this.#resume(call, ctx);
      this.#answer(call, answers);
    }
    return this.#wait(call, ctx);
  }

  /** mcpx stops: every parked call is cancelled. */
  close(): void {
    for (const call of new Set(this.#byState.values())) this.#expire(call, "mcpx is stopping");
  }

  #upstreamContext(call: BridgedCall, first: CallContext): CallContext {
    // Its signal is made only if something reads it: the upstream call takes the cancellation.
    const ctx = requestContext(first.peer, call.abort, (method, params) => {
      // Progress and log lines go to whichever request of the client is waiting now.
      const current = call.current;
      if (!current) return;
      if (method === "notifications/progress") {
        if (current.progressToken === undefined) return;
        current.notify(method, withKey(params, "progressToken", current.progressToken));
      } else current.notify(method, params);
    });
    ctx.request = (method, params, opts) => call.ask(method, params, opts?.signal, opts?.key);
    if (first.progressToken !== undefined) ctx.progressToken = first.progressToken;
    // The upstream call is a child of the request that started it (telemetry on).
    if (first.span !== undefined) ctx.span = first.span;
    return ctx;
  }

  #find(method: string, target: unknown, state: unknown, ctx: CallContext): BridgedCall {
    const call = typeof state === "string" ? this.#byState.get(state) : undefined;
    if (
      !call ||
      call.method !== method ||
      call.target !== target ||
      call.authContext !== ctx.peer.authContext
    ) {
      throw new InvalidParamsError(
        `${method}: requestState is not one mcpx issued for this request, or it expired`,
      );
    }
    return call;
  }

  #resume(call: BridgedCall, ctx: CallContext): void {
    // Single use: the next round, if any, gets a new one.
    if (call.state !== undefined) this.#byState.delete(call.state);
    if (call.timer) clearTimeout(call.timer);
    call.state = undefined;
    call.current = ctx;
  }

  /** The retry's answer to each question sent, by key (absent: not answered). */
  #answers(call: BridgedCall, responses: unknown): Map<string, JSONObject> {
    const given =
      typeof responses === "object" && responses !== null && !Array.isArray(responses)
        ? (responses as Record<string, unknown>)
        : {};
    const answers = new Map<string, JSONObject>();
    for (const q of call.sent.values()) {
      const answer = Object.hasOwn(given, q.key) ? given[q.key] : undefined;
      if (typeof answer !== "object" || answer === null || Array.isArray(answer)) continue;
      if (q.method === "elicitation/create" && !isElicitResult(answer)) {
        throw new InvalidParamsError(
          `inputResponses.${q.key}: an elicitation answer needs action "accept", "decline" or "cancel"`,
        );
      }
      answers.set(q.key, answer as JSONObject);
    }
    return answers;
  }

  /** The answers go to the questions they name; a question left unanswered is asked again. */
  #answer(call: BridgedCall, answers: Map<string, JSONObject>): void {
    const again: Question[] = [];
    for (const q of call.sent.values()) {
      const answer = answers.get(q.key);
      if (answer) q.resolve(answer);
      else again.push(q);
    }
    call.sent.clear();
    call.queue.unshift(...again);
  }

  async #wait(call: BridgedCall, ctx: CallContext): Promise<Result> {
    // The client cancelling the request it is waiting on cancels the upstream call. On the first
    // request's own signal the upstream call already listens: its end (cancelled) wakes this wait.
    const onAbort = () => {
      if (call.current === ctx) call.cancel("cancelled by the client");
    };
    const listens = ctx.cancellation !== call.abort;
    let off: (() => void) | undefined;
    if (listens) {
      if (ctx.cancellation) off = ctx.cancellation.onAbort(onAbort);
      else ctx.signal.addEventListener("abort", onAbort, { once: true });
    }
    try {
      // A cancelled call has nothing to ask: it waits for the upstream's answer to the cancellation.
      do {
        await call.next();
        // Questions asked together (an upstream's input_required with several) arrive one after
        // another within this turn: they go to the client together, in one round.
        if (!call.outcome && call.queue.length > 0) await new Promise((resolve) => setImmediate(resolve));
        // Cancelled on the shared signal: questions asked meanwhile are answered as nobody answered
        // them, and the wait goes on for the upstream's answer to the cancellation.
        if (!listens && call.abort.aborted && !call.outcome && call.queue.length > 0)
          call.cancel("cancelled by the client");
      } while (!call.outcome && call.queue.length === 0);
    } finally {
      if (off) off();
      else if (listens) ctx.signal.removeEventListener("abort", onAbort);
    }
    call.current = undefined;
    if (call.outcome) {
      for (const q of call.queue) unanswered(q, "the call ended");
      call.queue.length = 0;
      if (call.outcome.kind === "failed") throw call.outcome.error;
      return call.outcome.result;
    }
    const inputRequests: Record<string, JSONObject> = {};
    for (const q of call.queue.splice(0)) {
      call.sent.set(q.key, q);
      // Defined, not assigned: an upstream's key "__proto__" stays a key of the answer.
      Object.defineProperty(inputRequests, q.key, {
        value: { method: q.method, params: q.params },
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    const state = randomBytes(24).toString("base64url");
    call.state = state;
    this.#byState.set(state, call);
    call.timer = setTimeout(() => this.#expire(call, "the client did not retry in time"), this.#ttlMs);
    call.timer.unref();
    return { resultType: "input_required", inputRequests, requestState: state };
  }

  #expire(call: BridgedCall, reason: string): void {
    if (call.state !== undefined) this.#byState.delete(call.state);
    if (call.timer) clearTimeout(call.timer);
    call.state = undefined;
    call.cancel(reason);
  }
}

/**
 * inputResponses is a map from the key of each input request to its answer, itself a result object
 * (ElicitResult, CreateMessageResult, ListRootsResult: schema InputResponses). Anything else is
 * invalid params (-32602), naming what was wrong.
 */
function checkInputResponses(method: string, value: unknown): void {
  if (!isObject(value)) {
    throw new InvalidParamsError(
      `${method}: params.inputResponses must be an object of answers keyed as the input requests were, not ${kindOf(value)}`,
    );
  }
  for (const [k, answer] of Object.entries(value)) {
    if (!isObject(answer)) {
      throw new InvalidParamsError(
        `${method}: params.inputResponses.${k} must be an object (the answer to that input request), not ${kindOf(answer)}`,
      );
    }
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return `a ${typeof v}`;
}

function isAnswers(v: unknown): v is JSONObject {
  return typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length > 0;
}

function isElicitResult(v: object): v is ElicitResult {
  const action = (v as { action?: unknown }).action;
  return action === "accept" || action === "decline" || action === "cancel";
}
