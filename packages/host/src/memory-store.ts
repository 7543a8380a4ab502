/**
 * The store every host starts with: entries in this process's memory, channels on an
 * EventEmitter. Not shared, so a gateway on it never looks for another replica. A store plugin
 * (Redis) or the daemon's embedded store (memory plus the state directory) takes its place.
 */
import { EventEmitter } from "node:events";
import type { StateStore, StoreSetOptions } from "@mcpx/core";

interface Entry {
  json: string;
  expiresAt: number;
}

export class MemoryStore implements StateStore {
  readonly type = "memory";
  readonly shared = false;
  readonly #spaces = new Map<string, Map<string, Entry>>();
  readonly #channels = new EventEmitter().setMaxListeners(0);

  #live(space: string, key: string): Entry | undefined {
    const entries = this.#spaces.get(space);
    const entry = entries?.get(key);
    if (entry && entry.expiresAt <= Date.now()) {
      entries?.delete(key);
      return undefined;
    }
    return entry;
  }

  async get<T = unknown>(space: string, key: string): Promise<T | undefined> {
    const entry = this.#live(space, key);
    // A copy, as a shared store would hand out: a caller cannot change what is stored by mutating it.
    return entry ? (JSON.parse(entry.json) as T) : undefined;
  }

  async set(space: string, key: string, value: unknown, opts?: StoreSetOptions): Promise<void> {
    let entries = this.#spaces.get(space);
    if (!entries) {
      entries = new Map();
      this.#spaces.set(space, entries);
    }
    const ttl = opts?.ttlMs;
    entries.set(key, {
      json: JSON.stringify(value),
      expiresAt: ttl === undefined ? Infinity : Date.now() + ttl,
    });
  }

  async setIfAbsent(space: string, key: string, value: unknown, opts?: StoreSetOptions): Promise<boolean> {
    if (this.#live(space, key)) return false;
    await this.set(space, key, value, opts);
    return true;
  }

  async delete(space: string, key: string): Promise<boolean> {
    const had = this.#live(space, key) !== undefined;
    this.#spaces.get(space)?.delete(key);
    return had;
  }

  async entries<T = unknown>(space: string): Promise<Array<[string, T]>> {
    const out: Array<[string, T]> = [];
    for (const key of [...(this.#spaces.get(space)?.keys() ?? [])]) {
      const entry = this.#live(space, key);
      if (entry) out.push([key, JSON.parse(entry.json) as T]);
    }
    return out;
  }

  async publish(channel: string, message: unknown): Promise<void> {
    const copy = JSON.parse(JSON.stringify(message ?? null)) as unknown;
    // Delivered after the publisher's turn, as a store across processes would.
    queueMicrotask(() => this.#channels.emit(channel, copy));
  }

  async subscribe(channel: string, listener: (message: unknown) => void): Promise<() => Promise<void>> {
    this.#channels.on(channel, listener);
    return async () => {
      this.#channels.off(channel, listener);
    };
  }

  async close(): Promise<void> {
    this.#channels.removeAllListeners();
    this.#spaces.clear();
  }
}
