/** The replica set's records on a shared store: written on open, renewed, deleted on close. */
import type { StateStore } from "@mcpx/core";
import { MemoryStore } from "@mcpx/host";
import { afterEach, describe, expect, it } from "vitest";
import { authHash, REPLICA_SPACE, Replicas, SESSION_SPACE } from "../src/server/http/replicas.js";

/** Session ids of the shape mcpx makes (32 base64url characters). */
const SID1 = "s1xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";
const SID2 = "s2xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";

function store(shared: boolean): StateStore {
  const memory = new MemoryStore();
  return new Proxy(memory, {
    get(target, key) {
      if (key === "shared") return shared;
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const open: Replicas[] = [];
afterEach(async () => {
  for (const r of open.splice(0)) await r.close();
});

async function replica(s: StateStore, id: string, ttlMs = 60_000): Promise<Replicas> {
  const r = new Replicas({ store: () => s, id, ttlMs });
  open.push(r);
  await r.bind({ id: "unused", url: `http://127.0.0.1:1/${id}/` });
  return r;
}

describe("replicas", () => {
  it("replicas/session-record-written-on-open-deleted-on-close", async () => {
    const s = store(true);
    const a = await replica(s, "a");
    await a.opened(SID1, "streamable", "ctx");
    expect(await s.get(SESSION_SPACE, SID1)).toEqual({
      replica: "a",
      url: "http://127.0.0.1:1/a",
      transport: "streamable",
      auth: authHash("ctx"),
    });
    // The record names a hash of the context, never the context itself.
    expect(JSON.stringify(await s.entries(SESSION_SPACE))).not.toContain('"ctx"');
    await a.closed(SID1);
    expect(await s.get(SESSION_SPACE, SID1)).toBeUndefined();
  });

  it("replicas/holder-found-for-other-replicas-only-with-same-credentials", async () => {
    const s = store(true);
    const a = await replica(s, "a");
    const b = await replica(s, "b");
    await a.opened(SID1, "streamable", "ctx");
    expect(await b.holder(SID1, "streamable", "ctx")).toMatchObject({ replica: "a" });
    expect(await b.holder(SID1, "streamable", "other")).toBeUndefined();
    expect(await b.holder(SID1, "sse", "ctx")).toBeUndefined();
    expect(await b.holder("nope", "streamable", "ctx")).toBeUndefined();
    // The holder never looks itself up.
    expect(await a.holder(SID1, "streamable", "ctx")).toBeUndefined();
  });

  it("replicas/dead-holder-is-no-holder", async () => {
    const s = store(true);
    const a = await replica(s, "a");
    const b = await replica(s, "b");
    await a.opened(SID1, "streamable", "ctx");
    // A's liveness entry lapsed (it died without closing): its record leads nowhere.
    await s.delete(REPLICA_SPACE, "a");
    expect(await b.holder(SID1, "streamable", "ctx")).toBeUndefined();
  });

  it("replicas/records-renewed-while-the-session-lives", async () => {
    const s = store(true);
    const a = await replica(s, "a", 1_000);
    await a.opened(SID1, "streamable", "ctx");
    await s.delete(SESSION_SPACE, SID1);
    await s.delete(REPLICA_SPACE, "a");
    await a.renew();
    expect(await s.get(SESSION_SPACE, SID1)).toMatchObject({ replica: "a" });
    expect(await s.get(REPLICA_SPACE, "a")).toMatchObject({ url: "http://127.0.0.1:1/a" });
    // The renewal timer does it by itself, every third of the TTL.
    await s.delete(SESSION_SPACE, SID1);
    await expect.poll(() => s.get(SESSION_SPACE, SID1), { timeout: 3_000 }).toMatchObject({ replica: "a" });
  });

  it("replicas/close-removes-liveness-and-records", async () => {
    const s = store(true);
    const a = await replica(s, "a");
    await a.opened(SID1, "streamable", "ctx");
    await a.opened(SID2, "sse", "ctx");
    await a.close();
    expect(await s.entries(SESSION_SPACE)).toEqual([]);
    expect(await s.entries(REPLICA_SPACE)).toEqual([]);
  });

  it("replicas/unshared-store-records-nothing", async () => {
    const s = store(false);
    const a = await replica(s, "a");
    await a.opened(SID1, "streamable", "ctx");
    expect(await s.entries(SESSION_SPACE)).toEqual([]);
    expect(await s.entries(REPLICA_SPACE)).toEqual([]);
    expect(await a.holder(SID1, "streamable", "ctx")).toBeUndefined();
  });
});
