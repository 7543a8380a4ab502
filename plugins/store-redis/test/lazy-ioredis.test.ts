import { silentLogger } from "@mcpx/core";
import { createHost } from "@mcpx/host";
import { startRedis } from "@mcpx/testkit";
import { describe, expect, it, vi } from "vitest";

// The mock's factory runs when something imports ioredis, and not before.
const loaded = vi.hoisted(() => ({ ioredis: false }));
vi.mock("ioredis", async (importOriginal) => {
  loaded.ioredis = true;
  return importOriginal();
});

describe("memory", () => {
  it("memory/ioredis-loads-only-when-the-redis-store-is-used", async () => {
    const { default: plugin } = await import("../src/index.js");
    const host = createHost({ log: silentLogger });
    await host.use(plugin);
    expect(host.registry.store("redis")).toBeDefined();
    expect(loaded.ioredis).toBe(false);
    const redis = await startRedis();
    try {
      const store = await host.registry
        .store("redis")
        ?.create({ url: redis.url }, { stateDir: "", log: silentLogger });
      expect(loaded.ioredis).toBe(true);
      await store?.close();
    } finally {
      await redis.stop();
    }
  }, 30_000);
});
