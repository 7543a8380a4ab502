/**
 * Revision and transport pins are checked against what the plugins installed (the built-in ones and
 * the config's), by `mcpx config check` and when the daemon starts, as auth types are. The config's
 * plugin here is a third party's revision: a copy of 2025-11-25 under a date of its own.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ConfigError } from "@mcpx/core";
import { loadRuntime } from "@mcpx/daemon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../src/main.js";

async function run(argv: string[], cwd: string) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    cwd,
    env: {},
  });
  return { code, stdout, stderr };
}

const BUILT_IN = "2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28";

describe("pins", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "mcpx-pins-"));
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
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("cli/config-check-pins-against-installed-plugins", async () => {
    const bad = {
      servers: {
        pinned: { command: "node", revision: "2099-01-01" },
        typo: { command: "node", revision: "2099-01-02" },
        ws: { url: "https://example.com/mcp", transport: "websocket" },
        wrong: { url: "https://example.com/mcp", transport: "stdio" },
      },
      plugins: ["./clone-revision.mjs"],
    };
    await writeFile(path.join(dir, "bad.json"), JSON.stringify(bad));
    const problems = [
      `servers.typo.revision: "2099-01-02" is not a revision any installed plugin provides (did you mean "2099-01-01"?); installed: ${BUILT_IN}, 2099-01-01`,
      'servers.ws.transport: "websocket" is not a transport any installed plugin provides; installed: http+sse, stdio, streamable-http',
      'servers.wrong.transport: "stdio" needs "command", not "url"',
    ];
    expect(await run(["config", "check", "bad.json"], dir)).toEqual({
      code: 2,
      stdout: "",
      stderr: problems.map((p) => `bad.json: ${p}\n`).join(""),
    });

    // The daemon refuses to start on it, with the same problems.
    const err = await loadRuntime({ configFile: path.join(dir, "bad.json"), logLevel: "silent" }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).problems).toEqual(problems);

    // The plugin's date, pinned, is fine.
    const good = { servers: { pinned: bad.servers.pinned }, plugins: bad.plugins };
    await writeFile(path.join(dir, "good.json"), JSON.stringify(good));
    const ok = await run(["config", "check", "good.json"], dir);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("revision: 2099-01-01");
  });

  it("cli/one-http-client-and-no-plugin-internals", async () => {
    // The CLI talks HTTP through @mcpx/http alone, and imports packages by their exported entry only.
    const src = new URL("../src/", import.meta.url);
    const files = (await readdir(src, { recursive: true })).filter((f) => f.endsWith(".ts"));
    const found: string[] = [];
    for (const file of files) {
      const text = await readFile(new URL(file, src), "utf8");
      for (const [what, re] of [
        ["node:http", /from "node:https?"/],
        ["undici", /from "undici"/],
        ["fetch", /\bfetch\(/],
        ["a non-exported path", /from "@mcpx\/[^"/]+\/[^"]*"/],
        ["another package's files", /from "(\.\.\/){2,}/],
      ] as const) {
        if (re.test(text)) found.push(`${file}: ${what}`);
      }
    }
    expect(found).toEqual([]);
  });
});
