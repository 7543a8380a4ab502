/**
 * The request engine of one connection: ids, the pending map, timeouts that progress resets (bounded
 * by a maximum total), progress tokens, and cancellation by the revision's rule. It sends through the
 * transport and settles requests from what the sink delivers; it does not interpret results.
 */
import {
  type CancelAction,
  type Cancellation,
  type ClientCapabilities,
  ConnectionClosedError,
  type ConnectionInfo,
  type FrameContext,
  type HostHooks,
  InvalidResultError,
  isErrorResponse,
  type JSONObject,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type Logger,
  type ProgressNotificationParams,
  RequestCancelledError,
  type RequestId,
  RequestTimeoutError,
  type Result,
  type Revision,
  replacedForDepth,
  type SendOptions,
  type TraceCarrier,
  type Transport,
  type TransportCapabilities,
  transportCapabilities,
  type UpstreamSettings,
  withKey,
} from "@mcpx/core";
import { type Redactor, redactError } from "@mcpx/host";

export interface RequestOptions {
  /** Aborting it cancels the request by the revision's rule. */
  signal?: AbortSignal;
  /**
   * The same as `signal`, lighter: a gateway makes one for every request it serves, and most are
   * never cancelled. Either or both may be given.
   */
  cancellation?: Cancellation;
  /** Per-request timeout in ms; a progress notification starts it again. */
  timeout?: number;
  /** The most the request may take, progress notwithstanding. */
  maxTotalTimeout?: number;
  /** Whether progress restarts the timeout (default true). */
  resetTimeoutOnProgress?: boolean;
  /** Asks for progress (adds a progressToken) and receives each notification. */
  onProgress?: (progress: ProgressNotificationParams) => void;
  /** Extra headers for this frame (Mcp-Param-*), merged over the revision's. */
  headers?: Record<string, string>;
  /** Sends the params exactly as given, without the revision's shaping (the handshake does). */
  raw?: boolean;
  /** false: never cancelled, whatever happens (initialize). */
  cancellable?: boolean;
  /** The authorization context of the caller: a private cached result is served to the same one only. */
  authContext?: string;
  /** Told the JSON-RPC id the request was given, before it is sent. */
  onId?: (id: RequestId) => void;
  /** Opaque to mcpx: handed to the handlers of any question the server asks about this request. */
  context?: unknown;
  /**
   * The client capabilities declared on this request alone (modern revisions declare them per
   * request); the connection's otherwise. Ignored by revisions that declare once, at initialize.
   */
  capabilities?: ClientCapabilities;
  /** Asks the server again even where a cached result is fresh (a cached copy that failed a check). */
  refresh?: boolean;
  /**
   * The caller takes a CreateTaskResult (tasks extension, SEP-2663): the request declares the
   * extension (modern revisions) and a `resultType: "task"` answer is returned as it came, for the
   * caller to follow (followTask). Without it a task answer is an InvalidResultError.
   */
  tasks?: boolean;
  /**
   * Trace context for the upstream (telemetry on): in the request's `_meta` where the revision
   * defines those keys, and as HTTP headers where the transport carries headers, whatever the revision.
   */
  trace?: TraceCarrier;
}

interface Pending {
  id: RequestId;
  method: string;
  resolve: (result: Result) => void;
  reject: (err: Error) => void;
  /**
   * When the request times out (Date.now() ms; Infinity: never). The engine's one timer checks
   * deadlines: a setTimeout per request was measurable on the call path.
   */
  deadline: number;
  startedAt: number;
  timeout: number;
  maxTotal: number;
  resetOnProgress: boolean;
  onProgress: ((p: ProgressNotificationParams) => void) | undefined;
  progressToken: RequestId | undefined;
  /**
   * Ends the request's exchange (closing its response stream is modern HTTP's cancellation); none
   * where the transport's sends are not abortable, as on stdio (an AbortController per call is
   * measurable on the call path).
   */
  abort: AbortController | undefined;
  cancellable: boolean;
  cleanup: (() => void) | undefined;
  context: unknown;
  /**
   * Questions of the server's about this request that mcpx is still answering: the per-request
   * timeout waits for them, the maximum total does not. Each is withdrawn (`withdraw`) when mcpx
   * ends the request itself (its maximum total, its caller's cancellation).
   */
  holds?: number;
  questions?: Set<(reason: Error) => void>;
  /**
   * The armed timer ends at the maximum total, not at the per-request timeout. Kept rather than
   * recomputed when it fires: a timer may fire a millisecond early by Date.now().
   */
  atMaxTotal?: boolean;
}

export interface EngineParts {
  upstream: string;
  transport: Transport;
  hooks: HostHooks;
  log: Logger;
  settings: UpstreamSettings;
  /**
   * Takes the upstream's credentials out of an error before a caller gets it (a server's error
   * may quote what it received). Runs on failures only.
   */
  redact?: Redactor | undefined;
}

export class RequestEngine {
  readonly #parts: EngineParts;
  /** What the transport declared it can do, read once: the engine never asks for its kind. */
  readonly #can: TransportCapabilities;
  readonly #pending = new Map<RequestId, Pending>();
  readonly #byProgressToken = new Map<RequestId, Pending>();
  #nextId = 1;
  #closedError: Error | undefined;
  /** The engine's one deadline timer, armed for the earliest deadline it knows of (#timerAt). */
  #timer: NodeJS.Timeout | undefined;
  #timerAt = Number.POSITIVE_INFINITY;
  readonly #frameCtx: FrameContext;
  /** The revision that shapes frames: the one handshaking, then the negotiated one. */
  revision: Revision | undefined;
  info: ConnectionInfo;

  constructor(parts: EngineParts, info: ConnectionInfo) {
    this.#parts = parts;
    this.#can = transportCapabilities(parts.transport);
    this.info = info;
    this.#frameCtx = { upstream: parts.upstream, version: undefined, transport: parts.transport.kind };
  }

  get pendingCount(): number {
    return this.#pending.size;
  }

  /** Sends a request and resolves with its result; a JSON-RPC error rejects, mapped by the revision. */
  request(method: string, params: JSONObject | undefined, opts: RequestOptions = {}): Promise<Result> {
    if (this.#closedError) return Promise.reject(this.#closedError);
    const revision = this.#revision();
    const id = this.#nextId++;
    const settings = this.#parts.settings;
    const progressToken = opts.onProgress ? id : undefined;
    let p = params;
    if (progressToken !== undefined) {
      const meta = (p?._meta as JSONObject | undefined) ?? {};
      p = withKey(p, "_meta", { ...meta, progressToken });
    }
    let msg: JSONRPCRequest =
      p === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params: p };
    if (!opts.raw) {
      const info = opts.capabilities ? { ...this.info, capabilities: opts.capabilities } : this.info;
      msg = revision.shapeRequest(msg, info);
    }
    let headers = opts.headers;
    if (opts.trace !== undefined) {
      if (revision.features.traceContextMeta) msg = withTraceMeta(msg, opts.trace);
      headers = headers ? Object.assign({}, headers, opts.trace) : (opts.trace as Record<string, string>);
    }

    return new Promise<Result>((resolve, reject) => {
      const pending: Pending = {
        id,
        method,
        resolve,
        reject,
        deadline: Number.POSITIVE_INFINITY,
        startedAt: Date.now(),
        timeout: opts.timeout ?? settings.requestTimeout,
        maxTotal: opts.maxTotalTimeout ?? settings.maxTotalTimeout,
        resetOnProgress: opts.resetTimeoutOnProgress ?? true,
        onProgress: opts.onProgress,
        progressToken,
        abort: this.#can.abortableSends ? new AbortController() : undefined,
        cancellable: opts.cancellable ?? true,
        cleanup: undefined,
        context: opts.context,
      };
      this.#pending.set(id, pending);
      if (progressToken !== undefined) this.#byProgressToken.set(progressToken, pending);
      this.#arm(pending, pending.timeout);
      opts.onId?.(id);
      const cancellation = opts.cancellation;
      if (cancellation) {
        if (cancellation.aborted) {
          queueMicrotask(() => this.cancel(id, cancellation.reason));
        } else {
          pending.cleanup = cancellation.onAbort((reason) => this.cancel(id, reason));
        }
      }
      const signal = opts.signal;
      if (signal) {
        if (signal.aborted) {
          queueMicrotask(() => this.cancel(id, signal.reason));
        } else {
          const onAbort = () => this.cancel(id, signal.reason);
          signal.addEventListener("abort", onAbort, { once: true });
          const off = () => signal.removeEventListener("abort", onAbort);
          // Both given: each is let go of.
          const other = pending.cleanup;
          pending.cleanup = other
            ? () => {
                other();
                off();
              }
            : off;
        }
      }
      this.#send(msg, { signal: pending.abort?.signal, headers }).catch((err: Error) => this.fail(id, err));
    });
  }

  /** Sends a notification (shaped by nothing: notifications carry what the caller gives). */
  notify(method: string, params?: JSONObject): Promise<void> {
    if (this.#closedError) return Promise.reject(this.#closedError);
    const msg: JSONRPCMessage =
      params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
    const sent = this.#send(msg, {});
    return this.#parts.redact ? sent.catch((err: unknown) => Promise.reject(this.#clean(err))) : sent;
  }

  /** The error without the upstream's credentials (in place: its class and code stay). */
  #clean<T>(err: T): T {
    const redact = this.#parts.redact;
    return redact ? redactError(err, redact) : err;
  }

  /** Answers a request the server sent, with its id exactly as it came. */
  respond(response: JSONRPCResponse): Promise<void> {
    if (this.#closedError) return Promise.resolve();
    return this.#send(response, {});
  }

  #send(
    msg: JSONRPCMessage,
    opts: { signal?: AbortSignal | undefined; headers?: Record<string, string> | undefined },
  ) {
    const hooks = this.#parts.hooks;
    let frame = msg;
    if (hooks.outgoingFrame.isUsed()) {
      this.#frameCtx.version = this.info.version;
      frame = hooks.outgoingFrame.call(msg, this.#frameCtx);
    }
    const transport = this.#parts.transport;
    const can = this.#can;
    const sendOpts: SendOptions = {};
    if (opts.signal) sendOpts.signal = opts.signal;
    // The frame's era is the revision's that shaped it: a server/discover sent while a legacy
    // negotiation is in force is modern, and belongs to no legacy session.
    if (can.sessions && this.revision) sendOpts.era = this.revision.era;
    if (!can.headers) return transport.send(frame, sendOpts);
    const revisionHeaders = this.#revision().headers(frame, this.info);
    // Object.assign, not two spreads (V8's slow path, see withKey): every name here is a header mcpx wrote.
    const headers = opts.headers ? Object.assign({}, revisionHeaders, opts.headers) : revisionHeaders;
    if (headers) sendOpts.headers = headers;
    return transport.send(frame, sendOpts);
  }

  #revision(): Revision {
    if (!this.revision)
      throw new ConnectionClosedError(`upstream ${this.#parts.upstream} has no revision yet`);
    return this.revision;
  }

  #arm(pending: Pending, ms: number): void {
    const now = Date.now();
    const left = pending.maxTotal - (now - pending.startedAt);
    // The server waits on mcpx's answer to a question about this request (a person may be answering
    // an elicitation): mcpx is the slow one, so the per-request timeout waits; the maximum total
    // still bounds the whole.
    const held = (pending.holds ?? 0) > 0;
    const wait = Math.max(0, held ? left : Math.min(ms, left));
    // A long-lived request (subscriptions/listen) has no deadline.
    if (!Number.isFinite(wait)) {
      pending.deadline = Number.POSITIVE_INFINITY;
      return;
    }
    pending.atMaxTotal = held || left <= ms;
    pending.deadline = now + wait;
    // A later deadline leaves the timer as it is: when it fires it finds this one not due, and
    // sets itself for the earliest left.
    if (pending.deadline < this.#timerAt) this.#setTimer(pending.deadline, now);
  }

  #setTimer(at: number, now: number): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timerAt = at;
    // Node fires a delay past 2^31-1 ms at once: the far deadline is checked again when it fires.
    this.#timer = setTimeout(this.#onTimer, Math.min(Math.max(0, at - now), 2 ** 31 - 1));
    this.#timer.unref?.();
  }

  /** The timer fired: every request whose deadline has come times out, and it is set for the next. */
  readonly #onTimer = (): void => {
    // The timer firing says its deadline has come, whatever Date.now() says (a timer may fire a
    // millisecond early by the clock): the per-request timers it replaces behaved so.
    const now = Math.max(Date.now(), this.#timerAt);
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    let due: RequestId[] | undefined;
    let next = Number.POSITIVE_INFINITY;
    for (const [id, p] of this.#pending) {
      if (p.deadline <= now) {
        due ??= [];
        due.push(id);
      } else if (p.deadline < next) next = p.deadline;
    }
    // Set before timing out: a requestTimedOut hook may start requests of its own (which arm it too).
    if (next < this.#timerAt) this.#setTimer(next, now);
    if (due) for (const id of due) this.#timedOut(id);
  };

  #timedOut(id: RequestId): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    const afterMs = Date.now() - pending.startedAt;
    const action = this.#cancelAction(pending);
    const total = pending.atMaxTotal ? ` (its maximum total of ${pending.maxTotal} ms)` : "";
    const err = new RequestTimeoutError(
      `${pending.method} to upstream ${this.#parts.upstream} timed out after ${afterMs} ms${total}`,
      { timeout: pending.timeout, afterMs },
    );
    this.#parts.hooks.requestTimedOut.call({
      upstream: this.#parts.upstream,
      method: pending.method,
      afterMs,
      cancelled: action,
    });
    this.#settle(id, pending);
    this.#cancelBy(action, id, pending, "timeout");
    pending.reject(err);
    withdraw(pending, err);
  }

  /** Cancels a pending request by the revision's rule; its caller gets RequestCancelledError. */
  cancel(id: RequestId, reason?: unknown): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    const why = reason instanceof Error ? reason.message : typeof reason === "string" ? reason : "cancelled";
    this.#settle(id, pending);
    this.#cancelBy(this.#cancelAction(pending), id, pending, why);
    const err = reason instanceof Error ? reason : new RequestCancelledError(`${pending.method} ${why}`);
    pending.reject(err);
    withdraw(pending, err);
  }

  #cancelAction(pending: Pending): CancelAction {
    if (!pending.cancellable || !this.revision) return "never";
    const action = this.revision.cancel(pending.method);
    // Closing a stream the request does not have cancels nothing: without per-request streams the
    // notification is the cancellation (over stdio it MUST be sent: spec basic/transports/stdio).
    return action === "close-stream" && !this.#can.perRequestStreams ? "notify" : action;
  }

  #cancelBy(action: CancelAction, id: RequestId, pending: Pending, reason: string): void {
    if (action === "never") return;
    if (action === "notify") {
      this.notify("notifications/cancelled", { requestId: id, reason }).catch((err: Error) =>
        this.#parts.log.debug("could not send notifications/cancelled", { error: err.message }),
      );
    }
    // Either way the response stream is of no more use; for modern HTTP closing it is the cancellation.
    pending.abort?.abort();
  }

  #settle(id: RequestId, pending: Pending): void {
    pending.cleanup?.();
    this.#pending.delete(id);
    if (pending.progressToken !== undefined) this.#byProgressToken.delete(pending.progressToken);
  }

  /** A response arrived; returns false when no request of ours waits for it (late or unknown). */
  handleResponse(msg: JSONRPCResponse): boolean {
    const id = msg.id;
    if (id === null) return false;
    const pending = this.#pending.get(id);
    if (!pending) return this.#mistyped(msg);
    this.#settle(id, pending);
    if (isErrorResponse(msg)) {
      // The upstream's answer was too deep to take (core decodeFrame): said once, as any unreadable frame is.
      if (replacedForDepth(msg.error)) this.#parts.log.warn(msg.error.message);
      pending.reject(this.#clean(this.#revision().mapError(msg.error, pending.method)));
    } else pending.resolve(msg.result as Result);
    return true;
  }

  /**
   * mcpx's ids are numbers, so an answer whose id is one in flight written as a string ("3" for 3)
   * can answer nothing of mcpx's: JSON-RPC ids keep their type, and taking it could pair it with
   * the wrong request. The request fails now, naming the id, rather than at its deadline.
   */
  #mistyped(msg: JSONRPCResponse): boolean {
    if (typeof msg.id !== "string") return false;
    const id = Number(msg.id);
    const pending = String(id) === msg.id ? this.#pending.get(id) : undefined;
    if (!pending) return false;
    this.#settle(id, pending);
    pending.reject(
      new InvalidResultError(
        `${pending.method} to upstream ${this.#parts.upstream}: the server answered request ${id} with the id "${msg.id}", a string; a JSON-RPC answer carries the id as it was sent, so the answer was not taken`,
      ),
    );
    return true;
  }

  /** notifications/progress: to the request's listener, and its timeout starts again. */
  handleProgress(params: ProgressNotificationParams): boolean {
    const pending = this.#byProgressToken.get(params.progressToken);
    if (!pending) return false;
    if (pending.resetOnProgress) this.#arm(pending, pending.timeout);
    try {
      pending.onProgress?.(params);
    } catch (err) {
      this.#parts.log.warn("progress listener threw", { error: (err as Error).message });
    }
    return true;
  }

  /**
   * Lets go of a request the server ended by other means (a listen it tore down with
   * notifications/cancelled): settled, its response stream closed, and nothing sent for it.
   */
  release(id: RequestId, err: Error): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#settle(id, pending);
    pending.abort?.abort();
    pending.reject(err);
  }

  /** The answer to this request can no longer arrive. */
  fail(id: RequestId, err: Error): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#settle(id, pending);
    pending.reject(this.#clean(err));
  }

  /** The connection ended: every pending request fails at once (and every later one, with the same error). */
  close(err: Error): void {
    this.#closedError = this.#clean(err);
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    for (const [id, pending] of [...this.#pending]) {
      this.#settle(id, pending);
      pending.abort?.abort();
      pending.reject(err);
    }
  }

  /** The ids of requests in flight, oldest first. */
  inFlight(): RequestId[] {
    return [...this.#pending.keys()];
  }

  /** The method of a request in flight (to relate a server request to it). */
  methodOf(id: RequestId): string | undefined {
    return this.#pending.get(id)?.method;
  }

  /**
   * The request a server's question belongs to: the one whose response stream it came on, else the
   * only request in flight that carries a caller context (stdio says nothing about relations).
   */
  relatedTo(streamOf: RequestId | undefined): RelatedRequest | undefined {
    const own = streamOf === undefined ? undefined : this.#pending.get(streamOf);
    if (own) return this.#related(own);
    let only: Pending | undefined;
    for (const p of this.#pending.values()) {
      if (p.context === undefined) continue;
      if (only) return undefined;
      only = p;
    }
    return only ? this.#related(only) : undefined;
  }

  /**
   * `hold` stops the request's timeout while mcpx answers a question about it (a person may be
   * answering an elicitation); the returned release starts it again, in full. maxTotalTimeout still
   * bounds the whole: when mcpx ends the request (at its maximum total, or its caller cancels), the
   * question is withdrawn through `withdraw`, for nobody waits on its answer any more.
   */
  #related(p: Pending): RelatedRequest {
    return {
      method: p.method,
      context: p.context,
      hold: (onWithdraw) => {
        p.holds = (p.holds ?? 0) + 1;
        if (onWithdraw) {
          p.questions ??= new Set();
          p.questions.add(onWithdraw);
        }
        this.#arm(p, p.timeout);
        let released = false;
        return () => {
          if (released) return;
          released = true;
          p.holds = (p.holds ?? 1) - 1;
          if (onWithdraw) p.questions?.delete(onWithdraw);
          if (this.#pending.get(p.id) === p) this.#arm(p, p.timeout);
        };
      },
    };
  }
}

/** A request in flight that a server's question is about, as the question's handler sees it. */
export interface RelatedRequest {
  method: string;
  context: unknown;
  /**
   * Stops the request's per-request timeout while the question is answered; the returned function
   * starts it again. `onWithdraw` is told when mcpx ends the request meanwhile (its maximum total,
   * its caller's cancellation): the question's answer is no longer wanted.
   */
  hold: (onWithdraw?: (reason: Error) => void) => () => void;
}

/** Tells every question still held about the request that it is withdrawn. */
function withdraw(pending: Pending, reason: Error): void {
  const questions = pending.questions;
  if (!questions) return;
  pending.questions = undefined;
  for (const fn of questions) fn(reason);
}

/** The request with the trace context in its `_meta` (beside the revision's own keys). */
function withTraceMeta(msg: JSONRPCRequest, trace: TraceCarrier): JSONRPCRequest {
  const params = msg.params ?? {};
  const meta = (params._meta as JSONObject | undefined) ?? {};
  return { ...msg, params: { ...params, _meta: Object.assign({}, meta, trace) } };
}
