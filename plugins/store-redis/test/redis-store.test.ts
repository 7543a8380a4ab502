import { randomUUID } from "node:crypto";
import { type Logger, StoreUnavailableError, silentLogger } from "@mcpx/core";
import { type RunningRedis, startRedis } from "@mcpx/testkit";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import plugin, { connectRedisStore, redisStoreFactory } from "../src/index.js";
import { storeContract } from "./contract.js";

/** A logger that keeps its lines, to show what the store logs (never a password). */
function recordingLogger(lines: string[]): Logger {
  const log: Logger = {
    ...silentLogger,
    info: (m: string) => void lines.push(m),
    warn: (m: string) => void lines.push(m),
    error: (m: string) => void lines.push(m),
    debug: (m: string) => void lines.push(m),
    child: () => log,
  } as Logger;
  return log;
}

describe("store-redis", () => {
  let redis: RunningRedis;
  beforeAll(async () => {
    redis = await startRedis({ password: "s3cret-pass" });
  }, 30_000);
  afterAll(async () => {
    await redis?.stop();
  });

  // Each case its own prefix: the cases share one redis-server and never see each other's keys.
  storeContract("store-redis", async () => {
    const prefix = `t-${randomUUID()}`;
    const a = await connectRedisStore({ url: redis.url, prefix }, silentLogger);
    const b = await connectRedisStore({ url: redis.url, prefix }, silentLogger);
    return { a, b };
  });

  it("store-redis/the-plugin-registers-the-shared-store-type-redis", async () => {
    const { createHost } = await import("@mcpx/host");
    const host = createHost({ log: silentLogger });
    await host.use(plugin);
    expect(host.registry.store("redis")).toBe(redisStoreFactory);
    const store = await redisStoreFactory.create(
      { url: redis.url },
      { stateDir: "/nonexistent", log: silentLogger },
    );
    try {
      expect(store.type).toBe("redis");
      expect(store.shared).toBe(true);
      await store.set("era", "k", 1);
      expect(await store.get("era", "k")).toBe(1);
    } finally {
      await store.delete("era", "k");
      await store.close();
    }
  });

  it("store-redis/connection-refused-names-the-url-without-the-password", async () => {
    // A port nothing listens on: the one of a redis-server just stopped.
    const gone = await startRedis();
    await gone.stop();
    const lines: string[] = [];
    const url = `redis://mcpx:hunter2-secret@127.0.0.1:${gone.port}/0`;
    const failure = await connectRedisStore({ url }, recordingLogger(lines)).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    const err = failure as StoreUnavailableError;
    expect(err.code).toBe(-31006);
    expect(err.message).toContain(`redis://mcpx:***@127.0.0.1:${gone.port}/0`);
    expect(err.message).toContain("connection refused");
    expect(err.message).not.toContain("hunter2-secret");
    expect(JSON.stringify(err.toJSONRPC())).not.toContain("hunter2-secret");
    expect(lines.join("\n")).not.toContain("hunter2-secret");

    // A wrong password is refused as such, and is not quoted either.
    const wrong = redis.url.replace("s3cret-pass", "not-the-pass");
    const refused = await connectRedisStore({ url: wrong }, silentLogger).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StoreUnavailableError);
    expect((refused as Error).message).toContain("credentials were refused");
    expect((refused as Error).message).not.toContain("not-the-pass");
  });

  it("store-redis/lost-connection-fails-operations-with-a-named-error", async () => {
    const own = await startRedis({ password: "pw-of-own" });
    const lines: string[] = [];
    const store = await connectRedisStore({ url: own.url }, recordingLogger(lines));
    const heard: unknown[] = [];
    try {
      await store.set("era", "up", { era: "legacy" });
      await store.subscribe("events", (m) => heard.push(m));
      await own.stop();
      // Every operation fails at once with the named error while ioredis reconnects.
      for (const op of [
        () => store.get("era", "up"),
        () => store.set("era", "up", 2),
        () => store.setIfAbsent("era", "x", 2),
        () => store.delete("era", "up"),
        () => store.entries("era"),
        () => store.publish("events", 1),
      ]) {
        const failure = await op().catch((e: unknown) => e);
        expect(failure).toBeInstanceOf(StoreUnavailableError);
        expect((failure as Error).message).toContain("redis://:***@127.0.0.1");
        expect((failure as Error).message).not.toContain("pw-of-own");
      }
      // The same Redis back on the same port: the store reconnects, and the subscription with it.
      const back = await startRedis({ password: "pw-of-own", port: own.port });
      try {
        await vi.waitFor(async () => expect(await store.set("era", "up", 3)).toBeUndefined(), {
          timeout: 15_000,
          interval: 100,
        });
        expect(await store.get("era", "up")).toBe(3);
        await vi.waitFor(
          async () => {
            await store.publish("events", "again");
            expect(heard).toContain("again");
          },
          { timeout: 15_000, interval: 100 },
        );
      } finally {
        await store.close();
        await back.stop();
      }
      expect(lines.some((l) => l.includes("unreachable"))).toBe(true);
      expect(lines.join("\n")).not.toContain("pw-of-own");
    } finally {
      await store.close();
      await own.stop();
    }
  }, 60_000);
});
