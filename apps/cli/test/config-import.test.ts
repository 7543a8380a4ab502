// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${env:NAME} is the config's own syntax
/**
 * `mcpx config import|init|add|remove`, run in-process on the host config fixtures of @mcpx/config
 * (packages/config/test/fixtures/hosts). Each test converts, then runs `mcpx config check` on what was
 * written, as a user would.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { MainIO } from "../src/io.js";
import { main } from "../src/main.js";

const HOSTS = fileURLToPath(new URL("../../../packages/config/test/fixtures/hosts", import.meta.url));

interface Fixture {
  host: string;
  file: string;
  expected: string;
}
const FIXTURES = (
  JSON.parse(await readFile(path.join(HOSTS, "fixtures.json"), "utf8")) as { fixtures: Fixture[] }
).fixtures;
const fixture = (file: string) => path.join(HOSTS, file);

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "mcpx-config-import-"));
  dirs.push(dir);
  return dir;
}

async function run(
  argv: string[],
  cwd: string,
  env: Record<string, string> = {},
  extra: Partial<MainIO> = {},
) {
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
    env: { HOME: "/home/ada", ...env },
    ...extra,
  });
  return { code, stdout, stderr };
}

/** The expected mcpx config of a fixture, as text with this checkout's paths. */
async function expected(file: string): Promise<unknown> {
  return JSON.parse((await readFile(fixture(file), "utf8")).replaceAll("<hosts>", HOSTS));
}

/** A value for every variable the imported config reads, as a user would set them. */
const envFor = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, `value-of-${n}`]));

/** Imports `file` into `<dir>/mcpx.json` (--json), then checks it; both must succeed. */
async function importAndCheck(file: string, dir: string) {
  const imported = await run(["config", "import", fixture(file), "--json"], dir);
  expect(imported.stderr).toBe("");
  expect(imported.code).toBe(0);
  const report = JSON.parse(imported.stdout) as {
    env: string[];
    warnings: { file: string; server?: string; at: string; message: string }[];
    added: string[];
    skipped: string[];
  };
  const written = JSON.parse(await readFile(path.join(dir, "mcpx.json"), "utf8")) as {
    servers: Record<string, Record<string, unknown>>;
  };
  const check = await run(["config", "check", "--json"], dir, envFor(report.env));
  expect(check.stderr).toBe("");
  expect(JSON.parse(check.stdout)).toMatchObject({ ok: true });
  expect(check.code).toBe(0);
  return { report, written, check: JSON.parse(check.stdout) as { servers: Record<string, unknown>[] } };
}

describe("mcpx config import", () => {
  it("config-import/claude-desktop", async () => {
    for (const f of FIXTURES.filter((x) => x.host === "claude-desktop")) {
      const { written, report } = await importAndCheck(f.file, await tempDir());
      expect(written).toEqual(await expected(f.expected));
      expect(report.skipped).toEqual([]);
    }
    // Claude Code's `.mcp.json`: `${VAR}` and `${VAR:-default}` read the environment; `http` is pinned.
    const code = await importAndCheck("claude-code/.mcp.json", await tempDir());
    expect(code.report.env).toEqual(["DATABASE_URL", "SENTRY_TOKEN"]);
    expect(code.written.servers.sentry).toEqual({
      url: "https://mcp.sentry.dev/mcp",
      transport: "streamable-http",
      auth: { type: "bearer", token: "${env:SENTRY_TOKEN}" },
    });
    expect(code.report.warnings).toContainEqual({
      file: fixture("claude-code/.mcp.json"),
      server: "notes",
      at: "mcpServers.notes.alwaysAllow",
      message: "not a Claude key mcpx knows; left out",
    });
  });

  it("config-import/cursor", async () => {
    const dir = await tempDir();
    const { written, report } = await importAndCheck("cursor/project/.cursor/mcp.json", dir);
    expect(written).toEqual(await expected("cursor/expected.mcpx.json"));
    // ${workspaceFolder} is the project holding .cursor/; envFile has no mcpx equivalent and is said so.
    expect(written.servers.docs?.args).toEqual([
      path.join(HOSTS, "cursor/project/scripts/docs-mcp.js"),
      "--root",
      path.join(HOSTS, "cursor/project"),
    ]);
    expect(report.warnings.map((w) => w.at)).toContain("mcpServers.docs.envFile");
    expect(written.servers["legacy-events"]).toMatchObject({ transport: "http+sse" });
  });

  it("config-import/vscode-servers-and-inputs", async () => {
    const dir = await tempDir();
    const { written, report } = await importAndCheck("vscode/project/.vscode/mcp.json", dir);
    expect(written).toEqual(await expected("vscode/expected.mcpx.json"));
    // Each input is read from a variable named after its id; a pickString's default is kept.
    expect(written.servers.github?.env).toEqual({
      GITHUB_PERSONAL_ACCESS_TOKEN: "${env:GITHUB_TOKEN}",
      GITHUB_REGION: "${env:REGION:-eu}",
    });
    expect(report.env).toEqual(["API_TOKEN", "GITHUB_TOKEN", "PATH"]);
    expect(report.warnings).toContainEqual(
      expect.objectContaining({
        at: "inputs[0]",
        message:
          'VS Code asks for "github-token" (GitHub Personal Access Token); mcpx reads it from ${env:GITHUB_TOKEN}: set GITHUB_TOKEN where mcpx runs',
      }),
    );
    // VS Code's "http" falls back to SSE, as mcpx's probe does: not pinned. "sse" is.
    expect(written.servers.internal).not.toHaveProperty("transport");
    expect(written.servers["old-sse"]).toMatchObject({ transport: "http+sse" });
    // User settings: the same under "mcp".
    const settings = await importAndCheck("vscode/User/settings.json", await tempDir());
    expect(settings.written).toEqual(await expected("vscode/expected-settings.mcpx.json"));
  });

  it("config-import/windsurf-server-url", async () => {
    const { written, report } = await importAndCheck("windsurf/mcp_config.json", await tempDir());
    expect(written).toEqual(await expected("windsurf/expected.mcpx.json"));
    expect(written.servers.tidewave).toEqual({ url: "http://localhost:4000/tidewave/mcp" });
    expect(written.servers.figma?.url).toBe("https://mcp.figma.com/mcp");
    expect(written.servers.github?.tools).toEqual({ exclude: ["create_repository", "push_files"] });
    expect(written.servers.puppeteer?.disabled).toBe(true);
    expect(report.env).toEqual(["FIGMA_TOKEN", "GITHUB_PERSONAL_ACCESS_TOKEN"]);
  });

  it("config-import/codex-toml", async () => {
    const { written, report, check } = await importAndCheck("codex/config.toml", await tempDir());
    expect(written).toEqual(await expected("codex/expected.mcpx.json"));
    expect(written.servers.context7?.timeouts).toEqual({ handshake: 20_000, request: 90_500 });
    expect(written.servers.github?.env).toMatchObject({
      GITHUB_PERSONAL_ACCESS_TOKEN: "${env:GITHUB_PERSONAL_ACCESS_TOKEN}",
    });
    expect(written.servers.figma?.auth).toEqual({ type: "bearer", token: "${env:FIGMA_OAUTH_TOKEN}" });
    expect(written.servers.catalog?.auth).toEqual({
      type: "header",
      headers: { "X-Client": "release-review", "X-Api-Key": "${env:CATALOG_API_KEY}" },
    });
    expect(written.servers.postgres?.disabled).toBe(true);
    for (const at of ["mcp_servers.catalog.required", 'mcp_servers["docs.search"].oauth']) {
      expect(report.warnings.map((w) => w.at)).toContain(at);
    }
    expect(check.servers.find((s) => s.name === "docs.search")).toMatchObject({ namespace: "docs-search" });
  });

  it("config-import/placeholders-become-env-references", async () => {
    for (const f of FIXTURES) {
      const dir = await tempDir();
      const { report } = await importAndCheck(f.file, dir);
      const text = await readFile(path.join(dir, "mcpx.json"), "utf8");
      // No host placeholder survives (${input:…}, ${VAR}, ${userHome}): only mcpx's ${env:…}.
      expect(text, f.file).not.toMatch(/\$\{(?!env:)/);
      // And they are references: without the variables, the config does not load, naming each.
      const withoutEnv = await run(["config", "check"], dir, { HOME: "" });
      if (report.env.filter((n) => n !== "HOME" && n !== "PATH").length === 0) continue;
      expect(withoutEnv.code, f.file).toBe(2);
      for (const name of report.env.filter((n) => n !== "HOME" && n !== "PATH")) {
        expect(withoutEnv.stderr, f.file).toContain(`environment variable ${name} is not set`);
      }
    }
    // The secret a VS Code input asked for is nowhere in the mcpx config: its variable is.
    const dir = await tempDir();
    await importAndCheck("vscode/project/.vscode/mcp.json", dir);
    const text = await readFile(path.join(dir, "mcpx.json"), "utf8");
    expect(text).toContain('"Authorization": "Bearer ${env:API_TOKEN}"');
    expect(text).not.toContain("input:");
  });

  it("config-import/literal-secrets-kept-with-a-warning", async () => {
    const cases = [
      {
        file: "windsurf/mcp_config.json",
        secret: "sk_live_apideck_4f9a2c71",
        at: "mcpServers.apideck.headers.x-apideck-api-key",
        suggest: "${env:APIDECK_X_APIDECK_API_KEY}",
      },
      {
        file: "claude-desktop/claude_desktop_config.json",
        secret: "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
        at: "mcpServers.github.env.GITHUB_PERSONAL_ACCESS_TOKEN",
        suggest: "${env:GITHUB_PERSONAL_ACCESS_TOKEN}",
      },
      {
        file: "cursor/project/.cursor/mcp.json",
        secret: "sk_test_51HqLyjWDarjtT1zdp7dc",
        at: "mcpServers.stripe.headers.Authorization",
        suggest: "Bearer ${env:STRIPE_TOKEN}",
      },
      {
        file: "codex/config.toml",
        secret: "s3cret-pw",
        at: "mcp_servers.postgres.env.DATABASE_URI",
        suggest: "${env:DATABASE_URI}",
      },
    ];
    for (const c of cases) {
      const dir = await tempDir();
      const r = await run(["config", "import", fixture(c.file)], dir);
      expect(r.code).toBe(0);
      // Kept, so the server still works…
      expect(await readFile(path.join(dir, "mcpx.json"), "utf8")).toContain(c.secret);
      // …and said so, with the reference to write instead, and without printing the secret.
      expect(r.stderr).toContain(
        `mcpx: warning: ${fixture(c.file)}: ${c.at}: a literal secret, kept as written in the mcpx config; write "${c.suggest}" instead`,
      );
      expect(r.stdout + r.stderr).not.toContain(c.secret);
      const check = await run(
        ["config", "check"],
        dir,
        envFor([
          "FIGMA_TOKEN",
          "GITHUB_PERSONAL_ACCESS_TOKEN",
          "BRAVE_API_KEY",
          "CONTEXT7_API_KEY",
          "CATALOG_API_KEY",
          "FIGMA_OAUTH_TOKEN",
        ]),
      );
      expect(check.code).toBe(0);
      expect(check.stdout + check.stderr).not.toContain(c.secret);
    }
    // A file written with a literal secret is its owner's alone.
    const dir = await tempDir();
    await run(["config", "import", fixture("windsurf/mcp_config.json")], dir);
    expect((await stat(path.join(dir, "mcpx.json"))).mode & 0o777).toBe(0o600);
  });

  it("config-import/invalid-names-made-valid", async () => {
    const claude = await importAndCheck("claude-desktop/claude_desktop_config.json", await tempDir());
    expect(claude.written.servers["Google Drive"]?.namespace).toBe("Google-Drive");
    const vscode = await importAndCheck("vscode/project/.vscode/mcp.json", await tempDir());
    expect(vscode.written.servers["my.tools__v2_"]?.namespace).toBe("my-tools_v2");
    expect(vscode.report.warnings).toContainEqual({
      file: fixture("vscode/project/.vscode/mcp.json"),
      server: "my.tools__v2_",
      at: 'servers["my.tools__v2_"]',
      message:
        '"my.tools__v2_" is not a valid mcpx namespace (letters, digits, _ and -, never "__", not ending in "_"); its namespace is "my-tools_v2"',
    });
    // Names that become the same namespace each get their own; a valid name is left alone.
    const dir = await tempDir();
    const host = path.join(dir, "claude_desktop_config.json");
    await writeFile(
      host,
      JSON.stringify({
        mcpServers: {
          "a-b": { command: "node", args: ["a.js"] },
          "a.b": { command: "node", args: ["b.js"] },
          "a b": { command: "node", args: ["c.js"] },
          __: { command: "node", args: ["d.js"] },
        },
      }),
    );
    const r = await run(["config", "import", host, "--json"], dir);
    expect(r.code).toBe(0);
    const written = JSON.parse(await readFile(path.join(dir, "mcpx.json"), "utf8"));
    expect(written.servers).toEqual({
      "a-b": { command: "node", args: ["a.js"] },
      "a.b": { command: "node", args: ["b.js"], namespace: "a-b-2" },
      "a b": { command: "node", args: ["c.js"], namespace: "a-b-3" },
      __: { command: "node", args: ["d.js"], namespace: "server" },
    });
    const check = await run(["config", "check", "--json"], dir);
    expect(check.code).toBe(0);
    expect(JSON.parse(check.stdout).servers.map((s: { namespace: string }) => s.namespace)).toEqual([
      "a-b",
      "a-b-2",
      "a-b-3",
      "server",
    ]);
  });

  it("config-import/merge-refuses-a-clash-without-force", async () => {
    const dir = await tempDir();
    const before = `{
    "listen": { "host": "127.0.0.1", "port": 7444 },
    "upstream": { "versionAttempts": 3 },
    "servers": {
        "github": { "command": "gh-mcp" },
        "local": { "command": "node", "args": ["local.js"] }
    },
    "roots": [{ "uri": "file:///tmp", "name": "tmp" }]
}
`;
    const file = path.join(dir, "mcpx.json");
    await writeFile(file, before);
    const refused = await run(["config", "import", fixture("windsurf/mcp_config.json")], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      'mcpx: mcpx.json has a server named "github" already (--force replaces it; or rename it in the host file, or import into another file with -o)\n',
    );
    expect(await readFile(file, "utf8")).toBe(before);

    const forced = await run(["config", "import", fixture("windsurf/mcp_config.json"), "--force"], dir);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain("imported 5 servers from");
    expect(forced.stdout).toContain("replacing github");
    const after = JSON.parse(await readFile(file, "utf8"));
    const windsurf = (await expected("windsurf/expected.mcpx.json")) as { servers: Record<string, unknown> };
    // The config's other keys and servers are as they were; github is the host's now.
    expect(after).toEqual({
      listen: { host: "127.0.0.1", port: 7444 },
      upstream: { versionAttempts: 3 },
      servers: { local: { command: "node", args: ["local.js"] }, ...windsurf.servers },
      roots: [{ uri: "file:///tmp", name: "tmp" }],
    });
    expect(Object.keys(after.servers)).toEqual([
      "github",
      "local",
      "tidewave",
      "figma",
      "apideck",
      "puppeteer",
    ]);
    // The file keeps its four-space indentation.
    expect(await readFile(file, "utf8")).toContain('\n        "tidewave": {\n            "url"');
    const check = await run(
      ["config", "check"],
      dir,
      envFor(["FIGMA_TOKEN", "GITHUB_PERSONAL_ACCESS_TOKEN"]),
    );
    expect(check.code).toBe(0);
  });

  it("config-import/dry-run-writes-nothing", async () => {
    const dir = await tempDir();
    const dry = await run(["config", "import", fixture("codex/config.toml"), "--dry-run"], dir);
    expect(dry.code).toBe(0);
    // stdout is the config alone; what it would do is on stderr.
    expect(JSON.parse(dry.stdout)).toEqual(await expected("codex/expected.mcpx.json"));
    expect(dry.stderr).toContain("mcpx.json: would import 6 servers from");
    expect(dry.stderr).toContain("nothing written (--dry-run)");
    await expect(stat(path.join(dir, "mcpx.json"))).rejects.toThrow(/ENOENT/);

    const existing = path.join(dir, "existing.json");
    const before = '{ "servers": { "local": { "command": "node" } } }\n';
    await writeFile(existing, before);
    const json = await run(
      ["config", "import", fixture("windsurf/mcp_config.json"), "-o", "existing.json", "--dry-run", "--json"],
      dir,
    );
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({
      ok: true,
      written: false,
      added: ["github", "tidewave", "figma", "apideck", "puppeteer"],
    });
    expect(Object.keys(report.result.servers)).toEqual([
      "local",
      "github",
      "tidewave",
      "figma",
      "apideck",
      "puppeteer",
    ]);
    expect(await readFile(existing, "utf8")).toBe(before);
  });
});

describe("mcpx config add and remove", () => {
  const start = `{
    "listen": { "port": 7555 },
    "servers": {
        "local": { "command": "node", "args": ["local.js"] }
    }
}
`;

  it("config/add-stdio-and-url-servers", async () => {
    const dir = await tempDir();
    const file = path.join(dir, "mcpx.json");
    await writeFile(file, start);
    const fs = await run(
      [
        "config",
        "add",
        "fs",
        "--stdio",
        "npx -y @modelcontextprotocol/server-filesystem '/my files'",
        "--env",
        "DEBUG=1",
        "--env",
        "GITHUB_TOKEN",
      ],
      dir,
    );
    expect(fs).toMatchObject({ code: 0, stderr: "" });
    expect(fs.stdout).toBe(
      "mcpx.json: added server fs\n  fs  command npx\nset before starting mcpx: GITHUB_TOKEN\n",
    );
    const api = await run(
      [
        "config",
        "add",
        "api",
        "--url",
        "https://api.example.com/mcp",
        "--bearer-env",
        "API_TOKEN",
        "-H",
        "X-Team=platform",
      ],
      dir,
    );
    expect(api.code).toBe(0);
    const key = await run(
      ["config", "add", "keyed", "--url", "https://k.example.com/mcp", "--header", "X-Api-Key=abc123secret"],
      dir,
    );
    expect(key.code).toBe(0);
    expect(key.stderr).toContain(
      'mcpx: warning: mcpx.json: servers.keyed.headers.X-Api-Key: a literal secret, kept as written in the mcpx config; write "${env:KEYED_X_API_KEY}" instead',
    );
    expect(key.stderr).not.toContain("abc123secret");
    const bearer = await run(
      ["config", "add", "sentry", "--url", "https://mcp.sentry.dev/mcp", "--bearer-env", "SENTRY_TOKEN"],
      dir,
    );
    expect(bearer.code).toBe(0);

    const text = await readFile(file, "utf8");
    // The lines it did not touch are as they were; the new ones use the file's indentation.
    expect(text.startsWith('{\n    "listen": { "port": 7555 },\n    "servers": {\n')).toBe(true);
    expect(JSON.parse(text).servers).toEqual({
      local: { command: "node", args: ["local.js"] },
      fs: {
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-filesystem", "/my files"],
        env: { DEBUG: "1", GITHUB_TOKEN: "${env:GITHUB_TOKEN}" },
      },
      api: {
        url: "https://api.example.com/mcp",
        auth: { type: "header", headers: { "X-Team": "platform", Authorization: "Bearer ${env:API_TOKEN}" } },
      },
      keyed: {
        url: "https://k.example.com/mcp",
        auth: { type: "header", headers: { "X-Api-Key": "abc123secret" } },
      },
      sentry: { url: "https://mcp.sentry.dev/mcp", auth: { type: "bearer", token: "${env:SENTRY_TOKEN}" } },
    });
    const check = await run(["config", "check"], dir, envFor(["GITHUB_TOKEN", "API_TOKEN", "SENTRY_TOKEN"]));
    expect(check.stderr).toBe("");
    expect(check.code).toBe(0);

    // A name it has is refused, unless --force; flags of the other kind of server are refused.
    const again = await run(["config", "add", "fs", "--stdio", "node other.js"], dir);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(
      'mcpx: mcpx.json has a server named "fs" already (--force replaces it; mcpx config remove fs removes it)\n',
    );
    const forced = await run(["config", "add", "fs", "--stdio", "node other.js", "--force"], dir);
    expect(forced).toMatchObject({ code: 0, stdout: "mcpx.json: replaced server fs\n  fs  command node\n" });
    expect(JSON.parse(await readFile(file, "utf8")).servers.fs).toEqual({
      command: "node",
      args: ["other.js"],
    });
    expect(
      (await run(["config", "add", "x", "--url", "https://x.example/mcp", "--env", "A=1"], dir)).code,
    ).toBe(2);
    expect((await run(["config", "add", "x", "--stdio", "node x.js", "--bearer-env", "T"], dir)).code).toBe(
      2,
    );
    expect((await run(["config", "add", "x"], dir)).code).toBe(2);
    const notHttp = await run(["config", "add", "x", "--url", "ftp://x.example/mcp"], dir);
    expect(notHttp.code).toBe(2);
    expect(notHttp.stderr).toContain("servers.x.url: mcpx reaches servers over http:// or https:// only");

    // Into a config that does not exist yet: a starter config with the server.
    const fresh = await tempDir();
    expect((await run(["config", "add", "ev", "--stdio", "node ev.js"], fresh)).code).toBe(0);
    expect(JSON.parse(await readFile(path.join(fresh, "mcpx.json"), "utf8"))).toEqual({
      listen: { host: "127.0.0.1", port: 7333 },
      servers: { ev: { command: "node", args: ["ev.js"] } },
    });
    expect((await run(["config", "check"], fresh)).code).toBe(0);
  });

  it("config/remove-a-server", async () => {
    const dir = await tempDir();
    const file = path.join(dir, "mcpx.json");
    const text = `{
    "listen": { "port": 7555 },
    "servers": {
        "local": { "command": "node", "args": ["local.js"] },
        "api": { "url": "https://api.example.com/mcp" }
    }
}
`;
    await writeFile(file, text);
    const r = await run(["config", "remove", "api"], dir);
    expect(r).toEqual({ code: 0, stdout: "mcpx.json: removed server api\n", stderr: "" });
    expect(await readFile(file, "utf8")).toBe(`{
    "listen": { "port": 7555 },
    "servers": {
        "local": { "command": "node", "args": ["local.js"] }
    }
}
`);
    expect((await run(["config", "check"], dir)).code).toBe(0);

    const missing = await run(["config", "remove", "nope"], dir);
    expect(missing).toEqual({
      code: 2,
      stdout: "",
      stderr: 'mcpx: mcpx.json has no server named "nope" (it has local)\n',
    });
    const dry = await run(["config", "rm", "local", "--dry-run"], dir);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout).servers).toEqual({});
    expect(JSON.parse(await readFile(file, "utf8")).servers).toHaveProperty("local");
  });
});

describe("mcpx config init", () => {
  /** A home with Cursor's and Codex's configs, and a project with VS Code's. */
  async function machine() {
    const home = await tempDir();
    const project = await tempDir();
    await mkdir(path.join(home, ".cursor"), { recursive: true });
    await copyFile(fixture("cursor/project/.cursor/mcp.json"), path.join(home, ".cursor", "mcp.json"));
    await mkdir(path.join(home, ".codex"), { recursive: true });
    await copyFile(fixture("codex/config.toml"), path.join(home, ".codex", "config.toml"));
    await mkdir(path.join(project, ".vscode"), { recursive: true });
    await copyFile(fixture("vscode/project/.vscode/mcp.json"), path.join(project, ".vscode", "mcp.json"));
    return { home, project };
  }

  it("config/init-writes-a-config-that-checks", async () => {
    const { home, project } = await machine();
    const env = { HOME: home };

    // Only the starter config.
    const plain = await run(["config", "init", "--no-import"], project, env);
    expect(plain.code).toBe(0);
    expect(JSON.parse(await readFile(path.join(project, "mcpx.json"), "utf8"))).toEqual({
      listen: { host: "127.0.0.1", port: 7333 },
      servers: {},
    });
    expect((await run(["config", "check"], project, env)).code).toBe(0);
    // It never overwrites a config without --force.
    const again = await run(["config", "init", "--no-import"], project, env);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("mcpx: mcpx.json exists already (--force overwrites it");

    // Nobody to ask and no --yes: nothing imported, what was found is listed.
    const quiet = await run(["config", "init", "-o", "quiet.json"], project, env);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toContain(
      "not imported (mcpx config import <file> imports one; mcpx config init --yes all of them):",
    );
    expect(quiet.stdout).toContain(
      "  ~/.cursor/mcp.json (Cursor): playwright, context7, docs, legacy-events, stripe",
    );
    expect(quiet.stdout).toContain(
      "  ~/.codex/config.toml (Codex): context7, github, postgres, figma, catalog, docs.search",
    );
    expect(quiet.stdout).toContain(
      `  ${path.join(project, ".vscode", "mcp.json")} (VS Code): github, internal, old-sse, my.tools__v2_`,
    );
    expect(JSON.parse(await readFile(path.join(project, "quiet.json"), "utf8")).servers).toEqual({});

    // --yes: every host's servers; a name a host before had already is left out, with a warning.
    const all = await run(["config", "init", "-o", "all.json", "--yes", "--json"], project, env);
    expect(all.code).toBe(0);
    const report = JSON.parse(all.stdout);
    expect(report.imported.map((i: { format: string }) => i.format)).toEqual(["cursor", "codex", "vscode"]);
    const servers = JSON.parse(await readFile(path.join(project, "all.json"), "utf8")).servers;
    expect(Object.keys(servers)).toEqual([
      "playwright",
      "context7",
      "docs",
      "legacy-events",
      "stripe",
      "github",
      "postgres",
      "figma",
      "catalog",
      "docs.search",
      "internal",
      "old-sse",
      "my.tools__v2_",
    ]);
    expect(report.warnings).toContainEqual(
      expect.objectContaining({
        server: "context7",
        message: "a server of this name was imported from another host already; left out",
      }),
    );
    const check = await run(["config", "check", "all.json"], project, { ...env, ...envFor(report.env) });
    expect(check.stderr).toBe("");
    expect(check.code).toBe(0);

    // At a terminal it asks, host by host.
    const input = new PassThrough();
    const output = new PassThrough();
    let asked = "";
    output.on("data", (d) => {
      asked += String(d);
    });
    input.end("y\nn\nY\n");
    const terminal = { input, output, status: undefined };
    const chosen = await run(["config", "init", "-o", "chosen.json"], project, env, { terminal });
    expect(chosen.code).toBe(0);
    expect(asked).toContain(
      "Import 5 servers (playwright, context7, docs, legacy-events, stripe) from ~/.cursor/mcp.json (Cursor)? [Y/n] ",
    );
    expect(asked).toContain("from ~/.codex/config.toml (Codex)? [Y/n] ");
    const picked = JSON.parse(await readFile(path.join(project, "chosen.json"), "utf8")).servers;
    expect(Object.keys(picked)).toEqual([
      "playwright",
      "context7",
      "docs",
      "legacy-events",
      "stripe",
      "github",
      "internal",
      "old-sse",
      "my.tools__v2_",
    ]);
  });
});
