/** The `auth` of a server with type "oauth": the schema, and what goes together. */

import { silentLogger } from "@mcpx/core";
import { createHost } from "@mcpx/host";
import { schemeChecks } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import plugin, { createOAuthScheme } from "../src/index.js";

const http = { name: "docs", url: "https://docs.example.com/mcp" };
const scheme = createOAuthScheme();
const { schemaErrors, refusal } = schemeChecks(scheme, { target: http, root: "servers.docs.auth" });

describe("oauth options", () => {
  it("oauth/registers", async () => {
    const host = createHost({ log: silentLogger });
    await host.use(plugin);
    expect(host.registry.authScheme("oauth")?.type).toBe("oauth");
  });

  it("oauth/options-checked", () => {
    expect(schemaErrors({})).toEqual([]);
    expect(schemaErrors({ clientId: "c", clientSecret: "s", scope: "a b", offlineAccess: false })).toEqual(
      [],
    );
    expect(schemaErrors({ clientid: "c" })).toEqual(["servers.docs.auth.clientid: is not a known key"]);
    expect(schemaErrors({ grant: "password" })[0]).toMatch(/^servers\.docs\.auth\.grant: must be one of/);
  });

  it("oauth/dpop-option-checked", () => {
    expect(schemaErrors({ dpop: true })).toEqual([]);
    expect(schemaErrors({ dpop: false })).toEqual([]);
    expect(schemaErrors({ dpop: "yes" })).toEqual(["servers.docs.auth.dpop: must be boolean"]);
  });

  it("oauth/options-that-go-together", () => {
    expect(refusal({ clientSecret: "s" }).message).toBe(
      "servers.docs.auth.clientSecret: goes with a pre-registered client; clientId is missing",
    );
    expect(refusal({ grant: "client_credentials", clientId: "c" }).message).toMatch(
      /^servers\.docs\.auth\.grant: "client_credentials" needs a pre-registered client/,
    );
    expect(refusal({ clientId: "c", tokenEndpointAuthMethod: "private_key_jwt" }).message).toBe(
      "servers.docs.auth.tokenEndpointAuthMethod: private_key_jwt needs privateKey",
    );
    expect(refusal({ clientMetadataUrl: "http://app.example.com/client.json" }).message).toBe(
      "servers.docs.auth.clientMetadataUrl: must be an https URL with a path and no fragment",
    );
    expect(refusal({ redirectUri: "http://app.example.com/callback" }).message).toBe(
      "servers.docs.auth.redirectUri: must be an https URL or an http URL on a loopback address",
    );
    expect(refusal({ grant: "jwt_bearer", clientId: "c" }).message).toBe(
      'servers.docs.auth.grant: "jwt_bearer" needs exactly one of assertion and assertionFile',
    );
    expect(refusal({ grant: "token_exchange", clientId: "c", subjectToken: "t" }).message).toBe(
      'servers.docs.auth.grant: "token_exchange" needs idpTokenEndpoint, idpClientId',
    );
    expect(
      refusal({
        grant: "token_exchange",
        clientId: "c",
        idpClientId: "i",
        subjectToken: "t",
        idpTokenEndpoint: "http://idp.example.com/token",
      }).message,
    ).toBe("servers.docs.auth.idpTokenEndpoint: must be an https URL or an http URL on a loopback address");
    expect(refusal({}, { name: "fs", command: "node" }).message).toMatch(
      /^servers\.fs\.auth: type "oauth" authorizes HTTP requests, and fs is a command server/,
    );
  });

  it("oauth/options-no-secret-in-errors", () => {
    const err = refusal({ clientSecret: "very-secret-value", tokenEndpointAuthMethod: "client_secret_post" });
    expect(err.message).not.toContain("very-secret-value");
  });
});
