/**
 * A StateStore on Redis through ioredis. Two connections: one for commands, a duplicate for
 * SUBSCRIBE (Redis takes no other command on a subscribed connection). Commands are never queued
 * while the connection is down: each fails at once with StoreUnavailableError while ioredis
 * reconnects in the background, so no caller waits on a store that is gone.
 */
import { type Logger, type StateStore, type StoreSetOptions, StoreUnavailableError } from "@mcpx/core";
import type { Redis, RedisOptions } from "ioredis";
import { redactUrl } from "./redact.js";

export interface RedisStoreOptions {
  url: string;
  /** The first part of every key and channel (default "mcpx"). */
  prefix?: string;
  /** How long connecting may take before it fails (default DEFAULT_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs?: number;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;
/** The longest wait between two reconnection attempts after the connection is lost. */
const MAX_RECONNECT_DELAY_MS = 2000;
/** Keys per SCAN step and per MGET. */
const BATCH = 500;

type Listener = (message: unknown) => void;

/** Why a connection or a command failed, in words (the system's code where there is one). */
function reason(err: unknown, timeoutMs: number): string {
  const e = err as NodeJS.ErrnoException | undefined;
  const message = e?.message ?? String(err);
  switch (e?.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "host not found";
    case "ETIMEDOUT":
      return `no answer within ${timeoutMs} ms`;
    case "ECONNRESET":
      return "connection reset";
  }
  if (/^(WRONGPASS|NOAUTH)/.test(message)) return `the credentials were refused (${message})`;
  return message;
}

/** `*`, `?`, `[`, `]` and `\` match themselves in a SCAN pattern once escaped. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, "\\$&");
}

async function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Connects, or fails with StoreUnavailableError naming the URL (password redacted) and why: a
 * refused connection, an unknown host or no answer in time fail at once, never retried.
 */
export async function connectRedisStore(options: RedisStoreOptions, log: Logger): Promise<RedisStore> {
  const shown = redactUrl(options.url);
  const timeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  // Loaded here, not at the top: an mcpx without a Redis store never loads ioredis.
  const { Redis } = await import("ioredis");
  let connected = false;
  const redisOptions: RedisOptions = {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    // A command while the connection is down fails at once, and one in flight when it drops fails
    // too, rather than waiting for a reconnection that may never come.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // The first connection is not retried (a wrong URL fails now); a lost one is, without end.
    retryStrategy: (attempt) => (connected ? Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS) : null),
  };
  const connect = async (client: Redis, what: string): Promise<void> => {
    let lastError: unknown;
    const onError = (err: unknown) => {
      lastError = err;
    };
    client.on("error", onError);
    try {
      await withTimeout(client.connect(), timeoutMs + 100, () =>
        Object.assign(new Error("timed out"), { code: "ETIMEDOUT" }),
      );
    } catch (err) {
      client.disconnect();
      const why = reason(lastError ?? err, timeoutMs);
      throw new StoreUnavailableError(
        "redis",
        `cannot connect${what} to the redis store at ${shown}: ${why}`,
        {
          cause: lastError ?? err,
        },
      );
    } finally {
      client.off("error", onError);
    }
  };
  const client = new Redis(options.url, redisOptions);
  await connect(client, "");
  connected = true;
  const store = new RedisStore(client, { shown, prefix: options.prefix ?? "mcpx", timeoutMs, log, connect });
  log.info(`state store: redis at ${shown}`);
  return store;
}

interface Internals {
  shown: string;
  prefix: string;
  timeoutMs: number;
  log: Logger;
  connect: (client: Redis, what: string) => Promise<void>;
}

export class RedisStore implements StateStore {
  readonly type = "redis";
  readonly shared = true;
  readonly #client: Redis;
  readonly #at: Internals;
  #subscriber: Promise<Redis> | undefined;
  readonly #listeners = new Map<string, Set<Listener>>();
  /** Each channel's SUBSCRIBE, so a second listener waits for the first one's acknowledgement. */
  readonly #subscribed = new Map<string, Promise<unknown>>();
  #closed = false;

  constructor(client: Redis, internals: Internals) {
    this.#client = client;
    this.#at = internals;
    this.#watch(client, "");
  }

  /** The URL it was made with, its password redacted (for status and messages). */
  get location(): string {
    return this.#at.shown;
  }

  /** One warning when a connection drops, one line when it is back: never the password. */
  #watch(client: Redis, what: string): void {
    let lost = false;
    let lastError: unknown;
    client.on("error", (err) => {
      lastError = err;
    });
    // Emitted for every attempt; a clean close (Redis shut down) comes with no error at all.
    client.on("reconnecting", () => {
      if (lost || this.#closed) return;
      lost = true;
      const why = lastError === undefined ? "connection closed" : reason(lastError, this.#at.timeoutMs);
      this.#at.log.warn(`the redis store at ${this.#at.shown}${what} is unreachable (${why}); reconnecting`);
    });
    client.on("ready", () => {
      lastError = undefined;
      if (!lost) return;
      lost = false;
      this.#at.log.info(`the redis store at ${this.#at.shown}${what} is reachable again`);
    });
  }

  #key(space: string, key: string): string {
    return `${this.#at.prefix}:${space}:${key}`;
  }

  async #run<T>(what: string, op: () => Promise<T>): Promise<T> {
    if (this.#closed)
      throw new StoreUnavailableError("redis", `the redis store at ${this.#at.shown} is closed`);
    try {
      return await op();
    } catch (err) {
      throw new StoreUnavailableError(
        "redis",
        `${what} failed on the redis store at ${this.#at.shown}: ${reason(err, this.#at.timeoutMs)}`,
        { cause: err },
      );
    }
  }

  /** A value that is not JSON (something else wrote the key) reads as no entry, with a warning. */
  #parse<T>(redisKey: string, text: string | null): T | undefined {
    if (text === null) return undefined;
    try {
      return JSON.parse(text) as T;
    } catch {
      this.#at.log.warn(`the redis store's key ${redisKey} does not hold JSON; it is ignored`);
      return undefined;
    }
  }

  #setArgs(space: string, key: string, value: unknown, opts?: StoreSetOptions): Array<string | number> {
    const args: Array<string | number> = [this.#key(space, key), JSON.stringify(value) ?? "null"];
    if (opts?.ttlMs !== undefined) args.push("PX", Math.max(1, Math.ceil(opts.ttlMs)));
    return args;
  }

  get<T = unknown>(space: string, key: string): Promise<T | undefined> {
    const k = this.#key(space, key);
    return this.#run(`get ${space}/${key}`, async () => this.#parse<T>(k, await this.#client.get(k)));
  }

  set(space: string, key: string, value: unknown, opts?: StoreSetOptions): Promise<void> {
    return this.#run(`set ${space}/${key}`, async () => {
      await this.#client.call("SET", ...this.#setArgs(space, key, value, opts));
    });
  }

  setIfAbsent(space: string, key: string, value: unknown, opts?: StoreSetOptions): Promise<boolean> {
    return this.#run(`setIfAbsent ${space}/${key}`, async () => {
      const answer = await this.#client.call("SET", ...this.#setArgs(space, key, value, opts), "NX");
      return answer === "OK";
    });
  }

  delete(space: string, key: string): Promise<boolean> {
    return this.#run(
      `delete ${space}/${key}`,
      async () => (await this.#client.del(this.#key(space, key))) > 0,
    );
  }

  entries<T = unknown>(space: string): Promise<Array<[string, T]>> {
    return this.#run(`entries of ${space}`, async () => {
      const base = this.#key(space, "");
      // SCAN, never KEYS: it walks the keyspace in steps and does not stop Redis for the others.
      const keys = new Set<string>();
      let cursor = "0";
      do {
        const [next, batch] = await this.#client.scan(
          cursor,
          "MATCH",
          `${escapeGlob(base)}*`,
          "COUNT",
          BATCH,
        );
        cursor = next;
        for (const k of batch) keys.add(k);
      } while (cursor !== "0");
      const all = [...keys];
      const out: Array<[string, T]> = [];
      for (let i = 0; i < all.length; i += BATCH) {
        const chunk = all.slice(i, i + BATCH);
        const values = await this.#client.mget(...chunk);
        chunk.forEach((k, j) => {
          // null: the entry expired or was deleted between SCAN and MGET.
          const value = this.#parse<T>(k, values[j] ?? null);
          if (value !== undefined) out.push([k.slice(base.length), value]);
        });
      }
      return out;
    });
  }

  publish(channel: string, message: unknown): Promise<void> {
    return this.#run(`publish on ${channel}`, async () => {
      await this.#client.publish(this.#channel(channel), JSON.stringify(message ?? null));
    });
  }

  #channel(channel: string): string {
    return `${this.#at.prefix}:ch:${channel}`;
  }

  /** The subscribing connection, made with the first subscription. */
  #sub(): Promise<Redis> {
    this.#subscriber ??= (async () => {
      const sub = this.#client.duplicate();
      await this.#at.connect(sub, " its subscriber");
      this.#watch(sub, " (subscriber)");
      const base = this.#channel("");
      sub.on("message", (redisChannel: string, text: string) => {
        const listeners = this.#listeners.get(redisChannel.slice(base.length));
        if (!listeners) return;
        const message = this.#parse(redisChannel, text);
        for (const listener of [...listeners]) {
          try {
            listener(message);
          } catch (err) {
            this.#at.log.warn(`a listener of channel ${redisChannel} threw: ${(err as Error).message}`);
          }
        }
      });
      return sub;
    })();
    // A failed first connection is tried again by the next subscribe.
    this.#subscriber.catch(() => {
      this.#subscriber = undefined;
    });
    return this.#subscriber;
  }

  async subscribe(channel: string, listener: Listener): Promise<() => Promise<void>> {
    if (this.#closed)
      throw new StoreUnavailableError("redis", `the redis store at ${this.#at.shown} is closed`);
    const sub = await this.#sub();
    let listeners = this.#listeners.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.#listeners.set(channel, listeners);
      const subscribing = this.#run(`subscribe to ${channel}`, () => sub.subscribe(this.#channel(channel)));
      this.#subscribed.set(channel, subscribing);
      subscribing.catch(() => {
        if (this.#listeners.get(channel)?.size === 0) this.#listeners.delete(channel);
        this.#subscribed.delete(channel);
      });
    }
    await this.#subscribed.get(channel);
    listeners.add(listener);
    return async () => {
      const current = this.#listeners.get(channel);
      if (!current?.delete(listener) || current.size > 0) return;
      this.#listeners.delete(channel);
      this.#subscribed.delete(channel);
      if (this.#closed) return;
      // Down now: ioredis would subscribe again on reconnection, and its messages find no listener.
      await sub.unsubscribe(this.#channel(channel)).catch(() => {});
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#listeners.clear();
    const sub = await this.#subscriber?.catch(() => undefined);
    for (const client of sub ? [this.#client, sub] : [this.#client]) {
      // QUIT lets the replies in flight arrive; a connection that is down is just dropped.
      await client.quit().catch(() => client.disconnect());
    }
  }
}
