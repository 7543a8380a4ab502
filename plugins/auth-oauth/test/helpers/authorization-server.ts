/**
 * A real authorization server for the tests: oidc-provider on 127.0.0.1, with dynamic client
 * registration, RFC 8707 resource indicators (JWT access tokens for any resource on the test
 * servers' origin, with the scopes mcp:read and mcp:write), client credentials, refresh tokens,
 * PKCE and RFC 9207 `iss` as it ships them. Its development login and consent pages stand in for a
 * user (browser.ts drives them). What it was asked is counted from its events.
 */

import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export const SCOPES = ["mcp:read", "mcp:write"];

export interface AuthorizationServerOptions {
  /** Access token lifetime in seconds (default 3600). */
  accessTokenTtl?: number;
  /** Clients registered in advance. */
  clients?: Record<string, unknown>[];
  /**
   * DPoP (RFC 9449): off unless asked (the other tests' tokens are Bearer); `nonce` makes every
   * token request need a nonce of the server's (use_dpop_nonce, §8).
   */
  dpop?: { nonce?: boolean };
}

export interface TokenRequest {
  /** The DPoP proof it carried. */
  dpop: string | undefined;
  status: number;
}

export interface TestAuthorizationServer {
  issuer: string;
  provider: Provider;
  /** How many times each thing happened: registrations, grants by type, authorization codes. */
  counts: Record<string, number>;
  /** Every request to the token endpoint, in order. */
  tokenRequests: TokenRequest[];
  close(): Promise<void>;
}

export async function startAuthorizationServer(
  options: AuthorizationServerOptions = {},
): Promise<TestAuthorizationServer> {
  const server: Server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: options.clients ?? [],
    scopes: [...SCOPES, "offline_access"],
    features: {
      dPoP: options.dpop
        ? {
            enabled: true,
            nonceSecret: randomBytes(32),
            requireNonce: () => options.dpop?.nonce === true,
          }
        : { enabled: false },
      devInteractions: { enabled: true },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string) => oneOf ?? issuer,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => ({
          scope: SCOPES.join(" "),
          audience: resource,
          accessTokenFormat: "jwt",
          accessTokenTTL: options.accessTokenTtl ?? 3600,
          jwt: { sign: { alg: "RS256" } },
        }),
      },
    },
    // Every client allowed refresh tokens gets one, offline_access or not.
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed("refresh_token"),
    // Refresh tokens are not rotated: the test of a refresh sees the same one again.
    rotateRefreshToken: false,
    ttl: {
      AccessToken: options.accessTokenTtl ?? 3600,
      AuthorizationCode: 60,
      ClientCredentials: options.accessTokenTtl ?? 3600,
      Grant: 3600,
      Interaction: 600,
      RefreshToken: 3600,
      Session: 3600,
    },
  });
  const counts: Record<string, number> = {};
  const count = (key: string) => {
    counts[key] = (counts[key] ?? 0) + 1;
  };
  provider.on("registration_create.success", () => count("registration"));
  provider.on("authorization_code.saved", () => count("authorization_code"));
  type Ctx = { oidc: { params?: { grant_type?: unknown } } };
  provider.on("grant.success", (ctx: Ctx) => count(`grant:${String(ctx.oidc.params?.grant_type)}`));
  provider.on("grant.error", (ctx: Ctx) => count(`grant-error:${String(ctx.oidc.params?.grant_type)}`));
  const tokenRequests: TokenRequest[] = [];
  const callback = provider.callback();
  server.on("request", (req, res) => {
    if (req.method === "POST" && req.url === "/token") {
      const entry: TokenRequest = { dpop: req.headers.dpop as string | undefined, status: 0 };
      tokenRequests.push(entry);
      res.on("finish", () => {
        entry.status = res.statusCode;
      });
    }
    callback(req, res);
  });
  return {
    issuer,
    provider,
    counts,
    tokenRequests,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
