/**
 * DPoP (RFC 9449, SEP-1932) against oidc-provider with its DPoP feature on, and a resource that
 * checks each proof (signature, htm, htu, ath, the token's cnf.jkt, a jti never seen) and, where
 * asked, its nonces.
 */
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FileTokenStore, MemoryTokenStore } from "../src/index.js";
import { type AuthorizationServerOptions, startAuthorizationServer } from "./helpers/authorization-server.js";
import { testBrowser } from "./helpers/browser.js";
import { type ResourceServerOptions, startResourceServer } from "./helpers/resource-server.js";
import { capturingLogger, closing, sessionFor } from "./helpers/setup.js";
import { through } from "./helpers/through.js";

async function servers(as: AuthorizationServerOptions, rs: Partial<ResourceServerOptions> = {}) {
  const server = closing(await startAuthorizationServer(as));
  const resource = closing(await startResourceServer({ issuer: server.issuer, dpop: {}, ...rs }));
  return { as: server, rs: resource };
}

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const claimsOf = (jwt: string | undefined) => decodeJwt(jwt ?? "");
const nonceOf = (proof: string | undefined) => (proof === undefined ? undefined : claimsOf(proof).nonce);

describe("DPoP", () => {
  it("oauth/dpop-proof-on-token-and-resource-requests", async () => {
    const { as, rs } = await servers({ dpop: {} });
    const store = new MemoryTokenStore();
    const live = await sessionFor(rs.url, { authorizer: testBrowser(), store });
    expect(await through(live, rs.url)).toMatchObject({ status: 200 });
    expect(await through(live, rs.url)).toMatchObject({ status: 200 });

    // The token request carried a proof for the token endpoint, and the token came bound to its key.
    const tokenProof = as.tokenRequests[0]?.dpop;
    expect(decodeProtectedHeader(tokenProof ?? "")).toMatchObject({ typ: "dpop+jwt", alg: "ES256" });
    expect(claimsOf(tokenProof)).toMatchObject({ htm: "POST", htu: `${as.issuer}/token` });
    const grant = await store.get(as.issuer, rs.url);
    expect(grant?.tokenType?.toLowerCase()).toBe("dpop");
    const jkt = await calculateJwkThumbprint(decodeProtectedHeader(tokenProof ?? "").jwk as never);
    expect(claimsOf(grant?.accessToken).cnf).toEqual({ jkt });

    // Each resource request: the DPoP scheme and a proof of its own, with ath; none refused.
    const sent = rs.seen.filter((s) => s.path === "/mcp" && s.status === 200);
    expect(sent).toHaveLength(2);
    for (const s of sent) {
      expect(s.authorization).toBe(`DPoP ${grant?.accessToken}`);
      expect(claimsOf(s.dpop)).toMatchObject({ htm: "POST", htu: rs.url, ath: expect.any(String) });
    }
    expect(new Set(sent.map((s) => claimsOf(s.dpop).jti)).size).toBe(2);
    expect(rs.seen.filter((s) => s.dpopError !== undefined)).toEqual([]);
  });

  it("oauth/dpop-as-nonce-retried-once", async () => {
    const { as, rs } = await servers({ dpop: { nonce: true } });
    const live = await sessionFor(rs.url, { authorizer: testBrowser() });
    expect(await through(live, rs.url)).toMatchObject({ status: 200 });
    // Refused for want of a nonce (use_dpop_nonce, with DPoP-Nonce), then once more with it.
    expect(as.tokenRequests.map((r) => r.status)).toEqual([400, 200]);
    expect(nonceOf(as.tokenRequests[0]?.dpop)).toBeUndefined();
    expect(nonceOf(as.tokenRequests[1]?.dpop)).toEqual(expect.any(String));
    expect(as.counts["grant:authorization_code"]).toBe(1);
  });

  it("oauth/dpop-rs-nonce-retried-once", async () => {
    const { rs } = await servers({ dpop: {} }, { dpop: { nonce: "refusal" } });
    const live = await sessionFor(rs.url, { authorizer: testBrowser() });
    expect(await through(live, rs.url)).toMatchObject({ status: 200 });
    const mcp = rs.seen.filter((s) => s.path === "/mcp");
    // No token; a token whose proof has no nonce (use_dpop_nonce, nonce-1); the same request with it.
    expect(mcp.map((s) => [s.status, s.dpopError, nonceOf(s.dpop)])).toEqual([
      [401, undefined, undefined],
      [401, "use_dpop_nonce", undefined],
      [200, undefined, "nonce-1"],
    ]);
    // The nonce is kept: the next request carries it at once.
    expect(await through(live, rs.url)).toMatchObject({ status: 200 });
    expect(nonceOf(rs.seen.at(-1)?.dpop)).toBe("nonce-1");
    expect(rs.seen.at(-1)?.status).toBe(200);
  });

  it("oauth/dpop-nonce-from-a-successful-response", async () => {
    const { rs } = await servers({ dpop: {} }, { dpop: { nonce: "success" } });
    const live = await sessionFor(rs.url, { authorizer: testBrowser() });
    for (let i = 0; i < 3; i++) expect(await through(live, rs.url)).toMatchObject({ status: 200 });
    const mcp = rs.seen.filter((s) => s.path === "/mcp");
    // Each 200 gave a nonce; the next proof carried it, and no request was refused for a nonce.
    expect(mcp.map((s) => [s.status, nonceOf(s.dpop)])).toEqual([
      [401, undefined],
      [200, undefined],
      [200, "nonce-1"],
      [200, "nonce-2"],
    ]);
    expect(mcp.filter((s) => s.dpopError !== undefined)).toEqual([]);
  });

  it("oauth/dpop-key-kept-across-refresh", async () => {
    const { as, rs } = await servers({ dpop: {} });
    const dir = await mkdtemp(path.join(tmpdir(), "mcpx-dpop-"));
    dirs.push(dir);
    const store = new FileTokenStore(dir);
    const lines: string[] = [];
    const first = await sessionFor(rs.url, { authorizer: testBrowser(), store, log: capturingLogger(lines) });
    expect(await through(first, rs.url)).toMatchObject({ status: 200 });
    // The session writes to the store without waiting for the file: the test waits for it.
    const issued = await vi.waitFor(async () => {
      const grant = await store.get(as.issuer, rs.url);
      expect(grant?.accessToken).toBeDefined();
      return grant;
    });
    const key = issued?.dpopKey;
    expect(key).toMatchObject({ kty: "EC", crv: "P-256", d: expect.any(String) });
    expect(issued?.refreshToken).toBeDefined();
    // The key is a secret kept as the tokens are: in the 0600 file, and in no log line.
    const file = store.fileOf(as.issuer, rs.url);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, "utf8")).toContain(key?.d as string);

    // Another run finds the token expired: the refresh goes with the stored key, and the new token
    // is bound to that same key.
    await store.set({ ...(issued as NonNullable<typeof issued>), expiresAt: Date.now() - 1000 });
    const second = await sessionFor(rs.url, {
      authorizer: testBrowser(),
      store,
      log: capturingLogger(lines),
    });
    expect(await through(second, rs.url)).toMatchObject({ status: 200 });
    expect(as.counts["grant:refresh_token"]).toBe(1);
    expect(as.counts["grant:authorization_code"]).toBe(1);
    const refreshed = await vi.waitFor(async () => {
      const grant = await store.get(as.issuer, rs.url);
      expect(grant?.accessToken).not.toBe(issued?.accessToken);
      return grant;
    });
    expect(refreshed?.dpopKey).toEqual(key);
    const jkt = await calculateJwkThumbprint(key as never);
    expect(claimsOf(refreshed?.accessToken).cnf).toEqual({ jkt });
    expect(claimsOf(as.tokenRequests.at(-1)?.dpop).htu).toBe(`${as.issuer}/token`);
    expect(lines.join("\n")).not.toContain(key?.d as string);
  });

  it("oauth/dpop-off-by-config", async () => {
    // The authorization server advertises DPoP; the config says no: Bearer tokens, no proofs.
    const { as, rs } = await servers({ dpop: {} });
    const store = new MemoryTokenStore();
    const live = await sessionFor(rs.url, { authorizer: testBrowser(), store, options: { dpop: false } });
    expect(await through(live, rs.url)).toMatchObject({ status: 200 });
    expect(as.tokenRequests.map((r) => r.dpop)).toEqual([undefined]);
    const grant = await store.get(as.issuer, rs.url);
    expect(grant?.tokenType?.toLowerCase()).toBe("bearer");
    expect(grant?.dpopKey).toBeUndefined();
    const last = rs.seen.at(-1);
    expect(last?.authorization).toBe(`Bearer ${grant?.accessToken}`);
    expect(last?.dpop).toBeUndefined();
  });
});
