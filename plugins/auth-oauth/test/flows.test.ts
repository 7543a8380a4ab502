/**
 * The main paths against a real authorization server library (oidc-provider, its development
 * login and consent standing in for a user) and a protected resource that checks its JWTs:
 * discovery, PKCE, each way of registering, refresh, step-up, client credentials; and the refusals
 * that are mcpx's own to make (a resource that names another, an `iss` that is not the issuer's,
 * nobody to log in).
 */
import {
  AuthorizationFailedError,
  AuthorizationRequiredError,
  InsufficientScopeError,
  type LiveCredentials,
} from "@mcpx/core";
import { describe, expect, it, vi } from "vitest";
import { DEFAULT_REDIRECT_URI, MemoryTokenStore } from "../src/index.js";
import { startAuthorizationServer } from "./helpers/authorization-server.js";
import { testBrowser } from "./helpers/browser.js";
import { startResourceServer } from "./helpers/resource-server.js";
import { capturingLogger, closing, sessionFor } from "./helpers/setup.js";
import { through } from "./helpers/through.js";

const PRE_REGISTERED = {
  client_id: "pre-registered",
  client_secret: "pre-registered-secret-value",
  redirect_uris: [DEFAULT_REDIRECT_URI],
  grant_types: ["authorization_code", "refresh_token", "client_credentials"],
  response_types: ["code"],
  token_endpoint_auth_method: "client_secret_basic",
};

async function servers(rs: Partial<Parameters<typeof startResourceServer>[0]> = {}, ttl?: number) {
  const as = closing(
    await startAuthorizationServer({
      clients: [PRE_REGISTERED],
      ...(ttl === undefined ? {} : { accessTokenTtl: ttl }),
    }),
  );
  const resource = closing(await startResourceServer({ issuer: as.issuer, ...rs }));
  return { as, rs: resource };
}

const scopeOf = (url: URL | undefined) => (url?.searchParams.get("scope") ?? "").split(" ");

describe("oauth against oidc-provider", () => {
  it("oauth/discovery-path-based-prm-then-root", async () => {
    // Metadata at the root only, and not named in the challenge: the path-based URI is tried first.
    const { as, rs } = await servers({ prm: "root", inChallenge: false });
    const browser = testBrowser();
    const live = await sessionFor(rs.url, { authorizer: browser });
    expect(await through(live, rs.url)).toMatchObject({ status: 200 });
    expect(rs.seen.map((s) => `${s.method} ${s.path} ${s.status}`)).toEqual([
      "POST /mcp 401",
      "GET /.well-known/oauth-protected-resource/mcp 404",
      "GET /.well-known/oauth-protected-resource 200",
      "POST /mcp 200",
    ]);
    // The resource exactly as published (the origin, no trailing slash), on the authorization request.
    expect(browser.requests[0]?.searchParams.get("resource")).toBe(rs.origin);
    expect(browser.requests[0]?.origin).toBe(as.issuer);
  });

  it("oauth/pkce-s256-sent-and-verified", async () => {
    const { as, rs } = await servers();
    const browser = testBrowser();
    const live = await sessionFor(rs.url, { authorizer: browser });
    expect(await through(live, rs.url)).toMatchObject({ status: 200 });
    const request = browser.requests[0]!;
    expect(request.searchParams.get("code_challenge_method")).toBe("S256");
    expect(request.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // oidc-provider checked the verifier against the challenge, or there would be no token.
    expect(as.counts["grant:authorization_code"]).toBe(1);
  });

  it("oauth/dcr-when-no-client-configured", async () => {
    const { as, rs } = await servers({ challengeScope: "mcp:read" });
    const store = new MemoryTokenStore();
    const live = await sessionFor(rs.url, { authorizer: testBrowser(), store });
    expect(await through(live, rs.url)).toMatchObject({ status: 200 });
    expect(as.counts.registration).toBe(1);
    const grant = await store.get(as.issuer, rs.url);
    expect(grant?.client).toMatchObject({ registration: "dynamic", redirectUri: DEFAULT_REDIRECT_URI });
    const client = await as.provider.Client.find(grant?.client?.clientId);
    // 2026-07-28: application_type, native for the loopback redirect.
    expect(client.applicationType).toBe("native");
    // A second session with the same store reuses the registration and the token.
    const again = await sessionFor(rs.url, { authorizer: testBrowser(), store });
    expect(await through(again, rs.url)).toMatchObject({ status: 200 });
    expect(as.counts.registration).toBe(1);
    expect(as.counts["grant:authorization_code"]).toBe(1);
  });

  it("oauth/pre-registered-client-used", async () => {
    const { as, rs } = await servers();
    const browser = testBrowser();
    const live = await sessionFor(rs.url, {
      authorizer: browser,
      options: {
        clientId: PRE_REGISTERED.client_id,
        clientSecret: PRE_REGISTERED.client_secret,
        issuer: as.issuer,
      },
    });
    expect(await through(live, rs.url)).toMatchObject({ status: 200 });
    expect(as.counts.registration).toBeUndefined();
    expect(browser.requests[0]?.searchParams.get("client_id")).toBe("pre-registered");
    expect(as.counts["grant:authorization_code"]).toBe(1);
  });

  it("oauth/pre-registered-client-refused-at-another-issuer", async () => {
    const { as, rs } = await servers();
    const browser = testBrowser();
    const live = await sessionFor(rs.url, {
      authorizer: browser,
      options: { clientId: "pre-registered", clientSecret: "x", issuer: "https://other.example.com" },
    });
    const err = await through(live, rs.url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthorizationFailedError);
    expect((err as Error).message).toContain(`is registered with https://other.example.com`);
    expect(browser.requests).toEqual([]);
    expect(as.counts).toEqual({});
  });

  it("oauth/refresh-before-expiry", async () => {
    // Tokens live 120 s; the clock (Date alone: the servers run on it too) moves 90 s on, into the
    // last minute of the token's life: the next request refreshes it before it goes.
    const { as, rs } = await servers({}, 120);
    const store = new MemoryTokenStore();
    const live = await sessionFor(rs.url, { authorizer: testBrowser(), store });
    expect(await through(live, rs.url)).toMatchObject({ status: 200 });
    const first = await store.get(as.issuer, rs.url);
    expect(first?.refreshToken).toBeDefined();
    expect(await through(live, rs.url)).toMatchObject({ status: 200 });
    expect(as.counts["grant:refresh_token"]).toBeUndefined();
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 90_000);
      expect(await through(live, rs.url)).toMatchObject({ status: 200 });
    } finally {
      vi.useRealTimers();
    }
    const second = await store.get(as.issuer, rs.url);
    expect(as.counts["grant:refresh_token"]).toBe(1);
    expect(second?.accessToken).not.toBe(first?.accessToken);
    // The new token went out at once: the resource never refused the second request.
    expect(rs.seen.filter((s) => s.method === "POST").map((s) => s.status)).toEqual([401, 200, 200, 200]);
    expect(rs.seen.at(-1)?.authorization).toBe(`Bearer ${second?.accessToken}`);
  });

  it("oauth/refresh-on-401", async () => {
    const { as, rs } = await servers();
    const store = new MemoryTokenStore();
    const live = await sessionFor(rs.url, { authorizer: testBrowser(), store });
    await through(live, rs.url);
    const first = await store.get(as.issuer, rs.url);
    // The stored token no longer verifies (as one revoked): the refresh token gets a new one, no user asked.
    await store.set({ ...first!, accessToken: `${first?.accessToken}x`, expiresAt: Date.now() + 3_600_000 });
    const fresh = await sessionFor(rs.url, { authorizer: testBrowser(), store });
    // The first request carries no token (the issuer is not known before a challenge); the stored
    // one is tried, refused, then refreshed.
    expect(await through(fresh, rs.url)).toMatchObject({ status: 200 });
    expect(as.counts["grant:refresh_token"]).toBe(1);
    expect(as.counts["grant:authorization_code"]).toBe(1);
  });

  it("oauth/step-up-on-insufficient-scope-with-a-limit", async () => {
    const { as, rs } = await servers({ challengeScope: "mcp:read" });
    const browser = testBrowser();
    const live = await sessionFor(rs.url, { authorizer: browser });
    expect(await through(live, rs.url)).toMatchObject({
      status: 200,
      body: expect.stringContaining("mcp:read"),
    });
    expect(scopeOf(browser.requests[0])).toContain("mcp:read");
    // A write needs mcp:write: the new authorization asks for what was held and what is needed.
    expect(await through(live, rs.url, "mcp:write")).toMatchObject({ status: 200 });
    expect(scopeOf(browser.requests[1])).toEqual(expect.arrayContaining(["mcp:read", "mcp:write"]));
    // A scope the server never grants: one more try, then InsufficientScopeError.
    const err = await through(live, rs.url, "mcp:admin").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InsufficientScopeError);
    expect((err as InsufficientScopeError).scopes).toEqual(["mcp:admin"]);
    expect(browser.requests).toHaveLength(4);
    expect(as.counts["grant:authorization_code"]).toBe(4);
  });

  it("oauth/client-credentials-grant", async () => {
    const { as, rs } = await servers({ challengeScope: "mcp:read" });
    const live = await sessionFor(rs.url, {
      options: {
        grant: "client_credentials",
        clientId: PRE_REGISTERED.client_id,
        clientSecret: PRE_REGISTERED.client_secret,
      },
    });
    expect(await through(live, rs.url)).toMatchObject({ status: 200 });
    expect(as.counts["grant:client_credentials"]).toBe(1);
    expect(as.counts.authorization_code).toBeUndefined();
  });

  it("oauth/authorization-required-without-authorizer", async () => {
    const { as, rs } = await servers();
    const live = await sessionFor(rs.url, { name: "docs" });
    const err = await through(live, rs.url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthorizationRequiredError);
    expect((err as Error).message).toBe("upstream docs needs a login: run `mcpx auth login docs`");
    // Nothing registered for an authorization nobody can give.
    expect(as.counts).toEqual({});
  });

  it("oauth/iss-wrong-issuer-refused", async () => {
    const { as, rs } = await servers();
    const browser = testBrowser((params) => params.set("iss", "https://evil.example.com"));
    const live = await sessionFor(rs.url, { authorizer: browser });
    const err = await through(live, rs.url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthorizationFailedError);
    expect((err as Error).message).toMatch(/authorization response was refused: unexpected "iss"/);
    // The code never went to the token endpoint.
    expect(as.counts.authorization_code).toBe(1);
    expect(as.counts["grant:authorization_code"]).toBeUndefined();
  });

  it("oauth/prm-resource-mismatch-refused", async () => {
    const { as, rs } = await servers({ resourceOverride: "https://evil.example.com/mcp" });
    const browser = testBrowser();
    const live = await sessionFor(rs.url, { authorizer: browser });
    const err = await through(live, rs.url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthorizationFailedError);
    expect((err as Error).message).toContain('names the resource "https://evil.example.com/mcp"');
    expect(browser.requests).toEqual([]);
    expect(as.counts).toEqual({});
  });

  it("oauth/no-token-in-errors-or-logs", async () => {
    const { as, rs } = await servers({ challengeScope: "mcp:read" });
    const store = new MemoryTokenStore();
    const log = capturingLogger();
    let code = "";
    const browser = testBrowser((params) => {
      code = params.get("code") ?? "";
    });
    const live: LiveCredentials = await sessionFor(rs.url, { authorizer: browser, store, log });
    const first = await through(live, rs.url);
    // A step-up, and a refusal of a token the server has just been given: errors and log lines.
    await through(live, rs.url, "mcp:write");
    const grant = await store.get(as.issuer, rs.url);
    const refused = await live
      .challenged({
        status: 401,
        wwwAuthenticate: undefined,
        url: rs.url,
        attempt: 1,
        authorization: `Bearer ${grant?.accessToken}`,
      })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AuthorizationFailedError);
    const limit = await through(live, rs.url, "mcp:admin").catch((e: unknown) => e);
    expect(limit).toBeInstanceOf(InsufficientScopeError);

    const secrets = [grant?.accessToken, grant?.refreshToken, grant?.client?.clientSecret, code].filter(
      (s): s is string => typeof s === "string" && s.length > 8,
    );
    expect(secrets.length).toBeGreaterThanOrEqual(3);
    const said = [
      ...log.lines,
      ...[refused, limit].map((e) => `${(e as Error).message} ${(e as Error).stack} ${JSON.stringify(e)}`),
    ].join("\n");
    expect(log.lines.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(said).not.toContain(secret);
    // What a careless upstream echoes is taken out by the session's redact (the transports' errors use it).
    expect(first.body).toBe('{"ok":true,"scope":"mcp:read"}');
    const echoed = `{"received":"Bearer ${grant?.accessToken}","refresh":"${grant?.refreshToken}"}`;
    const clean = live.redact(echoed);
    for (const secret of secrets) expect(clean).not.toContain(secret);
  });
});
