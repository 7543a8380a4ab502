/**
 * The gateway: the pool of upstreams, the catalog over them, resource subscriptions, and the peers
 * (downstream clients) that notifications go back to. Transports (stdio, HTTP) serve peers through
 * `protocol`.
 */
import type { ClientHandlers, EraStore, UpstreamClient } from "@mcpx/client";
import type { ServerConfig } from "@mcpx/config";
import {
  type Implementation,
  type JSONObject,
  type LifecycleEvent,
  LOGGING_LEVELS,
  type LoggingLevel,
  TASKS_EXTENSION,
  type Telemetry,
  type UpstreamTarget,
} from "@mcpx/core";
import { Catalog, CHANGED } from "./catalog.js";
import { Dispatcher } from "./dispatcher.js";
import { EventLog } from "./event-log.js";
import { Namespaces } from "./namespaces.js";
import { Pool, type PoolEnvironment } from "./pool.js";
import type { Peer } from "./server/peer.js";
import { ServerProtocol } from "./server/protocol.js";
import { GatewaySkills } from "./skills.js";
import { ResourceSubscriptions } from "./subscriptions.js";

/** The extensions the gateway relays to its clients when an upstream offers them. */
export const RELAYED_EXTENSIONS: readonly string[] = Object.freeze([TASKS_EXTENSION]);

export const MCPX_SERVER_INFO: Implementation = { name: "mcpx", version: "0.1.0", title: "mcpx gateway" };

export interface GatewayOptions {
  servers: readonly ServerConfig[];
  env: PoolEnvironment;
  handlers: ClientHandlers;
  eraStore?: EraStore;
  authorize?: (server: ServerConfig, target: UpstreamTarget) => Promise<UpstreamTarget>;
  serverInfo?: Implementation;
  instructions?: string;
  pageSize?: number;
  /** One-shot use (the CLI without a daemon): no reconnecting. */
  reconnect?: boolean;
  /** Reconnection backoff (default 500 ms doubling to 30 s, with jitter). */
  backoff?: { initialMs: number; maxMs: number };
  /** How long a modern client has to retry after input_required (default 10 min). */
  inputTtlMs?: number;
  /** Traces and metrics (the daemon makes it when telemetry is on); none: the call path does nothing more. */
  telemetry?: Telemetry;
}

export class Gateway {
  readonly pool: Pool;
  readonly catalog: Catalog;
  readonly namespaces: Namespaces;
  readonly subscriptions: ResourceSubscriptions;
  readonly skills: GatewaySkills;
  readonly dispatcher: Dispatcher;
  readonly protocol: ServerProtocol;
  readonly events: EventLog;
  readonly #peers = new Map<string, Peer>();
  #opts: GatewayOptions;
  readonly #unsubscribe = new Map<string, () => void>();
  readonly #onStop = new Set<() => void | Promise<void>>();

  constructor(opts: GatewayOptions) {
    this.#opts = opts;
    const log = opts.env.log;
    this.pool = new Pool({
      servers: opts.servers,
      env: opts.env,
      handlers: opts.handlers,
      // The daemon asks every upstream for info-level log lines (modern ones through _meta).
      logLevel: "info",
      ...(opts.eraStore ? { eraStore: opts.eraStore } : {}),
      ...(opts.authorize ? { authorize: opts.authorize } : {}),
      ...(opts.reconnect === false ? { reconnect: false } : {}),
      ...(opts.backoff ? { backoff: opts.backoff } : {}),
    });
    this.namespaces = new Namespaces(opts.servers);
    this.catalog = new Catalog(this.pool, this.namespaces, log);
    this.subscriptions = new ResourceSubscriptions(log);
    this.skills = new GatewaySkills(this.pool, this.namespaces, log);
    this.dispatcher = new Dispatcher(this.catalog, this.subscriptions, {
      handlers: opts.handlers,
      skills: this.skills,
      ...(opts.pageSize === undefined ? {} : { pageSize: opts.pageSize }),
      ...(opts.inputTtlMs === undefined ? {} : { inputTtlMs: opts.inputTtlMs }),
      upstreamState: (server) => this.pool.states().find((s) => s.name === server),
      upstreamClient: (server) => this.pool.client(server),
    });
    // The pool's redact is the protocol's too: what a client is sent is cleaned as what is published.
    this.protocol = new ServerProtocol(
      this.dispatcher,
      {
        serverInfo: opts.serverInfo ?? MCPX_SERVER_INFO,
        ...(opts.instructions ? { instructions: opts.instructions } : {}),
      },
      opts.env.registry,
      opts.env.redact,
      () => this.#relayedExtensions(),
      opts.telemetry,
    );
    // Read when metrics are collected, never per call.
    opts.telemetry?.observeUpstreams(() => this.pool.states());
    this.events = new EventLog();
    // The event stream (`mcpx events`, the status's history) is a lifecycle tap like any plugin's.
    opts.env.hooks.lifecycle.tap("mcpx:events", (e) => this.events.push(e));
    this.pool.onChange((name, client) => this.#upstreamChanged(name, client));
  }

  start(): void {
    this.pool.start();
  }

  /**
   * Applies a reloaded config's servers (its whole list, in order): `restart` names the changed
   * ones, which reconnect; those gone are closed once their calls in flight end (within `graceMs`).
   * Clients hear list_changed for what was added, removed or restarted, and nothing else.
   */
  reconfigure(servers: readonly ServerConfig[], restart: ReadonlySet<string>, graceMs: number): void {
    this.#opts = { ...this.#opts, servers };
    this.namespaces.reset(servers);
    this.catalog.setServers(servers.filter((s) => !s.disabled));
    this.pool.reconfigure(servers, restart, graceMs);
  }

  /** Runs before the gateway stops (downstream transports end their streams gracefully). */
  onStop(fn: () => void | Promise<void>): () => void {
    this.#onStop.add(fn);
    return () => this.#onStop.delete(fn);
  }

  async stop(): Promise<void> {
    const before = [...this.#onStop];
    this.#onStop.clear();
    await Promise.allSettled(before.map(async (fn) => fn()));
    this.dispatcher.close();
    for (const off of this.#unsubscribe.values()) off();
    this.#unsubscribe.clear();
    await this.pool.stop();
    await this.#opts.telemetry?.shutdown();
  }

  /** Publishes a lifecycle event (the `lifecycle` hook, which the event log taps). */
  emit(event: LifecycleEvent): void {
    this.#opts.env.hooks.lifecycle.call(event);
  }

  addPeer(peer: Peer): void {
    this.#peers.set(peer.id, peer);
  }

  async removePeer(peer: Peer): Promise<void> {
    this.#peers.delete(peer.id);
    await this.subscriptions.dropPeer(peer, (server) => this.pool.client(server));
  }

  get peers(): readonly Peer[] {
    return [...this.#peers.values()];
  }

  /**
   * The extensions mcpx relays (RELAYED_EXTENSIONS) that a connected upstream offers: a client is
   * told of one only when some upstream can serve it.
   */
  #relayedExtensions(): Record<string, JSONObject> {
    const out: Record<string, JSONObject> = {};
    for (const { client } of this.pool.clients()) {
      let offered: unknown;
      try {
        offered = client.negotiated.serverCapabilities.extensions;
      } catch {
        continue; // closing between the listing and here
      }
      if (typeof offered !== "object" || offered === null) continue;
      for (const id of RELAYED_EXTENSIONS) if (Object.hasOwn(offered, id)) out[id] = {};
    }
    return out;
  }

  #upstreamChanged(name: string, client: UpstreamClient | undefined): void {
    this.#unsubscribe.get(name)?.();
    this.#unsubscribe.delete(name);
    this.catalog.invalidate(name);
    if (client) {
      const off = client.onNotification("*", (params, method) => this.#fromUpstream(name, method, params));
      this.#unsubscribe.set(name, off);
      void this.subscriptions.resubscribe(name, client);
    }
    // What the union holds changed: every list may have.
    for (const method of Object.keys(CHANGED)) this.#broadcast(method, {});
  }

  #fromUpstream(server: string, method: string, params: JSONObject): void {
    const kinds = Object.hasOwn(CHANGED, method) ? CHANGED[method] : undefined;
    if (kinds) {
      this.catalog.invalidate(server, kinds);
      this.#broadcast(method, {});
      return;
    }
    if (method === "notifications/resources/updated" && typeof params.uri === "string") {
      this.subscriptions.updated(server, params.uri);
      return;
    }
    if (method === "notifications/message") this.#log(server, params);
  }

  /** An upstream's log line, to every peer that asked for that level, under the upstream's namespace. */
  #log(server: string, params: JSONObject): void {
    const level = LOGGING_LEVELS.indexOf(params.level as LoggingLevel);
    if (level < 0) return;
    const ns = this.#opts.servers.find((s) => s.name === server)?.namespace ?? server;
    const logger = typeof params.logger === "string" ? `${ns}/${params.logger}` : ns;
    for (const peer of this.#peers.values()) {
      if (peer.logLevel === undefined || level < LOGGING_LEVELS.indexOf(peer.logLevel)) continue;
      peer.notify("notifications/message", { ...params, logger });
    }
  }

  #broadcast(method: string, params: JSONObject): void {
    for (const peer of this.#peers.values()) peer.notify(method, params);
  }
}
