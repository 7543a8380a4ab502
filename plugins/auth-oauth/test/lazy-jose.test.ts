import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import type { ClientRecord } from "../src/token-store.js";

// jose is loaded for private_key_jwt only: the mock's factory runs when something imports it.
const loaded = vi.hoisted(() => ({ jose: false }));
vi.mock("jose", async (importOriginal) => {
  loaded.jose = true;
  return importOriginal();
});

describe("memory", () => {
  it("memory/jose-loads-only-for-private-key-jwt", async () => {
    const { clientAuth } = await import("../src/registration.js");
    await import("../src/index.js");
    const options = { clientId: "c", clientSecret: "s" } as Parameters<typeof clientAuth>[1];
    const record = (method: string): ClientRecord => ({
      clientId: "c",
      clientSecret: "s",
      tokenEndpointAuthMethod: method,
      registration: "pre-registered",
    });
    await clientAuth(record("client_secret_post"), options, "up");
    expect(loaded.jose).toBe(false);
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const jwt = await clientAuth(
      record("private_key_jwt"),
      { ...options, privateKey: pem } as Parameters<typeof clientAuth>[1],
      "up",
    );
    expect(typeof jwt.auth).toBe("function");
    expect(loaded.jose).toBe(true);
  });
});
