/**
 * What every StateStore does, as one suite run against each store: MemoryStore as `store/<case>`,
 * the Redis store as `store-redis/<case>`. A case gets two handles on one store: the same object for
 * a store in one process, two connections for a shared one (what two replicas would hold).
 */
import type { StateStore } from "@mcpx/core";
import { expect, it, vi } from "vitest";

export interface StorePair {
  a: StateStore;
  b: StateStore;
}

export function storeContract(area: string, make: () => Promise<StorePair>): void {
  const withStores = async (body: (pair: StorePair) => Promise<void>) => {
    const pair = await make();
    try {
      await body(pair);
    } finally {
      await pair.a.close();
      if (pair.b !== pair.a) await pair.b.close();
    }
  };

  it(`${area}/get-returns-what-another-handle-set-as-a-copy`, () =>
    withStores(async ({ a, b }) => {
      const value = { era: "2026-07-28", nested: { list: [1, "two", null] } };
      await a.set("era", "up", value);
      value.nested.list.push(4);
      expect(await b.get("era", "up")).toEqual({ era: "2026-07-28", nested: { list: [1, "two", null] } });
      expect(await b.get("era", "other")).toBeUndefined();
      expect(await b.get("oauth", "up")).toBeUndefined();
      await b.set("era", "up", "replaced");
      expect(await a.get("era", "up")).toBe("replaced");
    }));

  it(`${area}/set-if-absent-only-one-of-two-racers-wins`, () =>
    withStores(async ({ a, b }) => {
      for (let round = 0; round < 20; round++) {
        const key = `claim-${round}`;
        const wins = await Promise.all([
          a.setIfAbsent("session", key, "a"),
          b.setIfAbsent("session", key, "b"),
        ]);
        expect(wins.filter(Boolean)).toHaveLength(1);
        expect(await a.get("session", key)).toBe(wins[0] ? "a" : "b");
      }
      expect(await a.setIfAbsent("session", "claim-0", "late")).toBe(false);
    }));

  it(`${area}/ttl-entries-expire`, () =>
    withStores(async ({ a, b }) => {
      await a.set("session", "lapsing", { holder: "a" }, { ttlMs: 30 });
      await a.set("session", "kept", { holder: "a" });
      expect(await a.setIfAbsent("session", "claim", "a", { ttlMs: 30 })).toBe(true);
      await vi.waitFor(async () => expect(await b.get("session", "lapsing")).toBeUndefined(), {
        timeout: 5000,
        interval: 20,
      });
      // A claim whose owner stopped renewing it lapses, and another can take it.
      await vi.waitFor(async () => expect(await b.setIfAbsent("session", "claim", "b")).toBe(true), {
        timeout: 5000,
        interval: 20,
      });
      expect(await a.get("session", "claim")).toBe("b");
      expect((await b.entries("session")).map(([k]) => k).sort()).toEqual(["claim", "kept"]);
    }));

  it(`${area}/entries-lists-live-entries-of-one-space-only`, () =>
    withStores(async ({ a, b }) => {
      expect(await a.entries("elicitation")).toEqual([]);
      for (let i = 0; i < 30; i++) await a.set("elicitation", `e:${i}*`, { n: i });
      await a.set("elicitations", "not-this-space", 1);
      await a.set("other", "x", 2);
      await a.set("elicitation", "gone", 3);
      await b.delete("elicitation", "gone");
      const listed = await b.entries<{ n: number }>("elicitation");
      expect(listed.map(([k]) => k).sort()).toEqual(Array.from({ length: 30 }, (_, i) => `e:${i}*`).sort());
      for (const [key, value] of listed) expect(key).toBe(`e:${value.n}*`);
    }));

  it(`${area}/publish-reaches-every-subscriber-on-another-connection`, () =>
    withStores(async ({ a, b }) => {
      const onA: unknown[] = [];
      const onB: unknown[] = [];
      const onB2: unknown[] = [];
      const other: unknown[] = [];
      await a.subscribe("answers", (m) => onA.push(m));
      await b.subscribe("answers", (m) => onB.push(m));
      const stopB2 = await b.subscribe("answers", (m) => onB2.push(m));
      await b.subscribe("answers-2", (m) => other.push(m));
      await a.publish("answers", { id: 1, action: "accept" });
      await vi.waitFor(() => {
        expect(onA).toEqual([{ id: 1, action: "accept" }]);
        expect(onB).toEqual([{ id: 1, action: "accept" }]);
        expect(onB2).toEqual([{ id: 1, action: "accept" }]);
      });
      await stopB2();
      await b.publish("answers", { id: 2 });
      await vi.waitFor(() => {
        expect(onA).toHaveLength(2);
        expect(onB).toEqual([{ id: 1, action: "accept" }, { id: 2 }]);
      });
      // Messages on one channel arrive in order, and the unsubscribed listener heard no more.
      expect(onB2).toEqual([{ id: 1, action: "accept" }]);
      expect(other).toEqual([]);
    }));

  it(`${area}/delete-returns-whether-there-was-an-entry`, () =>
    withStores(async ({ a, b }) => {
      await a.set("oauth", "grant", { token: "t" });
      const deleted = await Promise.all([a.delete("oauth", "grant"), b.delete("oauth", "grant")]);
      expect(deleted.filter(Boolean)).toHaveLength(1);
      expect(await a.delete("oauth", "grant")).toBe(false);
      expect(await b.get("oauth", "grant")).toBeUndefined();
    }));
}
