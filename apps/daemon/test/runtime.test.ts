import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BUILTIN_SOURCE, loadBuiltinPlugins, loadRuntime } from "../src/index.js";

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function config(body: unknown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "mcpx-daemon-"));
  dirs.push(dir);
  await writeFile(join(dir, "mcpx.json"), JSON.stringify(body));
  return join(dir, "mcpx.json");
}

describe("runtime", () => {
  it("daemon/builtins-applied-once-with-config-options", async () => {
    const file = await config({
      servers: {},
      stateDir: ".state",
      plugins: [["@mcpx/elicitation-broker", { timeoutMs: 1234 }]],
    });
    const { host } = await loadRuntime({ configFile: file, writeLog: () => {} });
    // No server: only the revisions and the broker (the transports and auth schemes wait for a use).
    expect(host.plugins).toEqual(
      (await loadBuiltinPlugins(new Set())).map((p) => ({ name: p.name, source: BUILTIN_SOURCE })),
    );
    expect(host.registry.elicitationHandlers().map((h) => h.name)).toEqual(["@mcpx/elicitation-broker"]);
    expect(host.registry.controlRoutes().map((r) => r.path)).toContain("elicitations/watch");
  });

  it("daemon/extra-plugin-replaces-the-builtin-of-its-name", async () => {
    // How an app that can reach a user gives @mcpx/auth-oauth an authorizer: its own in place of the built-in.
    const file = await config({ servers: {} });
    const scheme = { type: "oauth", apply: () => ({}) };
    const own = {
      name: "@mcpx/auth-oauth",
      apiVersion: 1 as const,
      apply: (h: { registerAuthScheme(s: typeof scheme): void }) => h.registerAuthScheme(scheme),
    };
    const { host } = await loadRuntime({ configFile: file, writeLog: () => {}, plugins: [own] });
    expect(host.registry.authScheme("oauth")).toBe(scheme);
    expect(host.plugins.filter((p) => p.name === "@mcpx/auth-oauth")).toHaveLength(1);
  });

  it("daemon/builtin-options-checked", async () => {
    const file = await config({ servers: {}, plugins: [["@mcpx/elicitation-broker", { timeoutMs: -1 }]] });
    await expect(loadRuntime({ configFile: file, writeLog: () => {} })).rejects.toThrow(
      /@mcpx\/elicitation-broker: invalid options: options\.timeoutMs/,
    );
  });
});
