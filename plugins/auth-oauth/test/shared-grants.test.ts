/** Grants in the host's state store when it is shared: one replica's sign-in serves the others. */
import type { StateStore } from "@mcpx/core";
import { MemoryStore } from "@mcpx/host";
import { describe, expect, it } from "vitest";
import { OAUTH_SPACE, StateStoreTokenStore, type StoredGrant } from "../src/index.js";

/** A real store, seen by two replicas: each gets its own handle on the same entries. */
function sharedStore(): { replicaA: StateStore; replicaB: StateStore } {
  const entries = new MemoryStore();
  const handle = (): StateStore => ({
    type: "memory",
    shared: true,
    get: (s, k) => entries.get(s, k),
    set: (s, k, v, o) => entries.set(s, k, v, o),
    setIfAbsent: (s, k, v, o) => entries.setIfAbsent(s, k, v, o),
    delete: (s, k) => entries.delete(s, k),
    entries: (s) => entries.entries(s),
    publish: (c, m) => entries.publish(c, m),
    subscribe: (c, l) => entries.subscribe(c, l),
    close: async () => {},
  });
  return { replicaA: handle(), replicaB: handle() };
}

const grant: StoredGrant = {
  issuer: "https://as.example.com",
  resource: "https://mcp.example.com/mcp",
  accessToken: "access-token-of-a",
  refreshToken: "refresh-token-of-a",
  client: { clientId: "c", tokenEndpointAuthMethod: "none", registration: "dynamic" },
};

describe("shared grants", () => {
  it("oauth/grant-shared-through-the-store", async () => {
    const { replicaA, replicaB } = sharedStore();
    const a = new StateStoreTokenStore(replicaA);
    const b = new StateStoreTokenStore(replicaB);
    await a.set(grant);
    // The other replica reads the grant the first one stored: no second sign-in.
    expect(await b.get(grant.issuer, grant.resource)).toEqual(grant);
    // Keyed by a hash of issuer and resource (no URL in a key), one grant per pair.
    const keys = (await replicaB.entries(OAUTH_SPACE)).map(([k]) => k);
    expect(keys).toEqual([a.keyOf(grant.issuer, grant.resource)]);
    expect(keys[0]).not.toContain("example.com");
    expect(await b.get(grant.issuer, "https://other.example.com/mcp")).toBeUndefined();
    // A refused grant deleted by one replica is gone for the other.
    await b.delete(grant.issuer, grant.resource);
    expect(await a.get(grant.issuer, grant.resource)).toBeUndefined();
  });
});
