// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${env:NAME} is the config's own syntax
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { loadPlugins } from "@mcpx/config";
import { type LifecycleEvent, silentLogger } from "@mcpx/core";
import { createHost } from "@mcpx/host";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../src/main.js";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

async function run(argv: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    cwd: options.cwd ?? repoRoot,
    env: options.env ?? {},
  });
  return { code, stdout, stderr };
}

/** The plugins every mcpx applies before a config's, in order. */
const BUILTINS = [
  "@mcpx/revision-2024-11-05",
  "@mcpx/revision-2025-03-26",
  "@mcpx/revision-2025-06-18",
  "@mcpx/revision-2025-11-25",
  "@mcpx/revision-2026-07-28",
  "@mcpx/transport-stdio",
  "@mcpx/transport-streamable-http",
  "@mcpx/transport-http-sse",
  "@mcpx/auth-bearer",
  "@mcpx/auth-basic",
  "@mcpx/auth-header",
  "@mcpx/auth-env",
  "@mcpx/auth-query",
  "@mcpx/auth-oauth",
  "@mcpx/elicitation-broker",
];

describe("cli", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "mcpx-cli-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("cli/version-is-the-package-version", async () => {
    const pkg = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8"));
    for (const flag of ["--version", "-v"]) {
      expect(await run([flag])).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: "" });
    }
  });

  it("cli/help-lists-commands", async () => {
    const top = await run(["--help"]);
    expect(top.code).toBe(0);
    expect(top.stdout).toContain("Usage: mcpx [options] [command]");
    expect(top.stdout).toContain("config");
    const check = await run(["config", "check", "--help"]);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain("Usage: mcpx config check [options] [file]");
    expect(check.stdout).toContain("--config <file>");
    expect(check.stdout).toContain("--json");
  });

  it("cli/unknown-command-refused", async () => {
    const r = await run(["frobnicate"]);
    // A usage error: exit 2 (it was 1 before exit codes were given meanings).
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command 'frobnicate'");
  });

  it("cli/config-check-example-ok-with-plugin", async () => {
    const r = await run(["config", "check", "examples/mcpx.json"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        "examples/mcpx.json: ok",
        "servers (2):",
        "  everything",
        "    command: node upstreams/everything.mjs stdio",
        "    namespace: everything",
        "  everything-http",
        "    url: http://127.0.0.1:3001/mcp",
        "    namespace: everything-http",
        "plugins (16):",
        ...BUILTINS.map((name) => `  ${name}  from (built-in)`),
        "  @mcpx/example-plugin@0.1.0  from ./plugin-hello",
        "",
      ].join("\n"),
    );
  });

  it("cli/config-check-default-file-and-config-option", async () => {
    const cwd = path.join(repoRoot, "examples");
    const byDefault = await run(["config", "check"], { cwd });
    expect(byDefault.code).toBe(0);
    expect(byDefault.stdout.split("\n")[0]).toBe("mcpx.json: ok");
    const byOption = await run(["config", "check", "--config", "examples/mcpx.json"]);
    expect(byOption.code).toBe(0);
    expect(byOption.stdout).toContain("@mcpx/example-plugin");
  });

  it("cli/config-check-json", async () => {
    const r = await run(["config", "check", "examples/mcpx.json", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      ok: true,
      config: path.join(repoRoot, "examples", "mcpx.json"),
      servers: [
        {
          name: "everything",
          kind: "command",
          command: "node upstreams/everything.mjs stdio",
          namespace: "everything",
        },
        {
          name: "everything-http",
          kind: "url",
          url: "http://127.0.0.1:3001/mcp",
          namespace: "everything-http",
        },
      ],
      plugins: [
        ...BUILTINS.map((name) => ({ name, source: "(built-in)" })),
        { name: "@mcpx/example-plugin", version: "0.1.0", source: "./plugin-hello" },
      ],
    });
  });

  it("cli/config-check-bad-file-exit-2-every-problem", async () => {
    const file = path.join(dir, "bad.json");
    await writeFile(
      file,
      JSON.stringify({
        upstream: { versionAttempts: 0 },
        mcpServers: { fs: { command: 42 }, web: { url: "https://example.com", bogus: 1 }, x: {} },
      }),
    );
    const r = await run(["config", "check", file]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      `${file}: upstream.versionAttempts: must be >= 1`,
      `${file}: mcpServers.fs.command: must be string`,
      `${file}: mcpServers.web.bogus: is not a known key`,
      `${file}: mcpServers.x: must have exactly one of "command" or "url"`,
    ]);
    const json = await run(["config", "check", file, "--json"]);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout).problems).toHaveLength(4);
  });

  it("cli/config-check-missing-file-and-bad-json", async () => {
    const missing = await run(["config", "check", "nope.json"], { cwd: dir });
    expect(missing).toEqual({
      code: 2,
      stdout: "",
      stderr: `nope.json: no config file at ${path.join(dir, "nope.json")} (create one with \`mcpx config init\`)\n`,
    });
    await writeFile(path.join(dir, "syntax.json"), '{\n  "servers": {,}\n}\n');
    const syntax = await run(["config", "check", "syntax.json"], { cwd: dir });
    expect(syntax.code).toBe(2);
    expect(syntax.stderr).toBe(
      'syntax.json: invalid JSON at line 2, column 15: expected a key in double quotes (or "}") but found ","\n',
    );
  });

  it("cli/config-check-plugin-problem-exit-2", async () => {
    await writeFile(
      path.join(dir, "plugin.json"),
      JSON.stringify({ servers: { a: { command: "x" } }, plugins: ["./missing-plugin.js"] }),
    );
    const r = await run(["config", "check", "plugin.json"], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `plugin.json: plugin ./missing-plugin.js: cannot find ${path.join(dir, "missing-plugin.js")} (a path is relative to the config file's directory, ${dir})\n`,
    );
  });

  it("cli/config-check-never-prints-secrets", async () => {
    await writeFile(
      path.join(dir, "secrets.json"),
      JSON.stringify({
        servers: {
          api: {
            url: "https://user:pw@api.example.com/mcp?key=query-secret",
            auth: { type: "example-static", header: "X-Api-Key", value: "${env:API_KEY}" },
          },
          local: {
            command: "server",
            args: ["--token", "${env:TOKEN}"],
            env: { DB_PASSWORD: "hunter2-literal" },
          },
        },
        plugins: [path.join(repoRoot, "examples", "plugin-hello")],
      }),
    );
    const env = { API_KEY: "the-api-key", TOKEN: "the-token" };
    for (const extra of [[], ["--json"]]) {
      const r = await run(["config", "check", "secrets.json", ...extra], { cwd: dir, env });
      expect(r.code).toBe(0);
      for (const secret of [
        "the-api-key",
        "the-token",
        "hunter2-literal",
        "query-secret",
        "pw",
        "X-Api-Key",
      ]) {
        expect(r.stdout).not.toContain(secret);
      }
      expect(r.stdout).toContain("https://api.example.com/mcp");
      expect(r.stdout).toContain("example-static");
      expect(r.stdout).toContain("DB_PASSWORD");
    }
  });

  it("examples/plugin-hello-usable-from-outside", async () => {
    const lines: string[] = [];
    const host = createHost({
      log: { ...silentLogger, child: () => ({ ...silentLogger, info: (m) => lines.push(m) }) },
    });
    await loadPlugins([{ spec: "./plugin-hello", options: { greeting: "welcome" } }], {
      configDir: path.join(repoRoot, "examples"),
      host,
    });
    const scheme = host.registry.authScheme("example-static");
    const auth = { type: "example-static", header: "X-Api-Key", value: "k" };
    expect(await scheme?.apply(auth, { name: "api", url: "https://example.com/mcp" })).toEqual({
      headers: { "X-Api-Key": "k" },
    });
    expect(await scheme?.apply(auth, { name: "local", command: "server" })).toEqual({});
    const connected: LifecycleEvent = {
      type: "upstream.connected",
      upstream: "api",
      revision: "2026-07-28",
      transport: "streamable-http",
    };
    host.emit(connected);
    expect(lines).toEqual(["welcome, api"]);
  });
});
