import { silentLogger } from "@mcpx/core";
import { createHost } from "@mcpx/host";
import { schemeChecks } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import plugin, { queryScheme } from "../src/index.js";

const http = { name: "api", url: "https://api.example.com/mcp?region=eu" };
const KEY = "k3y/with+odd=chars";

const { schemaErrors, refusal } = schemeChecks(queryScheme, { target: http, root: "servers.api.auth" });

describe("auth-query", () => {
  it("auth/query/registers", async () => {
    const host = createHost({ log: silentLogger });
    await host.use(plugin);
    expect(host.registry.authScheme("query")).toBe(queryScheme);
  });

  it("auth/query/parameters", () => {
    expect(queryScheme.apply({ params: { api_key: KEY, tenant: "acme" } }, http)).toEqual({
      query: { api_key: KEY, tenant: "acme" },
    });
    expect(queryScheme.apply({ name: "api_key", value: KEY }, http)).toEqual({ query: { api_key: KEY } });
  });

  it("auth/query/options-checked", () => {
    expect(schemaErrors({ params: { a: "b" } })).toEqual([]);
    expect(schemaErrors({ name: "a", value: "b" })).toEqual([]);
    expect(schemaErrors({})).toEqual(['servers.api.auth: must have exactly one of "params" or "name"']);
    expect(schemaErrors({ value: KEY })).toEqual([
      'servers.api.auth: must have exactly one of "params" or "name"',
      'servers.api.auth.value: is only allowed with "name"',
    ]);
    expect(schemaErrors({ params: { a: 1 } })).toEqual(["servers.api.auth.params.a: must be string"]);
    expect(schemaErrors({ params: { a: "b" }, param: {} })).toEqual([
      "servers.api.auth.param: is not a known key",
    ]);
  });

  it("auth/query/names-not-empty", () => {
    expect(refusal({ params: { "": KEY } }).message).toBe(
      "servers.api.auth.params: a parameter name must not be empty",
    );
  });

  it("auth/query/url-servers-only", () => {
    const err = refusal({ name: "api_key", value: KEY }, { name: "fs", command: "node" });
    expect(err.message).toMatch(/^servers\.fs\.auth: type "query" adds to a URL, and fs is a command server/);
    expect(err.message).not.toContain(KEY);
  });
});
