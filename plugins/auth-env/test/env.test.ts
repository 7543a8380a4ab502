import { silentLogger } from "@mcpx/core";
import { createHost } from "@mcpx/host";
import { schemeChecks } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import plugin, { envScheme } from "../src/index.js";

const stdio = { name: "fs", command: "node" };
const KEY = "sk-live-0123456789";

const { schemaErrors, refusal } = schemeChecks(envScheme, { target: stdio, root: "servers.fs.auth" });

describe("auth-env", () => {
  it("auth/env/registers", async () => {
    const host = createHost({ log: silentLogger });
    await host.use(plugin);
    expect(host.registry.authScheme("env")).toBe(envScheme);
  });

  it("auth/env/child-environment", () => {
    expect(envScheme.apply({ env: { API_KEY: KEY, REGION: "eu" } }, stdio)).toEqual({
      env: { API_KEY: KEY, REGION: "eu" },
    });
    expect(envScheme.apply({ vars: { API_KEY: KEY } }, stdio)).toEqual({ env: { API_KEY: KEY } });
  });

  it("auth/env/options-checked", () => {
    expect(schemaErrors({ env: { A: "b" } })).toEqual([]);
    expect(schemaErrors({})).toEqual(['servers.fs.auth: must have exactly one of "env" or "vars"']);
    expect(schemaErrors({ env: { A: "b" }, vars: { A: "b" } })).toEqual([
      'servers.fs.auth: must have exactly one of "env" or "vars"',
    ]);
    expect(schemaErrors({ env: { A: 1 } })).toEqual(["servers.fs.auth.env.A: must be string"]);
    expect(schemaErrors({ env: {} })).toEqual(["servers.fs.auth.env: must NOT have fewer than 1 properties"]);
    expect(schemaErrors({ env: { A: "b" }, environment: {} })).toEqual([
      "servers.fs.auth.environment: is not a known key",
    ]);
  });

  it("auth/env/names-and-values", () => {
    expect(refusal({ env: { "A=B": KEY } }).message).toBe(
      'servers.fs.auth.env["A=B"]: must be an environment variable name (not empty, without = or NUL)',
    );
    expect(refusal({ vars: { A: `${KEY}\u0000` } }).message).toBe(
      "servers.fs.auth.vars.A: must not contain a NUL character",
    );
  });

  it("auth/env/command-servers-only", () => {
    const err = refusal({ env: { API_KEY: KEY } }, { name: "api", url: "https://api.example.com/mcp" });
    expect(err.message).toBe(
      'servers.api.auth: type "env" sets a child process\'s environment, and api is a URL server (use bearer, basic, header or query)',
    );
    expect(err.message).not.toContain(KEY);
  });

  it("auth/env/no-secret-in-errors", () => {
    const err = refusal({ env: { "": KEY, B: `${KEY}\u0000` } });
    expect(err.problems).toHaveLength(2);
    expect(err.message).not.toContain(KEY);
  });
});
