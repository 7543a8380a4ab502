/**
 * The broker: elicitations an upstream asked mcpx, held until a person answers them from the CLI.
 *
 * A question arrives (form or url mode). With nobody attached — no `mcpx elicit watch` or
 * `list --wait` on the control API — it is answered cancel at once, which is truthful (unless
 * holdWithoutWatcher). Otherwise it is held with its upstream, message, requested schema or URL and
 * a deadline, listed, and settled by the first of: an answer (accept / decline / cancel), the
 * deadline (cancel), the server withdrawing it. A URL is shown only when it is https or http to
 * loopback; any other is refused (decline) and listed among the settled ones without it. A URL
 * accepted in 2025-11-25 stays listed, waiting, until the server's
 * notifications/elicitation/complete names its elicitationId (or the deadline).
 */
import { randomBytes } from "node:crypto";
import {
  type ElicitationHandler,
  type ElicitRequestParams,
  type ElicitResult,
  InvalidParamsError,
  type JSONObject,
  type LifecycleEvent,
  type ServerRequestContext,
  type StateStore,
} from "@mcpx/core";
import { acceptedContent, checkElicitationUrl } from "@mcpx/elicitation-rules";

export interface BrokerOptions {
  /** Hold questions even with nobody attached (until the deadline); default false: cancel at once. */
  holdWithoutWatcher: boolean;
  /** How long a question waits for an answer (default 10 min); then it is cancelled. */
  timeoutMs: number;
  /** How many settled questions `list` keeps showing (default 20). */
  keepSettled: number;
}

export const DEFAULT_BROKER_OPTIONS: BrokerOptions = {
  holdWithoutWatcher: false,
  timeoutMs: 10 * 60_000,
  keepSettled: 20,
};

/** A question waiting, as the control API shows it. */
export interface PendingElicitation {
  id: string;
  upstream: string;
  /** The protocol version in use with that upstream. */
  version: string;
  mode: "form" | "url";
  message: string;
  /** form mode */
  requestedSchema?: JSONObject;
  /** url mode: the URL (only ever an https or loopback one) and its host, to highlight. */
  url?: string;
  host?: string;
  /** url mode, 2025-11-25: the server's id, for notifications/elicitation/complete. */
  elicitationId?: string;
  /** The request of mcpx's it belongs to (tools/call, …), when the server said. */
  related?: string;
  /** pending: awaiting an answer; accepted: a URL accepted, awaiting the server's completion. */
  state: "pending" | "accepted";
  createdAt: string;
  expiresAt: string;
}

/** A question no longer waiting. */
export interface SettledElicitation {
  id: string;
  upstream: string;
  mode: "form" | "url";
  message: string;
  action: ElicitResult["action"];
  /** Why mcpx settled it itself (nobody attached, deadline, refused URL, withdrawn, completed). */
  reason?: string;
  /** A URL shown when it was pending (never a refused one). */
  url?: string;
  host?: string;
  settledAt: string;
}

export type BrokerEvent =
  | { event: "snapshot"; pending: PendingElicitation[] }
  | { event: "pending"; elicitation: PendingElicitation }
  | { event: "settled"; elicitation: SettledElicitation };

export interface Answer {
  action: ElicitResult["action"];
  content?: JSONObject;
}

/** Spaces and channel of the broker on a shared store (replicas). */
export const ELICITATION_SPACE = "elicitation";
export const ANSWER_SPACE = "elicitation-answer";
export const PRESENCE_SPACE = "elicitation-watchers";
export const ANSWER_CHANNEL = "elicitation.answer";
/** A presence entry outlives its last renewal by this long (a watcher's replica that died). */
const PRESENCE_TTL_MS = 15_000;

/** A question held on some replica, as the store holds it. */
interface SharedQuestion {
  holder: string;
  view: PendingElicitation;
}

interface Held {
  view: PendingElicitation;
  resolve: (result: ElicitResult) => void;
  timer: NodeJS.Timeout;
  cleanup: () => void;
}

export class ElicitationBroker {
  readonly #opts: BrokerOptions;
  readonly #emit: (event: LifecycleEvent) => void;
  readonly #held = new Map<string, Held>();
  readonly #settled: SettledElicitation[] = [];
  readonly #watchers = new Set<(e: BrokerEvent) => void>();
  readonly #store: (() => StateStore) | undefined;
  /** This broker's name among replicas: the holder named in the store. */
  readonly #self = randomBytes(8).toString("hex");
  #presence: NodeJS.Timeout | undefined;
  #unsubscribe: Promise<() => Promise<void>> | undefined;

  /**
   * `store`: the store in use; when it is shared, questions, answers and watchers are seen by
   * every replica (a question stays with the replica whose upstream asked it).
   */
  constructor(
    opts: Partial<BrokerOptions> = {},
    emit: (event: LifecycleEvent) => void = () => {},
    store?: () => StateStore,
  ) {
    this.#opts = { ...DEFAULT_BROKER_OPTIONS, ...opts };
    this.#emit = emit;
    this.#store = store;
  }

  /** The store, when it is shared; undefined for one process. */
  #shared(): StateStore | undefined {
    const store = this.#store?.();
    if (!store?.shared) return undefined;
    // Answers given on other replicas reach the holder on this channel.
    this.#unsubscribe ??= store.subscribe(ANSWER_CHANNEL, (m) => void this.#remoteAnswer(m));
    return store;
  }

  /** An answer published by another replica: the holder takes it (it was claimed there). */
  async #remoteAnswer(message: unknown): Promise<void> {
    const { id, holder } = (message ?? {}) as { id?: string; holder?: string };
    if (typeof id !== "string" || holder !== this.#self || !this.#held.has(id)) return;
    const store = this.#shared();
    const answer = await store?.get<Answer>(ANSWER_SPACE, id);
    if (!answer) return;
    try {
      this.#apply(id, answer);
    } catch {
      // Checked on the answering replica already; a question settled meanwhile keeps its settlement.
    }
  }

  /** Watchers attached on every replica (this one's, and the others' presence entries). */
  async #anyWatcher(): Promise<boolean> {
    if (this.#watchers.size > 0) return true;
    const store = this.#shared();
    if (!store) return false;
    return (await store.entries(PRESENCE_SPACE)).length > 0;
  }

  /** Keeps this replica's presence entry while it has watchers (renewed), removes it when none. */
  #present(): void {
    const store = this.#shared();
    if (!store) return;
    if (this.#watchers.size === 0) {
      clearInterval(this.#presence);
      this.#presence = undefined;
      void store.delete(PRESENCE_SPACE, this.#self).catch(() => {});
      return;
    }
    const write = () =>
      void store
        .set(PRESENCE_SPACE, this.#self, { watchers: this.#watchers.size }, { ttlMs: PRESENCE_TTL_MS })
        .catch(() => {});
    write();
    if (!this.#presence) {
      this.#presence = setInterval(write, PRESENCE_TTL_MS / 3);
      this.#presence.unref();
    }
  }

  /** Writes (or rewrites) a held question to the store, to live until its deadline. */
  #share(view: PendingElicitation): void {
    const store = this.#shared();
    if (!store) return;
    const ttlMs = Math.max(1, Date.parse(view.expiresAt) - Date.now());
    const entry: SharedQuestion = { holder: this.#self, view };
    void store.set(ELICITATION_SPACE, view.id, entry, { ttlMs }).catch(() => {});
  }

  /** Every replica's pending questions (this one's first), for `mcpx elicit list`. */
  async listAll(): Promise<{
    pending: PendingElicitation[];
    settled: SettledElicitation[];
    watchers: number;
  }> {
    const local = this.list();
    const store = this.#shared();
    if (!store) return local;
    const [questions, presence] = await Promise.all([
      store.entries<SharedQuestion>(ELICITATION_SPACE),
      store.entries<{ watchers: number }>(PRESENCE_SPACE),
    ]);
    const remote = questions
      .filter(([id, q]) => q.holder !== this.#self && !this.#held.has(id))
      .map(([, q]) => q.view);
    const elsewhere = presence
      .filter(([who]) => who !== this.#self)
      .reduce((n, [, p]) => n + (p.watchers ?? 0), 0);
    return {
      pending: [...local.pending, ...remote],
      settled: local.settled,
      watchers: local.watchers + elsewhere,
    };
  }

  /** One pending question, held here or (on a shared store) by another replica. */
  async getAnywhere(id: string): Promise<PendingElicitation | undefined> {
    const local = this.get(id);
    if (local) return local;
    const store = this.#shared();
    return store ? (await store.get<SharedQuestion>(ELICITATION_SPACE, id))?.view : undefined;
  }

  /**
   * `answer` on any replica: a question held here is settled here; one held by another replica is
   * checked here, claimed in the store (the first answer wins) and published to its holder.
   */
  async answerAnywhere(
    id: string,
    answer: Answer,
  ): Promise<{ id: string; action: Answer["action"]; content?: JSONObject }> {
    const store = this.#shared();
    if (!store) return this.answer(id, answer);
    const held = this.#held.get(id);
    const shared = held ? undefined : await store.get<SharedQuestion>(ELICITATION_SPACE, id);
    const view = held?.view ?? shared?.view;
    if (!view) throw new InvalidParamsError(`no pending elicitation ${JSON.stringify(id)}`);
    const checked = this.#check(view, answer);
    const ttlMs = Math.max(1, Date.parse(view.expiresAt) - Date.now());
    if (!(await store.setIfAbsent(ANSWER_SPACE, id, checked, { ttlMs }))) {
      throw new InvalidParamsError(`elicitation ${id} was answered already`);
    }
    if (this.#held.has(id)) return this.#apply(id, checked);
    if (held || !shared) throw new InvalidParamsError(`no pending elicitation ${JSON.stringify(id)}`);
    await store.publish(ANSWER_CHANNEL, { id, holder: shared.holder });
    return checked.content === undefined ? { id, action: checked.action } : { id, ...checked };
  }

  /** The ElicitationHandler that mcpx's upstream connections ask. */
  handler(name = "@mcpx/elicitation-broker"): ElicitationHandler {
    return {
      name,
      modes: ["form", "url"],
      handle: (req, ctx) => this.ask(req, ctx),
      complete: (elicitationId, ctx) => this.complete(ctx.upstream, elicitationId),
    };
  }

  /** How many callers are attached (watching). */
  get watchers(): number {
    return this.#watchers.size;
  }

  list(): { pending: PendingElicitation[]; settled: SettledElicitation[]; watchers: number } {
    return {
      pending: [...this.#held.values()].map((h) => h.view),
      settled: [...this.#settled],
      watchers: this.watchers,
    };
  }

  get(id: string): PendingElicitation | undefined {
    return this.#held.get(id)?.view;
  }

  /** A question from an upstream: held for an answer, or settled at once. */
  ask(req: ElicitRequestParams, ctx: ServerRequestContext): Promise<ElicitResult> {
    const mode = req.mode === "url" ? "url" : "form";
    const id = this.#newId();
    const now = Date.now();
    const base = { id, upstream: ctx.upstream, mode, message: String(req.message ?? "") } as const;
    let shown: { url: string; host: string } | undefined;
    if (mode === "url") {
      const verdict = checkElicitationUrl(req.url);
      if (!verdict.ok)
        return Promise.resolve(this.#settleNow(base, "decline", `URL refused: ${verdict.reason}`));
      shown = { url: verdict.url, host: verdict.host };
    }
    if (this.#watchers.size === 0 && !this.#opts.holdWithoutWatcher) {
      if (!this.#shared()) {
        return Promise.resolve(this.#settleNow(base, "cancel", "nobody was attached to answer", shown));
      }
      // A watcher may be attached on another replica.
      return this.#anyWatcher().then(
        (any) =>
          any
            ? this.#hold(req, ctx, base, shown, now)
            : this.#settleNow(base, "cancel", "nobody was attached to answer", shown),
        () => this.#settleNow(base, "cancel", "nobody was attached to answer", shown),
      );
    }
    return this.#hold(req, ctx, base, shown, now);
  }

  #hold(
    req: ElicitRequestParams,
    ctx: ServerRequestContext,
    base: { id: string; upstream: string; mode: "form" | "url"; message: string },
    shown: { url: string; host: string } | undefined,
    now: number,
  ): Promise<ElicitResult> {
    const { id, mode } = base;
    if (ctx.signal.aborted) return Promise.resolve(this.#settleNow(base, "cancel", "withdrawn", shown));
    const view: PendingElicitation = {
      ...base,
      version: ctx.version,
      state: "pending",
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + this.#opts.timeoutMs).toISOString(),
    };
    if (mode === "form" && req.requestedSchema) view.requestedSchema = req.requestedSchema;
    if (shown) Object.assign(view, shown);
    if (mode === "url" && typeof req.elicitationId === "string") view.elicitationId = req.elicitationId;
    if (ctx.related) view.related = ctx.related.method;
    return new Promise<ElicitResult>((resolve) => {
      const onAbort = () => this.#settle(id, { action: "cancel" }, "withdrawn by the server");
      ctx.signal.addEventListener("abort", onAbort, { once: true });
      const timer = setTimeout(() => {
        const waiting = this.#held.get(id)?.view.state === "accepted";
        const why = waiting
          ? "not completed by the server before the deadline"
          : "no answer before the deadline";
        this.#settle(id, { action: "cancel" }, why);
      }, this.#opts.timeoutMs);
      timer.unref();
      this.#held.set(id, {
        view,
        resolve,
        timer,
        cleanup: () => ctx.signal.removeEventListener("abort", onAbort),
      });
      this.#emit({ type: "elicitation.pending", upstream: ctx.upstream, id, mode, message: view.message });
      this.#broadcast({ event: "pending", elicitation: view });
      this.#share(view);
    });
  }

  /**
   * A person's answer. An accepted form is checked against the requested schema (InvalidParamsError
   * naming each field and rule) and sent with its defaults filled; an accepted URL carries nothing.
   */
  answer(id: string, answer: Answer): { id: string; action: Answer["action"]; content?: JSONObject } {
    const held = this.#held.get(id);
    if (!held) throw new InvalidParamsError(`no pending elicitation ${JSON.stringify(id)}`);
    const checked = this.#check(held.view, answer);
    return this.#apply(id, checked);
  }

  /** An answer checked against its question: the action, and an accepted form's content with defaults. */
  #check(view: PendingElicitation, answer: Answer): Answer {
    const id = view.id;
    if (view.state === "accepted") {
      throw new InvalidParamsError(
        `elicitation ${id} was already accepted; it waits for ${view.upstream} to complete it`,
      );
    }
    const action = answer.action;
    if (action !== "accept" && action !== "decline" && action !== "cancel") {
      throw new InvalidParamsError(`action must be "accept", "decline" or "cancel"`);
    }
    if (action !== "accept") return { action };
    if (view.mode === "url") {
      if (answer.content !== undefined)
        throw new InvalidParamsError("a URL elicitation is accepted without content");
      return { action };
    }
    return { action, content: acceptedContent(answer.content ?? {}, view.requestedSchema) };
  }

  /** Settles a held question with a checked answer. */
  #apply(id: string, checked: Answer): { id: string; action: Answer["action"]; content?: JSONObject } {
    const held = this.#held.get(id);
    if (!held) throw new InvalidParamsError(`no pending elicitation ${JSON.stringify(id)}`);
    const { action } = checked;
    if (action === "accept" && held.view.mode === "url") {
      this.#accept(held);
      return { id, action };
    }
    if (checked.content === undefined) {
      this.#settle(id, { action });
      return { id, action };
    }
    this.#settle(id, { action, content: checked.content });
    return { id, action, content: checked.content };
  }

  /** notifications/elicitation/complete (2025-11-25): the interaction behind a URL finished. */
  complete(upstream: string, elicitationId: string): void {
    for (const [id, held] of this.#held) {
      if (held.view.upstream !== upstream || held.view.elicitationId !== elicitationId) continue;
      if (held.view.state === "accepted") this.#drop(id, "accept", "completed by the server");
      // Completed before anyone answered: nobody made a choice.
      else this.#settle(id, { action: "cancel" }, "completed by the server before an answer");
      return;
    }
    // An unknown or already completed id is ignored (elicitation.mdx).
  }

  /**
   * Attaches a watcher until `signal` aborts: a snapshot of what is pending, then every question
   * as it arrives and as it is settled. While one is attached, questions are held for an answer.
   */
  async *watch(signal: AbortSignal): AsyncGenerator<BrokerEvent> {
    const queue: BrokerEvent[] = [{ event: "snapshot", pending: this.list().pending }];
    let wake: (() => void) | undefined;
    const listener = (e: BrokerEvent) => {
      queue.push(e);
      wake?.();
    };
    this.#watchers.add(listener);
    this.#present();
    const stop = () => wake?.();
    signal.addEventListener("abort", stop, { once: true });
    try {
      while (!signal.aborted) {
        while (queue.length > 0 && !signal.aborted) yield queue.shift() as BrokerEvent;
        if (signal.aborted) break;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    } finally {
      this.#watchers.delete(listener);
      this.#present();
      signal.removeEventListener("abort", stop);
    }
  }

  /** Everything pending is cancelled (mcpx stops). */
  close(): void {
    for (const id of [...this.#held.keys()]) this.#settle(id, { action: "cancel" }, "mcpx is stopping");
    clearInterval(this.#presence);
    this.#presence = undefined;
    void this.#unsubscribe?.then((off) => off()).catch(() => {});
    this.#unsubscribe = undefined;
  }

  /** A URL accepted: the upstream is answered; with an elicitationId it stays listed until completed. */
  #accept(held: Held): void {
    const { view } = held;
    held.resolve({ action: "accept" });
    this.#emit({ type: "elicitation.settled", upstream: view.upstream, id: view.id, action: "accept" });
    if (view.elicitationId === undefined) {
      this.#drop(view.id, "accept");
      return;
    }
    view.state = "accepted";
    held.cleanup();
    this.#broadcast({ event: "pending", elicitation: view });
    this.#share(view);
  }

  #settle(id: string, result: ElicitResult, reason?: string): void {
    const held = this.#held.get(id);
    if (!held) return;
    if (held.view.state === "accepted") {
      // Answered already; only the wait for the server's completion ends.
      this.#drop(id, "accept", reason);
      return;
    }
    held.resolve(result);
    this.#emit({ type: "elicitation.settled", upstream: held.view.upstream, id, action: result.action });
    this.#drop(id, result.action, reason);
  }

  #drop(id: string, action: ElicitResult["action"], reason?: string): void {
    const held = this.#held.get(id);
    if (!held) return;
    this.#held.delete(id);
    clearTimeout(held.timer);
    held.cleanup();
    const store = this.#shared();
    if (store) {
      void store.delete(ELICITATION_SPACE, id).catch(() => {});
      void store.delete(ANSWER_SPACE, id).catch(() => {});
    }
    const { view } = held;
    const settled: SettledElicitation = {
      id,
      upstream: view.upstream,
      mode: view.mode,
      message: view.message,
      action,
      settledAt: new Date().toISOString(),
    };
    if (reason) settled.reason = reason;
    if (view.url) Object.assign(settled, { url: view.url, host: view.host });
    this.#remember(settled);
  }

  /** A question settled without being held (refused URL, nobody attached). */
  #settleNow(
    base: { id: string; upstream: string; mode: "form" | "url"; message: string },
    action: ElicitResult["action"],
    reason: string,
    shown?: { url: string; host: string },
  ): ElicitResult {
    this.#emit({
      type: "elicitation.pending",
      upstream: base.upstream,
      id: base.id,
      mode: base.mode,
      message: base.message,
    });
    this.#emit({ type: "elicitation.settled", upstream: base.upstream, id: base.id, action });
    this.#remember({ ...base, action, reason, ...shown, settledAt: new Date().toISOString() });
    return { action };
  }

  #remember(settled: SettledElicitation): void {
    this.#settled.push(settled);
    if (this.#settled.length > this.#opts.keepSettled) this.#settled.shift();
    this.#broadcast({ event: "settled", elicitation: settled });
  }

  #broadcast(e: BrokerEvent): void {
    for (const w of this.#watchers) w(e);
  }

  #newId(): string {
    for (;;) {
      const id = randomBytes(4).toString("hex");
      if (!this.#held.has(id)) return id;
    }
  }
}
