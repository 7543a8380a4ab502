/**
 * The grants with no user beyond client credentials (tested against oidc-provider in flows.test.ts),
 * on a small server of the test's own that is resource, authorization server and identity provider:
 * the JWT bearer grant with a workload's assertion (RFC 7523 §2.1), and enterprise-managed
 * authorization (an RFC 8693 exchange at the identity provider, then the JWT bearer grant).
 */

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { AuthorizationFailedError } from "@mcpx/core";
import { describe, expect, it } from "vitest";
import { closing, sessionFor } from "./helpers/setup.js";
import { through } from "./helpers/through.js";

async function server() {
  const forms: Record<string, string>[] = [];
  let origin = "";
  const http = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
        res.writeHead(status, { "Content-Type": "application/json", ...headers }).end(JSON.stringify(value));
      const form = Object.fromEntries(new URLSearchParams(body));
      switch (req.url) {
        case "/mcp":
          return req.headers.authorization === "Bearer granted"
            ? json(200, { ok: true })
            : json(401, {}, { "WWW-Authenticate": `Bearer resource_metadata="${origin}/prm"` });
        case "/prm":
          return json(200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
        case "/.well-known/oauth-authorization-server":
          return json(200, {
            issuer: origin,
            token_endpoint: `${origin}/token`,
            code_challenge_methods_supported: ["S256"],
            token_endpoint_auth_methods_supported: ["client_secret_basic", "none"],
          });
        case "/idp/token":
          forms.push({ at: "idp", ...form });
          return json(200, {
            access_token: "the-id-jag",
            issued_token_type: "urn:ietf:params:oauth:token-type:id-jag",
            token_type: "N_A",
          });
        case "/token":
          forms.push({ at: "as", ...form, authorization: req.headers.authorization ?? "" });
          return form.assertion === "bad"
            ? json(400, { error: "invalid_grant" })
            : json(200, { access_token: "granted", token_type: "Bearer" });
        default:
          return json(404, {});
      }
    });
  });
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  closing({
    close: () =>
      new Promise<void>((r) => {
        http.closeAllConnections();
        http.close(() => r());
      }),
  });
  return { url: `${origin}/mcp`, origin, forms };
}

describe("oauth grants with no user", () => {
  it("oauth/jwt-bearer-grant-sends-the-assertion", async () => {
    const s = await server();
    const dir = await mkdtemp(path.join(tmpdir(), "mcpx-oauth-wif-"));
    closing({ close: () => rm(dir, { recursive: true, force: true }) });
    const file = path.join(dir, "token");
    await writeFile(file, "workload-jwt\n");
    const live = await sessionFor(s.url, {
      options: { grant: "jwt_bearer", clientId: "workload", assertionFile: file },
    });
    expect(await through(live, s.url)).toMatchObject({ status: 200 });
    expect(s.forms).toEqual([
      expect.objectContaining({
        at: "as",
        grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
        assertion: "workload-jwt",
        resource: `${s.origin}/mcp`,
        client_id: "workload",
      }),
    ]);
    // A refused assertion is final: no other grant is tried in its place.
    const refused = await sessionFor(s.url, {
      options: { grant: "jwt_bearer", clientId: "workload", assertion: "bad" },
    });
    const err = await through(refused, s.url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthorizationFailedError);
    expect((err as Error).message).toContain("the JWT bearer grant failed: HTTP 400, invalid_grant");
    expect(s.forms.map((f) => f.grant_type)).toEqual([
      "urn:ietf:params:oauth:grant-type:jwt-bearer",
      "urn:ietf:params:oauth:grant-type:jwt-bearer",
    ]);
  });

  it("oauth/token-exchange-then-jwt-bearer", async () => {
    const s = await server();
    const live = await sessionFor(s.url, {
      options: {
        grant: "token_exchange",
        clientId: "mcpx-at-as",
        clientSecret: "as-secret",
        idpTokenEndpoint: `${s.origin}/idp/token`,
        idpClientId: "mcpx-at-idp",
        subjectToken: "the-users-id-token",
      },
    });
    expect(await through(live, s.url)).toMatchObject({ status: 200 });
    expect(s.forms).toEqual([
      {
        at: "idp",
        grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
        requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
        audience: s.origin,
        resource: `${s.origin}/mcp`,
        subject_token: "the-users-id-token",
        subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
        client_id: "mcpx-at-idp",
      },
      {
        at: "as",
        grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
        assertion: "the-id-jag",
        resource: `${s.origin}/mcp`,
        authorization: `Basic ${Buffer.from("mcpx-at-as:as-secret").toString("base64")}`,
      },
    ]);
  });
});
