/**
 * What a real authorization server will not do, on a small server of the test's own (127.0.0.1)
 * that is resource and authorization server at once: metadata without PKCE S256, metadata naming
 * another issuer, no metadata at all (a 2025-03-26 server), an authorization server that changes.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { AuthorizationFailedError } from "@mcpx/core";
import { describe, expect, it } from "vitest";
import { type AuthorizationRequest, type Authorizer, MemoryTokenStore } from "../src/index.js";
import { closing, sessionFor } from "./helpers/setup.js";
import { through } from "./helpers/through.js";

interface FakeOptions {
  /** Protected resource metadata at the path-based URI (default true). */
  prm?: boolean;
  /** The authorization server metadata, given the origin; undefined serves none. */
  metadata?: (origin: string) => Record<string, unknown> | undefined;
  /** The issuer the metadata of the resource names (default the origin). */
  issuer?: () => string;
}

async function fake(options: FakeOptions = {}) {
  const seen: string[] = [];
  let origin = "";
  let issued = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0] ?? "";
      seen.push(`${req.method} ${path}${body && path !== "/mcp" ? ` ${body}` : ""}`);
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
        res.writeHead(status, { "Content-Type": "application/json", ...headers }).end(JSON.stringify(value));
      const issuer = options.issuer?.() ?? origin;
      if (req.method === "POST" && path === "/mcp") {
        // Only a token of the authorization server the resource names now.
        const ok = req.headers.authorization?.startsWith(`Bearer token@${issuer}#`);
        return ok
          ? json(200, { ok: true })
          : json(401, {}, { "WWW-Authenticate": 'Bearer error="invalid_token"' });
      }
      if (path === "/.well-known/oauth-protected-resource/mcp" && options.prm !== false) {
        return json(200, { resource: `${origin}/mcp`, authorization_servers: [issuer] });
      }
      const wellKnown = "/.well-known/oauth-authorization-server";
      const metadata = path.startsWith(wellKnown)
        ? options.metadata?.(origin + path.slice(wellKnown.length))
        : undefined;
      if (metadata) return json(200, metadata);
      if (path.endsWith("/register")) return json(201, { client_id: `client-of-${path}` });
      if (path.endsWith("/token")) {
        const from = origin + path.slice(0, -"/token".length).replace(/\/oauth$/, "");
        return json(200, {
          access_token: `token@${from}#${++issued}`,
          token_type: "Bearer",
          expires_in: 3600,
        });
      }
      json(404, {});
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closing({
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
  return { url: `${origin}/mcp`, origin, seen };
}

/** Approves at once: the redirect's parameters are made here, with the issuer if `iss`. */
function approving(iss = false): Authorizer & { requests: AuthorizationRequest[] } {
  const requests: AuthorizationRequest[] = [];
  return {
    requests,
    async authorize(request) {
      requests.push(request);
      const params = new URLSearchParams({
        code: "the-code",
        state: request.url.searchParams.get("state") ?? "",
      });
      if (iss) params.set("iss", request.issuer);
      return params;
    },
  };
}

const metadata =
  (extra: Record<string, unknown> = {}) =>
  (origin: string) => ({
    issuer: origin,
    authorization_endpoint: `${origin}/oauth/authorize`,
    token_endpoint: `${origin}/oauth/token`,
    registration_endpoint: `${origin}/oauth/register`,
    response_types_supported: ["code"],
    code_challenge_methods_supported: ["S256"],
    ...extra,
  });

describe("oauth refusals and fallbacks", () => {
  it("oauth/pkce-s256-required", async () => {
    for (const methods of [undefined, ["plain"]]) {
      const server = await fake({ metadata: metadata({ code_challenge_methods_supported: methods }) });
      const authorizer = approving();
      const live = await sessionFor(server.url, { authorizer });
      const err = await through(live, server.url).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AuthorizationFailedError);
      expect((err as Error).message).toContain(
        "does not advertise PKCE with S256 (code_challenge_methods_supported)",
      );
      // Refused before registering or sending anyone anywhere.
      expect(authorizer.requests).toEqual([]);
      expect(server.seen.some((s) => s.includes("/register"))).toBe(false);
    }
  });

  it("oauth/metadata-issuer-mismatch-refused", async () => {
    const server = await fake({
      metadata: (origin) => ({ ...metadata()(origin), issuer: "https://attacker.example.com" }),
    });
    const authorizer = approving();
    const live = await sessionFor(server.url, { authorizer });
    const err = await through(live, server.url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthorizationFailedError);
    expect((err as Error).message).toContain('names the issuer "https://attacker.example.com"');
    expect(authorizer.requests).toEqual([]);
    expect(server.seen.filter((s) => s.includes("/oauth/"))).toEqual([]);
  });

  it("oauth/iss-missing-where-advertised-refused", async () => {
    const server = await fake({
      metadata: metadata({ authorization_response_iss_parameter_supported: true }),
    });
    const live = await sessionFor(server.url, { authorizer: approving(false) });
    const err = await through(live, server.url).catch((e: unknown) => e);
    expect((err as Error).message).toContain('response parameter "iss" (issuer) missing');
    expect(server.seen.some((s) => s.includes("/token"))).toBe(false);
  });

  it("oauth/legacy-server-default-endpoints", async () => {
    // 2025-03-26: no resource metadata, no authorization server metadata: /register, /authorize and
    // /token on the server's origin, and no RFC 8707 resource (there is no metadata to name it).
    const server = await fake({ prm: false });
    const authorizer = approving();
    const live = await sessionFor(server.url, { authorizer });
    expect(await through(live, server.url)).toMatchObject({ status: 200 });
    const authorize = authorizer.requests[0]?.url;
    expect(`${authorize?.origin}${authorize?.pathname}`).toBe(`${server.origin}/authorize`);
    expect(authorizer.requests[0]?.url.searchParams.has("resource")).toBe(false);
    expect(server.seen.map((s) => s.split(" ").slice(0, 2).join(" "))).toEqual([
      "POST /mcp",
      "GET /.well-known/oauth-protected-resource/mcp",
      "GET /.well-known/oauth-protected-resource",
      "GET /.well-known/oauth-authorization-server",
      "POST /register",
      "POST /token",
      "POST /mcp",
    ]);
  });

  it("2025-03-26/oauth/legacy-metadata-issuer-on-the-server-origin-accepted", async () => {
    // Root metadata without resource metadata, naming an issuer with a path on the server's own origin
    // (as the 0.1.16 conformance scenario serves it): the well-known URL came from the origin, not an
    // issuer, so the origin is what the issuer must be on; its endpoints are used.
    const server = await fake({
      prm: false,
      metadata: (origin) => ({ ...metadata()(origin), issuer: `${new URL(origin).origin}/oauth` }),
    });
    const authorizer = approving();
    const live = await sessionFor(server.url, { authorizer });
    expect(await through(live, server.url)).toMatchObject({ status: 200 });
    const authorize = authorizer.requests[0]?.url;
    expect(`${authorize?.origin}${authorize?.pathname}`).toBe(`${server.origin}/oauth/authorize`);
  });

  it("2025-03-26/oauth/legacy-metadata-issuer-on-another-origin-refused", async () => {
    const server = await fake({
      prm: false,
      metadata: (origin) => ({ ...metadata()(origin), issuer: "https://attacker.example.com/oauth" }),
    });
    const authorizer = approving();
    const live = await sessionFor(server.url, { authorizer });
    const err = await through(live, server.url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthorizationFailedError);
    expect((err as Error).message).toContain('names the issuer "https://attacker.example.com/oauth"');
    expect(authorizer.requests).toEqual([]);
    expect(server.seen.filter((s) => s.includes("/oauth/"))).toEqual([]);
  });

  it("oauth/authorization-server-change-re-registers", async () => {
    // Two authorization servers on the test server, /as1 and /as2 (metadata by path insertion).
    let current = "as1";
    const server = await fake({ issuer: () => `${server.origin}/${current}`, metadata: metadata() });
    const store = new MemoryTokenStore();
    const authorizer = approving(true);
    const live = await sessionFor(server.url, { authorizer, store });
    expect(await through(live, server.url)).toMatchObject({ status: 200 });
    current = "as2";
    // The as1 token is refused; the resource now names as2: a new registration there, and nothing
    // of as1's (client, tokens) presented to it.
    expect(await through(live, server.url)).toMatchObject({ status: 200 });
    expect(authorizer.requests.map((r) => [r.issuer, r.url.searchParams.get("client_id")])).toEqual([
      [`${server.origin}/as1`, "client-of-/as1/oauth/register"],
      [`${server.origin}/as2`, "client-of-/as2/oauth/register"],
    ]);
    expect(server.seen.filter((s) => s.startsWith("POST /as2/")).join("\n")).not.toContain("as1");
    expect(await store.get(`${server.origin}/as1`, server.url)).toBeUndefined();
    expect((await store.get(`${server.origin}/as2`, server.url))?.client?.clientId).toBe(
      "client-of-/as2/oauth/register",
    );
  });
});
