/**
 * The state store: what must outlive one process or be seen by every replica of a gateway (era
 * records, OAuth grants, pending elicitations and their answers, which replica holds which legacy
 * session). Values are JSON; every entry lives in a named space ("era", "oauth", "elicitation",
 * "session", …) under a key. A store plugin registers a StoreFactory; config selects one by type
 * (`"store": { "type": "redis", "url": "redis://127.0.0.1:6379" }`). The embedded default (memory,
 * plus the state directory for what must survive a restart) needs no setup.
 *
 * Nothing here is on the per-call path: the gateway reads and writes the store when an upstream
 * connects, a session opens or moves, an elicitation is queued or answered.
 */
import type { JSONObject } from "./jsonrpc.js";
import type { Logger } from "./log.js";

export interface StoreSetOptions {
  /** The entry disappears after this long (a claim that must lapse when its owner dies). */
  ttlMs?: number;
}

export interface StateStore {
  /** The factory's type ("memory", "redis"), for status and logs. */
  readonly type: string;
  /**
   * Whether other processes see this store (a replica set). The embedded store is not shared: a
   * gateway on it never looks for another replica.
   */
  readonly shared: boolean;
  get<T = unknown>(space: string, key: string): Promise<T | undefined>;
  set(space: string, key: string, value: unknown, opts?: StoreSetOptions): Promise<void>;
  /** Sets only where no live entry is; true when this call set it (a claim, a first answer). */
  setIfAbsent(space: string, key: string, value: unknown, opts?: StoreSetOptions): Promise<boolean>;
  /** Removes the entry; true when there was one (so exactly one of two racing deleters wins). */
  delete(space: string, key: string): Promise<boolean>;
  /** Every live entry of a space, in no particular order. */
  entries<T = unknown>(space: string): Promise<Array<[key: string, value: T]>>;
  /** Tells every subscriber of the channel, in every process on this store (this one included). */
  publish(channel: string, message: unknown): Promise<void>;
  /** Listens on a channel until the returned function is called. */
  subscribe(channel: string, listener: (message: unknown) => void): Promise<() => Promise<void>>;
  /** Closes connections; pending operations fail. */
  close(): Promise<void>;
}

export interface StoreContext {
  /** The state directory of this gateway (the embedded store keeps durable spaces there). */
  stateDir: string;
  log: Logger;
}

/** Registered by a store plugin; the host makes the store the config selects, once. */
export interface StoreFactory {
  /** The config's `store.type`. */
  readonly type: string;
  /** JSON Schema of the rest of the config's `store` object, checked before `create`. */
  readonly optionsSchema?: JSONObject;
  create(options: JSONObject, ctx: StoreContext): Promise<StateStore>;
}
