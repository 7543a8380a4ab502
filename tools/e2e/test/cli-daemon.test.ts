// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${env:NAME} is the config's own syntax
/**
 * `mcpx status` against a real daemon (serve from @mcpx/daemon, in the test process), and `mcpx
 * config check --connect` against real upstream processes.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { JSONObject } from "@mcpx/core";
import { serve } from "@mcpx/daemon";
import { describe, expect, it } from "vitest";
import { afterThisTest, configDir, freePort } from "../src/index.js";
import { run, scriptedUpstream } from "./cli.helpers.js";

async function daemon(config: JSONObject, env: Record<string, string> = {}) {
  const dir = await configDir(config);
  const serving = await serve({
    configFile: join(dir, "mcpx.json"),
    env,
    writeLog: () => {},
    logLevel: "error",
  });
  afterThisTest(() => serving.stop());
  await serving.runtime.gateway.pool.settled();
  return { dir, file: join(dir, "mcpx.json"), url: serving.url };
}

describe("mcpx status", () => {
  it("cli/status-says-when-the-daemon-runs-another-config", async () => {
    const port = await freePort();
    const listen = { host: "127.0.0.1", port };
    const { dir, file, url } = await daemon({ listen, servers: { fs: (await scriptedUpstream()).entry } });
    // Its own config: all is well.
    const own = await run(dir, ["status"]);
    expect(own.stderr).toBe("");
    expect(own.code).toBe(0);
    expect(own.stdout.split("\n").slice(0, 3)).toEqual([
      expect.stringMatching(new RegExp(`^mcpx \\S+ at ${url} since \\S+, 0 client\\(s\\)$`)),
      `config: ${file}`,
      "  fs: connected 2025-11-25 over stdio",
    ]);
    // Another file naming the same address: the daemon that answers is not the one asked about.
    const other = join(dir, "other");
    await mkdir(other);
    await writeFile(join(other, "mcpx.json"), JSON.stringify({ listen, servers: {} }));
    const asked = join(other, "mcpx.json");
    const wrong = await run(other, ["status"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stdout).toContain(`config: ${file} (not ${asked})`);
    expect(wrong.stderr).toBe(
      `mcpx: the daemon at ${url} runs ${file}, not ${asked} (stop it and start mcpx serve --config ${asked}, run with --config ${file}, or pass --any)\n`,
    );
    const json = await run(other, ["status", "--json"]);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ config: file, asked, sameConfig: false });
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: "other-config" } });
    // --any accepts whichever daemon answers, and still says which config it runs.
    const any = await run(other, ["status", "--any"]);
    expect(any.code).toBe(0);
    expect(any.stdout).toContain(`config: ${file} (not ${asked})`);
  });

  it("cli/status-needs-no-upstream-secrets", async () => {
    const port = await freePort();
    const upstream = await scriptedUpstream();
    const config = {
      listen: { host: "127.0.0.1", port, token: "${env:MCPX_TOKEN}" },
      servers: {
        fs: { ...upstream.entry, env: { API_KEY: "${env:UPSTREAM_SECRET}" } },
        api: { url: "https://127.0.0.1:9/mcp", auth: { type: "bearer", token: "${env:API_TOKEN}" } },
      },
    };
    const { dir } = await daemon(config, {
      MCPX_TOKEN: "the-token",
      UPSTREAM_SECRET: "upstream-secret",
      API_TOKEN: "api-secret",
    });
    // Only the daemon's token in the environment: the upstreams' variables are not even read.
    const status = await run(dir, ["status", "--json"], { env: { MCPX_TOKEN: "the-token" } });
    expect(status.stderr).toBe("");
    expect(status.code).toBe(0);
    const parsed = JSON.parse(status.stdout) as { upstreams: { name: string }[]; sameConfig: boolean };
    expect(parsed.sameConfig).toBe(true);
    expect(parsed.upstreams.map((u) => u.name)).toEqual(["fs", "api"]);
    expect(status.stdout).not.toContain("upstream-secret");
    expect(status.stdout).not.toContain("api-secret");
    // Without the token the daemon refuses: the token was what status needed, and all it read.
    const refused = await run(dir, ["status"], { env: { MCPX_TOKEN: "wrong" } });
    expect(refused.code).toBe(3);
  });
});

describe("mcpx config check --connect", () => {
  it("cli/config-check-connect-reports-each-server", async () => {
    const good = await scriptedUpstream();
    const dir = await configDir({
      servers: {
        fs: { ...good.entry, tools: { exclude: ["delete_*"] } },
        dead: { command: "/nonexistent/mcp-server" },
        off: { command: "/nonexistent/other", disabled: true },
      },
    });
    const human = await run(dir, ["config", "check", "--connect"]);
    expect(human.code).toBe(3);
    const lines = human.stdout.split("\n");
    const facts = (server: string) => {
      const from = lines.indexOf(`  ${server}`) + 1;
      const end = lines.findIndex((l, i) => i >= from && !l.startsWith("    "));
      return lines.slice(from, end);
    };
    // Each server's facts end with what connecting found: revision, transport, tools shown (its
    // tools.exclude applied: 6 of 7).
    expect(facts("fs").at(-1)).toBe("    connected: 2025-11-25 over stdio, 6 tools");
    expect(facts("dead").at(-1)).toMatch(
      /^ {4}failed: upstream dead: cannot run \/nonexistent\/mcp-server: .*ENOENT/,
    );
    // A disabled server is not started.
    expect(facts("off")).toEqual(["    command: /nonexistent/other", "    namespace: off", "    disabled"]);
    const json = await run(dir, ["config", "check", "--connect", "--json"]);
    expect(json.code).toBe(3);
    const servers = (JSON.parse(json.stdout) as { servers: JSONObject[] }).servers;
    expect(servers.find((s) => s.name === "fs")?.connect).toEqual({
      status: "connected",
      revision: "2025-11-25",
      transport: "stdio",
      tools: 6,
    });
    expect(servers.find((s) => s.name === "dead")?.connect).toMatchObject({ status: "failed" });
    expect(servers.find((s) => s.name === "off")?.connect).toBeUndefined();
    // Without --connect nothing is started, and a config that is fine exits 0.
    const plain = await run(dir, ["config", "check"]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toContain("connected:");
  });
});
