import { silentLogger } from "@mcpx/core";
import { createHost } from "@mcpx/host";
import { schemeChecks } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import plugin, { headerScheme } from "../src/index.js";

const http = { name: "api", url: "https://api.example.com/mcp" };
const KEY = "k3y-0f-the-api";

const { schemaErrors, refusal } = schemeChecks(headerScheme, { target: http, root: "servers.api.auth" });

describe("auth-header", () => {
  it("auth/header/registers", async () => {
    const host = createHost({ log: silentLogger });
    await host.use(plugin);
    expect(host.registry.authScheme("header")).toBe(headerScheme);
  });

  it("auth/header/one-header", () => {
    expect(headerScheme.apply({ name: "X-Api-Key", value: KEY }, http)).toEqual({
      headers: { "X-Api-Key": KEY },
    });
  });

  it("auth/header/several-headers", () => {
    expect(headerScheme.apply({ headers: { "X-Api-Key": KEY, "X-Tenant": "acme" } }, http)).toEqual({
      headers: { "X-Api-Key": KEY, "X-Tenant": "acme" },
    });
  });

  it("auth/header/options-checked", () => {
    expect(schemaErrors({ name: "X-Api-Key", value: KEY })).toEqual([]);
    expect(schemaErrors({ headers: { A: "b" } })).toEqual([]);
    expect(schemaErrors({})).toEqual(['servers.api.auth: must have exactly one of "headers" or "name"']);
    expect(schemaErrors({ name: "A", value: "b", headers: { A: "b" } })).toEqual([
      'servers.api.auth: must have exactly one of "headers" or "name"',
    ]);
    expect(schemaErrors({ name: "X-Api-Key" })).toEqual([
      'servers.api.auth.name: is only allowed with "value"',
    ]);
    expect(schemaErrors({ headers: { A: 1 } })).toEqual(["servers.api.auth.headers.A: must be string"]);
    expect(schemaErrors({ name: "A", value: "b", header: "c" })).toEqual([
      "servers.api.auth.header: is not a known key",
    ]);
  });

  it("auth/header/names-are-tokens", () => {
    expect(refusal({ name: "X Api Key", value: KEY }).message).toMatch(
      /^servers\.api\.auth\.name: must be a header name \(an RFC 9110 token/,
    );
    expect(refusal({ headers: { "X-Api-Key:": KEY } }).message).toMatch(
      /^servers\.api\.auth\.headers\["X-Api-Key:"\]: must be a header name/,
    );
    expect(refusal({ headers: { "X-Key": KEY, "x-key": KEY } }).message).toBe(
      "servers.api.auth.headers.x-key: names a header already given (header names ignore case)",
    );
  });

  it("auth/header/reserved-names-refused", () => {
    for (const name of ["Host", "content-length", "Transfer-Encoding", "Connection"]) {
      expect(refusal({ name, value: KEY }).message).toBe(
        `servers.api.auth.name: ${name} is set by HTTP itself; credentials cannot go there`,
      );
    }
    for (const name of [
      "MCP-Protocol-Version",
      "mcp-session-id",
      "Mcp-Method",
      "Mcp-Name",
      "Mcp-Param-Region",
    ]) {
      expect(refusal({ headers: { [name]: KEY } }).message).toBe(
        `servers.api.auth.headers.${name}: ${name} is an MCP protocol header, which mcpx sets from each frame; credentials cannot go there`,
      );
    }
  });

  it("auth/header/values-are-header-values", () => {
    expect(refusal({ name: "X-Api-Key", value: `${KEY}\r\nX-Evil: 1` }).message).toMatch(
      /^servers\.api\.auth\.value: must be a header value/,
    );
    expect(refusal({ headers: { "X-Api-Key": ` ${KEY}` } }).message).toMatch(
      /^servers\.api\.auth\.headers\.X-Api-Key: must be a header value/,
    );
  });

  it("auth/header/url-servers-only", () => {
    expect(refusal({ name: "X-Api-Key", value: KEY }, { name: "fs", command: "node" }).message).toMatch(
      /^servers\.fs\.auth: type "header" sends HTTP headers, and fs is a command server/,
    );
  });

  it("auth/header/no-secret-in-errors", () => {
    // Name and value swapped by mistake: the credential is in `name`, and is not quoted back.
    const swapped = refusal({ name: `${KEY}/==`, value: "X-Api-Key" });
    const bad = refusal({ headers: { Host: KEY, "X-A": `${KEY}\n`, "X-B": `\u0000${KEY}` } });
    for (const err of [swapped, bad]) {
      expect(err.message).not.toContain(KEY);
      expect(err.problems.join()).not.toContain(KEY);
    }
    expect(bad.problems).toHaveLength(3);
  });
});
