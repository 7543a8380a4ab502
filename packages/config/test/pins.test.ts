/**
 * Revision and transport pins: the schema takes any date and any name, and the pins are checked
 * against the registry once the config's plugins are in. The built-in plugins are stood in for by
 * one that registers revisions and transports of the built-in names; a config's plugin (a file,
 * loaded as any config's plugin is) adds a revision cloned from one of them through the host.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ConfigError, type PluginHost, type Revision, silentLogger, type TransportFactory } from "@mcpx/core";
import { createHost, type Host } from "@mcpx/host";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkPins, parseConfig, pinProblems, resolvePlugins } from "../src/index.js";

const BUILT_IN_DATES = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];

function transport(kind: string, reaches?: "command" | "url"): TransportFactory {
  return {
    kind,
    ...(reaches ? { reaches } : {}),
    accepts: () => false,
    create: () => {
      throw new Error("not in this test");
    },
  };
}

/** A host with revisions and transports of the built-in names, registered as the built-ins are. */
async function builtInHost(): Promise<Host> {
  const host = createHost({ log: silentLogger });
  await host.use({
    name: "built-ins",
    apiVersion: 1,
    apply(h: PluginHost) {
      for (const version of BUILT_IN_DATES) {
        h.registerRevision({ version, era: version < "2026" ? "legacy" : "modern" } as unknown as Revision);
      }
      h.registerTransport(transport("stdio", "command"));
      h.registerTransport(transport("streamable-http", "url"));
      h.registerTransport(transport("http+sse", "url"));
    },
  });
  return host;
}

describe("pins", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "mcpx-pins-"));
    // A third party's revision: a copy of 2025-11-25's behaviour under a date of its own.
    await writeFile(
      path.join(dir, "clone-revision.mjs"),
      `export default {
  name: "clone-revision",
  apiVersion: 1,
  apply(host) {
    host.registerRevision({ ...host.registry.revision("2025-11-25"), version: "2099-01-01" });
  },
};
`,
    );
    await writeFile(
      path.join(dir, "ws-transport.mjs"),
      `export default {
  name: "ws-transport",
  apiVersion: 1,
  apply(host) {
    host.registerTransport({ kind: "ws", reaches: "url", accepts: () => false, create() { throw new Error("no"); } });
    host.registerTransport({ kind: "in-process", accepts: () => false, create() { throw new Error("no"); } });
  },
};
`,
    );
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("config/revision-pin-checked-against-the-registry", async () => {
    const config = parseConfig(
      {
        servers: {
          fs: { command: "node", revision: "2099-01-02" },
          plugin: { command: "node", revision: "2099-01-01" },
          builtIn: { url: "https://example.com/mcp", revision: "2025-06-18" },
          typo: { command: "node", revision: "2025-11-26" },
        },
        plugins: ["./clone-revision.mjs"],
      },
      { path: path.join(dir, "mcpx.json") },
    );
    const host = await builtInHost();
    // Before the plugin is in, its date is unknown like any other.
    expect(pinProblems([config.servers.plugin!], host.registry)).toEqual([
      `servers.plugin.revision: "2099-01-01" is not a revision any installed plugin provides; installed: ${BUILT_IN_DATES.join(", ")}`,
    ]);

    await resolvePlugins(config, host);
    const installed = [...BUILT_IN_DATES, "2099-01-01"].join(", ");
    const problems = [
      `servers.fs.revision: "2099-01-02" is not a revision any installed plugin provides (did you mean "2099-01-01"?); installed: ${installed}`,
      `servers.typo.revision: "2025-11-26" is not a revision any installed plugin provides (did you mean "2025-11-25"?); installed: ${installed}`,
    ];
    expect(pinProblems(Object.values(config.servers), host.registry)).toEqual(problems);
    let thrown: unknown;
    try {
      checkPins(Object.values(config.servers), host.registry, "mcpx.json");
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).problems).toEqual(problems);
    expect((thrown as ConfigError).message).toBe(`mcpx.json: 2 problems: ${problems.join("; ")}`);
    // The plugin's date and a built-in one pass.
    expect(() => checkPins([config.servers.plugin!, config.servers.builtIn!], host.registry)).not.toThrow();
  });

  it("config/transport-pin-checked-against-the-registry", async () => {
    const config = parseConfig(
      {
        servers: {
          unknown: { url: "https://example.com/mcp", transport: "websocket" },
          hostWord: { url: "https://example.com/sse", transport: "sse" },
          typo: { command: "node", transport: "streamable_http" },
          wrongKind: { url: "https://example.com/mcp", transport: "stdio" },
          wrongKindToo: { command: "node", transport: "http+sse" },
          plugin: { url: "https://example.com/ws", transport: "ws" },
          // A transport that says nothing of what it reaches is not checked for it.
          saysNothing: { command: "node", transport: "in-process" },
          typed: { url: "https://example.com/sse", type: "sse" },
        },
        plugins: ["./ws-transport.mjs"],
      },
      { path: path.join(dir, "mcpx.json") },
    );
    const host = await builtInHost();
    expect(pinProblems([config.servers.plugin!], host.registry)).toEqual([
      'servers.plugin.transport: "ws" is not a transport any installed plugin provides; installed: http+sse, stdio, streamable-http',
    ]);

    await resolvePlugins(config, host);
    const installed = "installed: http+sse, in-process, stdio, streamable-http, ws";
    expect(pinProblems(Object.values(config.servers), host.registry)).toEqual([
      `servers.unknown.transport: "websocket" is not a transport any installed plugin provides; ${installed}`,
      `servers.hostWord.transport: "sse" is not a transport any installed plugin provides (did you mean "http+sse"?); ${installed}`,
      `servers.typo.transport: "streamable_http" is not a transport any installed plugin provides (did you mean "streamable-http"?); ${installed}`,
      'servers.wrongKind.transport: "stdio" needs "command", not "url"',
      'servers.wrongKindToo.transport: "http+sse" needs "url", not "command"',
    ]);
  });
});
