import { silentLogger } from "@mcpx/core";
import { createHost } from "@mcpx/host";
import { schemeChecks } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import plugin, { bearerScheme } from "../src/index.js";

const http = { name: "api", url: "https://api.example.com/mcp" };
const TOKEN = "s3cr3t-token.value_42";

const { schemaErrors, refusal } = schemeChecks(bearerScheme, { target: http, root: "servers.api.auth" });

describe("auth-bearer", () => {
  it("auth/bearer/registers", async () => {
    const host = createHost({ log: silentLogger });
    await host.use(plugin);
    expect(host.registry.authScheme("bearer")).toBe(bearerScheme);
  });

  it("auth/bearer/authorization-header", () => {
    expect(bearerScheme.apply({ token: TOKEN }, http)).toEqual({
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
  });

  it("auth/bearer/options-checked", () => {
    expect(schemaErrors({ token: TOKEN })).toEqual([]);
    expect(schemaErrors({})).toEqual(["servers.api.auth.token: is required"]);
    expect(schemaErrors({ token: TOKEN, tokn: "x" })).toEqual(["servers.api.auth.tokn: is not a known key"]);
    expect(schemaErrors({ token: 42 })).toEqual(["servers.api.auth.token: must be string"]);
    expect(schemaErrors({ token: "" })).toEqual([
      "servers.api.auth.token: must NOT have fewer than 1 characters",
    ]);
  });

  it("auth/bearer/token-alone", () => {
    expect(refusal({ token: `Bearer ${TOKEN}` }).message).toBe(
      'servers.api.auth.token: must be the token alone, without "Bearer "',
    );
    expect(refusal({ token: `${TOKEN}\r\nX-Evil: 1` }).message).toBe(
      "servers.api.auth.token: must be one token, without spaces or line breaks",
    );
    expect(refusal({ token: `${TOKEN}\u0001` }).problems[0]).toMatch(
      /^servers\.api\.auth\.token: must be a header value/,
    );
  });

  it("auth/bearer/url-servers-only", () => {
    const err = refusal({ token: TOKEN }, { name: "fs", command: "node" });
    expect(err.message).toMatch(
      /^servers\.fs\.auth: type "bearer" sends an HTTP header, and fs is a command server/,
    );
  });

  it("auth/bearer/no-secret-in-errors", () => {
    for (const token of [`Bearer ${TOKEN}`, `${TOKEN} x`, `${TOKEN}\n`]) {
      const err = refusal({ token });
      expect(err.message).not.toContain(TOKEN);
      expect(err.problems.join()).not.toContain(TOKEN);
    }
    expect(refusal({ token: TOKEN }, { name: "fs", command: "node" }).message).not.toContain(TOKEN);
  });
});
