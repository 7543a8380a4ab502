/**
 * The pool: one client per configured upstream, all connected at once at start (a slow or dead one
 * never holds up the others), reconnected with capped exponential backoff and jitter when they fail
 * or drop (a stdio child that died is started again), each step published as a lifecycle event.
 *
 * Readiness: a host lists tools right after initialize, often once (mcporter; any host that ignores
 * list_changed). So what depends on the upstreams waits for each one's first connection attempt, at
 * most its `timeouts.ready`; retries are never waited for. Once every first attempt has ended (or
 * its bound passed), `ready()` is a field read: nothing more is waited for, and nothing is allocated
 * per call.
 */
import {
  type ClientHandlers,
  connectUpstream,
  type EraStore,
  targetFingerprint,
  type UpstreamClient,
} from "@mcpx/client";
import type { ServerConfig } from "@mcpx/config";
import {
  AuthError,
  AuthorizationRequiredError,
  ConfigError,
  ConnectionClosedError,
  type EraRecord,
  type HostHooks,
  type Implementation,
  type Logger,
  type LoggingLevel,
  PluginError,
  type RegistryView,
  type UpstreamTarget,
} from "@mcpx/core";
import { upstreamTarget } from "./upstream-target.js";

export type UpstreamStatus = "connecting" | "connected" | "failed" | "stopped";

export interface UpstreamState {
  name: string;
  namespace: string;
  status: UpstreamStatus;
  revision?: string;
  transport?: string;
  error?: string;
  /**
   * The last attempt failed for want of a user's login (AuthorizationRequiredError): `mcpx auth
   * login <name>` mends it, and the next attempt finds the tokens it stored.
   */
  needsLogin?: boolean;
  /** Connection attempts since the last success. */
  attempts: number;
  connectedAt?: string;
}

export interface PoolEnvironment {
  registry: RegistryView;
  hooks: HostHooks;
  log: Logger;
  /**
   * Takes the credentials out of a text before the pool publishes it (an upstream's error in its
   * state and in lifecycle events): a URL or command may hold a secret from the config, and an
   * upstream's error may quote one. The daemon's runtime redacts what its logger redacts. The
   * gateway cleans every error it sends a client with it too (ServerProtocol.clean).
   */
  redact?: (text: string) => string;
}

export interface PoolOptions {
  servers: readonly ServerConfig[];
  env: PoolEnvironment;
  handlers: ClientHandlers;
  eraStore?: EraStore;
  clientInfo?: Implementation;
  /** The log level asked of every upstream (the daemon asks for info). */
  logLevel?: LoggingLevel;
  /** Adds a server's credentials to its target (auth schemes); identity when absent. */
  authorize?: (server: ServerConfig, target: UpstreamTarget) => Promise<UpstreamTarget>;
  backoff?: { initialMs: number; maxMs: number };
  /** Whether to reconnect after a failure or a drop (one-shot commands do not). */
  reconnect?: boolean;
}

interface Slot {
  server: ServerConfig;
  state: UpstreamState;
  client: UpstreamClient | undefined;
  timer: NodeJS.Timeout | undefined;
  /** Settles when the current connection attempt ends, either way. */
  attempt: Promise<void> | undefined;
  /**
   * Settles when the first attempt ends or its ready bound passes (or the pool stops); undefined
   * before start and once it has settled.
   */
  starting: Promise<void> | undefined;
  /** Ends the wait of `starting` (the pool stops). */
  release: (() => void) | undefined;
  /** Ends this slot's connection attempt in flight (the pool stops, or a reload retires the slot). */
  abort: AbortController;
  /** A reload removed or replaced it: it never connects again, and its client is drained. */
  retired: boolean;
}

/** A call in flight on an upstream that a reload removed or changed, failed once its grace passed. */
export class UpstreamRetiredError extends ConnectionClosedError {}

export type PoolListener = (name: string, client: UpstreamClient | undefined) => void;

export class Pool {
  readonly #opts: PoolOptions;
  readonly #slots = new Map<string, Slot>();
  readonly #listeners = new Set<PoolListener>();
  /** Retired clients still finishing their calls in flight (a reload), each until it is closed. */
  readonly #draining = new Map<UpstreamClient, () => void>();
  #started = false;
  /** Settles when every upstream's `starting` has; undefined when nothing is waited for. */
  #ready: Promise<void> | undefined;
  #stopped = false;

  constructor(opts: PoolOptions) {
    this.#opts = opts;
    // The status's era is the eraResolved hook's: a plugin's tap sees what `mcpx status` shows.
    opts.env.hooks.eraResolved.tap("mcpx:status", (upstream, era) => this.#eraResolved(upstream, era));
    for (const server of opts.servers) {
      if (server.disabled) continue;
      this.#slots.set(server.name, newSlot(server));
    }
  }

  /** Starts connecting every upstream; returns at once. */
  start(): void {
    this.#started = true;
    this.#begin([...this.#slots.values()]);
  }

  /** Connects these slots, and lists and calls wait for their first attempts as at start. */
  #begin(slots: readonly Slot[]): void {
    const waits: Promise<void>[] = [];
    for (const slot of slots) {
      this.#connect(slot);
      const starting = this.#starting(slot);
      if (starting) waits.push(starting);
    }
    if (waits.length === 0) return;
    // Still waiting for earlier ones (a reload during start): for those too.
    if (this.#ready) waits.push(this.#ready);
    const ready = Promise.all(waits).then(() => {
      if (this.#ready === ready) this.#ready = undefined;
    });
    this.#ready = ready;
  }

  /**
   * Applies a reloaded config: `servers` is its whole list, in its order; `restart` names the
   * changed ones. A server no longer there (or disabled) and a changed one are retired: routed to no
   * more, their calls in flight get `graceMs` to finish before they fail and the connection closes.
   * A new or changed one connects. An unchanged one keeps its connection, untouched.
   */
  reconfigure(servers: readonly ServerConfig[], restart: ReadonlySet<string>, graceMs: number): void {
    if (this.#stopped) return;
    const next = new Map<string, Slot>();
    const fresh: Slot[] = [];
    const retire: Slot[] = [];
    for (const server of servers) {
      if (server.disabled) continue;
      const old = this.#slots.get(server.name);
      if (old && !restart.has(server.name)) {
        old.server = server;
        next.set(server.name, old);
        continue;
      }
      if (old) retire.push(old);
      const slot = newSlot(server);
      next.set(server.name, slot);
      fresh.push(slot);
    }
    for (const [name, old] of this.#slots) if (!next.has(name)) retire.push(old);
    this.#slots.clear();
    for (const [name, slot] of next) this.#slots.set(name, slot);
    for (const slot of retire) this.#retire(slot, graceMs, restart.has(slot.server.name));
    if (this.#started) this.#begin(fresh);
  }

  /** Retired calls still in flight, over every draining connection (for tests and status). */
  get draining(): number {
    let n = 0;
    for (const client of this.#draining.keys()) n += client.busy;
    return n;
  }

  #retire(slot: Slot, graceMs: number, changed: boolean): void {
    const name = slot.server.name;
    slot.retired = true;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.release?.();
    // An attempt in flight ends (its child too); a connected client is drained instead.
    slot.abort.abort();
    slot.state.status = "stopped";
    const client = slot.client;
    slot.client = undefined;
    this.#tell(name, undefined);
    if (!client) return;
    const why = changed
      ? `upstream ${name} changed in a config reload and reconnected`
      : `upstream ${name} was removed from the config by a reload`;
    this.#drain(
      client,
      graceMs,
      new UpstreamRetiredError(`${why}; this call did not finish within reload.grace (${graceMs} ms)`),
    );
  }

  /**
   * Waits for the client's calls in flight to end (checked on each answer it gets, at most
   * `graceMs`), then closes it: what is still in flight fails with `reason`.
   */
  #drain(client: UpstreamClient, graceMs: number, reason: Error): void {
    let timer: NodeJS.Timeout | undefined;
    let poll: NodeJS.Timeout | undefined;
    const finish = () => {
      if (!this.#draining.has(client)) return;
      this.#draining.delete(client);
      clearTimeout(timer);
      clearInterval(poll);
      void client.close(reason).catch(() => {});
    };
    this.#draining.set(client, finish);
    if (client.busy === 0) {
      finish();
      return;
    }
    timer = setTimeout(finish, graceMs);
    // The engine has no "idle" event: a short poll, for the grace period only, of one counter.
    poll = setInterval(() => {
      if (client.busy === 0) finish();
    }, 25);
    timer.unref?.();
    poll.unref?.();
  }

  /**
   * What to wait for before answering from the upstreams: every first attempt still in flight, each
   * within its ready bound. Undefined when there is nothing to wait for (then the caller goes on at
   * once, as on every call after start).
   */
  ready(): Promise<void> | undefined {
    return this.#ready;
  }

  /** The same for one upstream: undefined once its first attempt ended or its bound passed. */
  readyFor(name: string): Promise<void> | undefined {
    return this.#ready && this.#slots.get(name)?.starting;
  }

  /** The first attempt, bounded by the upstream's `timeouts.ready`. */
  #starting(slot: Slot): Promise<void> | undefined {
    const attempt = slot.attempt;
    const bound = slot.server.settings.ready;
    if (!attempt || bound <= 0) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const starting = new Promise<void>((resolve) => {
      slot.release = resolve;
      timer = setTimeout(resolve, bound);
      // A process with nothing else to do (stdin ended) is not kept alive by this bound.
      timer.unref?.();
      attempt.then(resolve, resolve);
    }).then(() => {
      clearTimeout(timer);
      if (slot.starting === starting) {
        slot.starting = undefined;
        slot.release = undefined;
      }
    });
    slot.starting = starting;
    return starting;
  }

  /** Resolves once every upstream's first attempt has ended (connected or failed). */
  async settled(): Promise<void> {
    await Promise.all([...this.#slots.values()].map((s) => s.attempt));
  }

  /** Told whenever an upstream connects (client) or drops (undefined). */
  onChange(listener: PoolListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  client(name: string): UpstreamClient | undefined {
    return this.#slots.get(name)?.client;
  }

  /** Connected clients, in config order. */
  clients(): { server: ServerConfig; client: UpstreamClient }[] {
    const out: { server: ServerConfig; client: UpstreamClient }[] = [];
    for (const s of this.#slots.values()) if (s.client) out.push({ server: s.server, client: s.client });
    return out;
  }

  servers(): ServerConfig[] {
    return [...this.#slots.values()].map((s) => s.server);
  }

  states(): UpstreamState[] {
    return [...this.#slots.values()].map((s) => ({ ...s.state }));
  }

  /**
   * Connects `name` again now, whatever its backoff was waiting for: the attempts count starts over
   * (so does the backoff), and a connected upstream is closed first. An attempt already in flight
   * is waited for, and stands if it connected. Resolves with the state once the new attempt ended;
   * undefined for no such upstream.
   */
  async reconnect(name: string): Promise<UpstreamState | undefined> {
    const slot = this.#slots.get(name);
    if (!slot) return undefined;
    if (slot.state.status === "connecting") {
      await slot.attempt;
      if (slot.client) return { ...slot.state };
    }
    // Not while another attempt runs (a second caller's, or the backoff's that fired meanwhile).
    if (!this.#stopped && slot.state.status !== "connecting") {
      if (slot.timer) clearTimeout(slot.timer);
      slot.timer = undefined;
      slot.state.attempts = 0;
      const client = slot.client;
      if (client) {
        // Taken out first: its close is this call's doing, not a drop to reconnect after.
        slot.client = undefined;
        this.#tell(name, undefined);
        await client.close().catch(() => {});
      }
      this.#connect(slot);
    }
    await slot.attempt;
    return { ...slot.state };
  }

  /**
   * Closes every connection, and ends the attempts in flight too (their transports are closed: a
   * stdio server still starting is ended like a connected one). Resolves once all are closed.
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    for (const finish of [...this.#draining.values()]) finish();
    const closing: Promise<void>[] = [];
    for (const slot of this.#slots.values()) {
      slot.abort.abort();
      if (slot.timer) clearTimeout(slot.timer);
      slot.release?.();
      slot.state.status = "stopped";
      if (slot.client) closing.push(slot.client.close());
      slot.client = undefined;
      if (slot.attempt) closing.push(slot.attempt);
    }
    await Promise.allSettled(closing);
  }

  #connect(slot: Slot): void {
    if (this.#stopped || slot.retired) return;
    const { env } = this.#opts;
    const name = slot.server.name;
    slot.state.status = "connecting";
    slot.state.attempts++;
    env.hooks.lifecycle.call({ type: "upstream.connecting", upstream: name, attempt: slot.state.attempts });
    slot.attempt = this.#open(slot).then(
      async (client) => {
        if (this.#stopped || slot.retired) {
          await client.close();
          return;
        }
        slot.client = client;
        // revision and transport came with eraResolved, as the client connected.
        Object.assign(slot.state, {
          status: "connected",
          attempts: 0,
          connectedAt: new Date().toISOString(),
        });
        delete slot.state.error;
        delete slot.state.needsLogin;
        client.onClose((err) => this.#dropped(slot, client, err));
        this.#tell(name, client);
      },
      (err: Error) => {
        // Aborted by stop() or a reload: not a failure of the upstream's.
        if (this.#stopped || slot.retired) return;
        const message = this.#redact(err.message);
        slot.state.status = "failed";
        slot.state.error = message;
        if (needsLogin(err)) slot.state.needsLogin = true;
        else delete slot.state.needsLogin;
        // A bad config or unavailable auth will not mend itself by waiting.
        const fatal = err instanceof ConfigError || err instanceof AuthError || err instanceof PluginError;
        const retryInMs = fatal ? undefined : this.#retryDelay(slot);
        env.log.warn(`upstream failed to connect: ${message}`, { upstream: name });
        env.hooks.lifecycle.call({
          type: "upstream.failed",
          upstream: name,
          error: message,
          ...(retryInMs === undefined ? {} : { retryInMs }),
        });
        if (retryInMs !== undefined) this.#schedule(slot, retryInMs);
      },
    );
  }

  async #open(slot: Slot): Promise<UpstreamClient> {
    const o = this.#opts;
    let target = upstreamTarget(slot.server);
    await o.env.hooks.upstreamConnecting.promise(target);
    const fingerprint = targetFingerprint(target);
    if (o.authorize) target = await o.authorize(slot.server, target);
    const s = slot.server;
    return connectUpstream({
      target,
      fingerprint,
      signal: slot.abort.signal,
      env: o.env,
      settings: s.settings,
      handlers: o.handlers,
      ...(o.eraStore ? { eraStore: o.eraStore } : {}),
      ...(o.clientInfo ? { clientInfo: o.clientInfo } : {}),
      ...(o.logLevel ? { logLevel: o.logLevel } : {}),
      ...(s.revision ? { revision: s.revision } : {}),
      ...(s.transport ? { transport: s.transport } : {}),
    });
  }

  /** An upstream of this pool connected in this era (connectUpstream announces it before returning). */
  #eraResolved(upstream: string, era: EraRecord): void {
    const slot = this.#slots.get(upstream);
    // An upstream of this pool with an attempt in flight (the hooks are the host's, not the pool's).
    if (slot?.state.status !== "connecting") return;
    slot.state.revision = era.revision;
    slot.state.transport = era.transport;
  }

  #dropped(slot: Slot, client: UpstreamClient, err?: Error): void {
    if (slot.client !== client) return;
    slot.client = undefined;
    if (this.#stopped) return;
    const reason = this.#redact(err?.message ?? "connection closed");
    slot.state.status = "failed";
    slot.state.error = reason;
    this.#opts.env.hooks.lifecycle.call({
      type: "upstream.disconnected",
      upstream: slot.server.name,
      reason,
    });
    this.#tell(slot.server.name, undefined);
    const delay = this.#retryDelay(slot);
    if (delay !== undefined) this.#schedule(slot, delay);
  }

  #redact(text: string): string {
    return this.#opts.env.redact ? this.#opts.env.redact(text) : text;
  }

  /** Capped exponential backoff with full jitter; undefined when this pool does not reconnect. */
  #retryDelay(slot: Slot): number | undefined {
    if (this.#stopped || this.#opts.reconnect === false) return undefined;
    const { initialMs, maxMs } = this.#opts.backoff ?? { initialMs: 500, maxMs: 30_000 };
    const ceiling = Math.min(maxMs, initialMs * 2 ** Math.max(0, slot.state.attempts - 1));
    return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
  }

  #schedule(slot: Slot, ms: number): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = setTimeout(() => {
      slot.timer = undefined;
      this.#connect(slot);
    }, ms);
    slot.timer.unref?.();
  }

  #tell(name: string, client: UpstreamClient | undefined): void {
    for (const fn of this.#listeners) {
      try {
        fn(name, client);
      } catch (err) {
        this.#opts.env.log.warn("pool listener threw", { error: (err as Error).message });
      }
    }
  }
}

function newSlot(server: ServerConfig): Slot {
  return {
    server,
    state: { name: server.name, namespace: server.namespace, status: "connecting", attempts: 0 },
    client: undefined,
    timer: undefined,
    attempt: undefined,
    starting: undefined,
    release: undefined,
    abort: new AbortController(),
    retired: false,
  };
}

/** An attempt that failed for want of a login, however deep the connection wrapped the error. */
function needsLogin(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (e instanceof AuthorizationRequiredError) return true;
  }
  return false;
}
