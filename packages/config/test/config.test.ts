// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${env:NAME} is the config's own syntax
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ConfigError, DEFAULT_UPSTREAM_SETTINGS } from "@mcpx/core";
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configSchema, defaultStateDir, loadConfig, parseConfig } from "../src/index.js";

const everything = { command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"] };

/** The ConfigError a config fails with. */
function failure(input: string | object, env: Record<string, string> = {}): ConfigError {
  try {
    parseConfig(input, { path: "mcpx.json", env });
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error("expected the config to be refused");
}

describe("config", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "mcpx-config-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("config/errors-name-key-path-and-rule", () => {
    const err = failure({
      upstream: { versionAttempts: 0, timeouts: { request: "soon" } },
      servers: {
        fs: { command: 42, bogus: true },
        x: { args: ["a"] },
        both: { command: "a", url: "https://example.com/mcp" },
        web: { url: "ftp://example.com", namespace: "has space" },
      },
      log: { level: "loud" },
    });
    expect(err.problems).toEqual([
      "upstream.versionAttempts: must be >= 1",
      "upstream.timeouts.request: must be integer",
      "servers.fs.bogus: is not a known key",
      "servers.fs.command: must be string",
      'servers.x: must have exactly one of "command" or "url"',
      'servers.x.args: is only allowed with "command"',
      'servers.both: must have exactly one of "command" or "url"',
      "servers.web.url: must be an http:// or https:// URL",
      'servers.web.namespace: must contain only letters, digits, _ and - (and never "__", which separates a namespace from a name, nor end in "_")',
      'log.level: must be one of "debug", "info", "warn", "error", "silent"',
    ]);
    expect(err.message.startsWith("mcpx.json: 10 problems: upstream.versionAttempts: must be >= 1; ")).toBe(
      true,
    );
  });

  it("config/namespace-never-holds-the-separator", () => {
    // "__" separates a namespace from a name, so neither a namespace nor a key used as one may hold it
    const err = failure({ servers: { a__b: everything, c: { ...everything, namespace: "x__y" } } });
    expect(err.problems.some((p) => p.startsWith("servers.c.namespace: must contain only"))).toBe(true);
    expect(err.problems.some((p) => p.includes("a__b"))).toBe(true);
    expect(parseConfig({ servers: { a_b: everything } }, { env: {} }).servers.a_b?.namespace).toBe("a_b");
  });

  it("config/unknown-keys-refused-everywhere-but-env-auth-and-plugin-options", () => {
    const err = failure({
      colour: "blue",
      listen: { hots: "0.0.0.0" },
      servers: {
        a: {
          ...everything,
          env: { ANY_NAME: "x" },
          tools: { includes: ["*"] },
          timeouts: { requst: 1 },
        },
        b: { url: "https://example.com/mcp", auth: { type: "header", header: "X-Key", value: "v" } },
      },
      plugins: [["p", { whatever: { nested: true } }]],
      roots: [{ uri: "file:///tmp", label: "tmp" }],
    });
    expect(err.problems).toEqual([
      "colour: is not a known key",
      "listen.hots: is not a known key",
      "servers.a.tools.includes: is not a known key",
      "servers.a.timeouts.requst: is not a known key",
      "roots[0].label: is not a known key",
    ]);
  });

  it("config/message-starts-with-the-file", async () => {
    const file = path.join(dir, "bad.json");
    await writeFile(file, JSON.stringify({ servers: { fs: { command: 1 } } }));
    await expect(loadConfig(file, { env: {} })).rejects.toThrow(
      `${file}: servers.fs.command: must be string`,
    );
    const missing = path.join(dir, "missing.json");
    const err = await loadConfig(missing).catch((e) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toBe(`${missing}: cannot read the config file: no such file`);
  });

  it("config/json-syntax-error-has-line-and-column", () => {
    const text = '{\n  "servers": {\n    "fs": { "command": "x", }\n  }\n}\n';
    const err = failure(text);
    expect(err.message).toBe('mcpx.json: invalid JSON at line 3, column 29: trailing comma before "}"');
    expect(err.problems).toEqual(['invalid JSON at line 3, column 29: trailing comma before "}"']);
    expect(failure('{\n  "servers": {\n    "fs": { "command": "x" \n  }\n').message).toBe(
      'mcpx.json: invalid JSON at line 5, column 1: expected "," or "}" but found the end of the file',
    );
    expect(failure('{ "servers": { "fs": { command: "x" } } }').message).toBe(
      'mcpx.json: invalid JSON at line 1, column 24: expected a key in double quotes (or "}") but found "c"',
    );
    expect(failure("").message).toBe(
      "mcpx.json: invalid JSON at line 1, column 1: expected a value but found the end of the file",
    );
  });

  it("config/env-expanded-in-every-string", () => {
    const config = parseConfig(
      {
        servers: {
          api: {
            url: "https://${env:API_HOST}/mcp",
            auth: { type: "bearer", token: "${env:API_TOKEN}" },
          },
          fs: { command: "${env:NODE_BIN}", args: ["--root", "${env:ROOT}"], env: { KEY: "${env:ROOT}" } },
        },
        plugins: [["p", { greeting: "hi ${env:WHO}" }]],
      },
      {
        path: "mcpx.json",
        env: {
          API_HOST: "api.example.com",
          API_TOKEN: "tok-123",
          NODE_BIN: "node",
          ROOT: "/srv",
          WHO: "you",
        },
      },
    );
    expect(config.servers.api).toMatchObject({ kind: "url", url: "https://api.example.com/mcp" });
    expect(config.servers.api?.auth).toEqual({ type: "bearer", token: "tok-123" });
    expect(config.servers.fs).toMatchObject({
      command: "node",
      args: ["--root", "/srv"],
      env: { KEY: "/srv" },
    });
    expect(config.plugins).toEqual([{ spec: "p", options: { greeting: "hi you" } }]);
  });

  it("config/env-unset-names-variable-and-key", () => {
    const err = failure({
      servers: {
        api: { url: "${env:API_URL}", auth: { type: "bearer", token: "${env:API_TOKEN}" } },
        fs: { command: "x", args: ["${env:}"] },
      },
    });
    expect(err.problems).toEqual([
      "servers.api.url: environment variable API_URL is not set",
      "servers.api.auth.token: environment variable API_TOKEN is not set",
      "servers.fs.args[0]: ${env:} is not a valid reference (write ${env:NAME} or ${env:NAME:-default})",
    ]);
  });

  it("config/env-default-syntax", () => {
    const config = parseConfig(
      {
        servers: {
          a: { url: "${env:URL:-http://127.0.0.1:3000/mcp}" },
          b: { command: "x", args: ["${env:EMPTY:-fallback}", "${env:SET:-unused}", "${env:NONE:-}"] },
        },
      },
      { env: { EMPTY: "", SET: "set" } },
    );
    expect(config.servers.a).toMatchObject({ url: "http://127.0.0.1:3000/mcp" });
    expect(config.servers.b).toMatchObject({ args: ["fallback", "set", ""] });
  });

  it("config/secrets-tracked", () => {
    const config = parseConfig(
      {
        listen: { token: "downstream-token" },
        servers: {
          api: {
            url: "https://${env:HOST}/mcp",
            auth: { type: "header", header: "X-Api-Key", value: "literal-key" },
          },
          fs: { command: "x", env: { GITHUB_TOKEN: "ghp_literal" } },
        },
      },
      { env: { HOST: "api.example.com" } },
    );
    expect([...config.secrets].sort()).toEqual(
      ["X-Api-Key", "api.example.com", "downstream-token", "ghp_literal", "literal-key"].sort(),
    );
    expect(config.secrets).not.toContain("header");
  });

  it("config/store-options-expanded-and-their-strings-are-secrets", () => {
    const config = parseConfig(
      {
        servers: { everything },
        store: { type: "redis", url: "${env:REDIS_URL}", prefix: "team-a", connectTimeoutMs: 2000 },
      },
      { env: { REDIS_URL: "rediss://mcpx:p%40ss-word@redis.internal:6380/2" } },
    );
    expect(config.store).toEqual({
      type: "redis",
      url: "rediss://mcpx:p%40ss-word@redis.internal:6380/2",
      prefix: "team-a",
      connectTimeoutMs: 2000,
    });
    // The whole URL, and its password alone in both spellings; never the type.
    expect(config.secrets).toEqual(
      expect.arrayContaining(["rediss://mcpx:p%40ss-word@redis.internal:6380/2", "p%40ss-word", "p@ss-word"]),
    );
    expect(config.secrets).not.toContain("redis");
    expect(parseConfig({ servers: { everything } }).store).toBeUndefined();
  });

  it("config/store-needs-a-type", () => {
    expect(() => parseConfig({ servers: { everything }, store: { url: "redis://127.0.0.1" } })).toThrow(
      /store/,
    );
    expect(() => parseConfig({ servers: { everything }, store: "redis" })).toThrow(/store/);
  });

  it("config/servers-and-mcpServers-both-accepted", () => {
    const a = parseConfig({ servers: { everything } });
    const b = parseConfig({ mcpServers: { everything } });
    expect(b.servers).toEqual(a.servers);
    expect(a.servers.everything).toMatchObject({
      kind: "command",
      name: "everything",
      namespace: "everything",
    });
    expect("mcpServers" in b).toBe(false);
  });

  it("config/servers-and-mcpServers-at-once-refused", () => {
    expect(failure({ servers: { a: everything }, mcpServers: { b: everything } }).problems).toEqual([
      '(root): must have exactly one of "servers" or "mcpServers"',
    ]);
    expect(failure({ listen: {} }).problems).toEqual([
      '(root): must have exactly one of "servers" or "mcpServers"',
    ]);
  });

  it("config/errors-under-mcpServers-name-mcpServers", () => {
    expect(failure({ mcpServers: { a: { command: "x", env: { N: 1 } } } }).problems).toEqual([
      "mcpServers.a.env.N: must be string",
    ]);
  });

  it("config/defaults-applied", () => {
    const config = parseConfig({ servers: { everything } }, { path: "/etc/mcpx/mcpx.json" });
    expect(config.upstream).toEqual(DEFAULT_UPSTREAM_SETTINGS);
    expect(config.upstream.versionAttempts).toBe(2);
    expect(config.listen).toEqual({
      host: "127.0.0.1",
      port: 7333,
      path: "/mcp",
      maxBodyBytes: 4 * 1024 * 1024,
      headersTimeout: 5_000,
      requestTimeout: 30_000,
      maxConnections: 1000,
      sessions: { max: 1000, perClient: 100, idleTimeout: 1_800_000, handshakeTimeout: 10_000 },
    });
    expect(config.log).toEqual({ level: "info", json: false });
    expect(config.plugins).toEqual([]);
    expect(config.roots).toEqual([]);
    expect(config.configDir).toBe(path.resolve("/etc/mcpx"));
    expect(config.stateDir).toBe(defaultStateDir());
    expect(config.servers.everything).toEqual({
      name: "everything",
      kind: "command",
      command: "npx",
      args: everything.args,
      env: {},
      namespace: "everything",
      namespacing: true,
      disabled: false,
      tools: {},
      settings: DEFAULT_UPSTREAM_SETTINGS,
    });
  });

  it("config/listen-sessions-bounds", () => {
    const config = parseConfig({ servers: { everything }, listen: { port: 0, sessions: { max: 3 } } });
    // A key given keeps the others' defaults.
    expect(config.listen.sessions).toEqual({
      max: 3,
      perClient: 100,
      idleTimeout: 1_800_000,
      handshakeTimeout: 10_000,
    });
    expect(
      failure({
        servers: { everything },
        listen: { sessions: { max: 0, perClient: 1.5, handshakeTimeout: 0, idle: 5 } },
      }).problems,
    ).toEqual([
      "listen.sessions.idle: is not a known key",
      "listen.sessions.max: must be >= 1",
      "listen.sessions.perClient: must be integer",
      "listen.sessions.handshakeTimeout: must be >= 1",
    ]);
  });

  it("config/console-on-by-default-off-with-false", () => {
    expect(parseConfig({ servers: { everything } }).console).toBe(true);
    expect(parseConfig({ servers: { everything }, console: false }).console).toBe(false);
    expect(failure({ servers: { everything }, console: "no" }).problems).toEqual([
      "console: must be boolean",
    ]);
  });

  it("config/state-dir-xdg", () => {
    const at = { path: "/etc/mcpx/mcpx.json" };
    const stateDir = (file: object, env: Record<string, string>) =>
      parseConfig({ servers: {}, ...file }, { ...at, env }).stateDir;
    expect(stateDir({}, { XDG_STATE_HOME: "/var/state", HOME: "/home/ada" })).toBe(
      path.resolve("/var/state/mcpx"),
    );
    expect(stateDir({}, { HOME: "/home/ada" })).toBe(path.resolve("/home/ada/.local/state/mcpx"));
    expect(stateDir({}, { XDG_STATE_HOME: "", HOME: "/home/ada" })).toBe(
      path.resolve("/home/ada/.local/state/mcpx"),
    );
    expect(stateDir({}, { XDG_STATE_HOME: "relative", HOME: "/home/ada" })).toBe(
      path.resolve("/home/ada/.local/state/mcpx"),
    );
    expect(stateDir({ stateDir: "state" }, { XDG_STATE_HOME: "/var/state" })).toBe(
      path.resolve("/etc/mcpx/state"),
    );
    expect(stateDir({ stateDir: "/srv/mcpx" }, {})).toBe(path.resolve("/srv/mcpx"));
  });

  it("config/server-settings-merge-global-and-server-timeouts", () => {
    const config = parseConfig({
      upstream: { versionAttempts: 3, sseReconnectAttempts: 0, timeouts: { request: 5000, handshake: 1000 } },
      servers: { slow: { ...everything, timeouts: { request: 120_000, closeGrace: 10 } }, fast: everything },
    });
    expect(config.upstream).toEqual({
      ...DEFAULT_UPSTREAM_SETTINGS,
      versionAttempts: 3,
      sseReconnectAttempts: 0,
      requestTimeout: 5000,
      handshakeTimeout: 1000,
    });
    expect(config.servers.fast?.settings).toEqual(config.upstream);
    expect(config.servers.slow?.settings).toEqual({
      ...config.upstream,
      requestTimeout: 120_000,
      closeGrace: 10,
    });
  });

  it("config/timeouts-ready-global-and-per-server", () => {
    const config = parseConfig({
      upstream: { timeouts: { ready: 2000 } },
      servers: {
        slow: { ...everything, timeouts: { ready: 60_000 } },
        none: { ...everything, timeouts: { ready: 0 } },
        fast: everything,
      },
    });
    expect(DEFAULT_UPSTREAM_SETTINGS.ready).toBe(5000);
    expect(config.upstream.ready).toBe(2000);
    expect(config.servers.fast?.settings.ready).toBe(2000);
    expect(config.servers.slow?.settings.ready).toBe(60_000);
    // 0: nothing waits for it.
    expect(config.servers.none?.settings.ready).toBe(0);
    expect(() => parseConfig({ upstream: { timeouts: { ready: -1 } }, servers: {} })).toThrow(
      /upstream\.timeouts\.ready: must be >= 0/,
    );
  });

  it("config/host-format-type-key-mapped-to-transport", () => {
    const config = parseConfig({
      mcpServers: {
        a: { type: "stdio", ...everything },
        b: { type: "http", url: "https://example.com/mcp" },
        c: { type: "streamable-http", url: "https://example.com/mcp" },
        d: { type: "sse", url: "https://example.com/sse" },
        e: { transport: "http+sse", url: "https://example.com/sse" },
      },
    });
    expect(Object.values(config.servers).map((s) => s.transport)).toEqual([
      "stdio",
      "streamable-http",
      "streamable-http",
      "http+sse",
      "http+sse",
    ]);
    expect("type" in config.servers.a!).toBe(false);
    expect(
      failure({
        servers: {
          a: { type: "sse", transport: "streamable-http", url: "https://example.com/mcp" },
          b: { type: "websocket", url: "wss://example.com" },
          c: { type: "stdio", url: "https://example.com/mcp" },
          d: { type: "http", command: "node" },
        },
      }).problems,
    ).toEqual([
      "servers.b.url: must be an http:// or https:// URL",
      'servers.b.type: must be one of "stdio", "http", "streamable-http", "sse"',
      'servers.a.type: "sse" means transport "http+sse", but "transport" is "streamable-http"',
      'servers.c.type: "stdio" needs "command", not "url"',
      'servers.d.type: "http" needs "url", not "command"',
    ]);
    // A `transport` pin is checked against what its plugin reaches once plugins load (pins.test.ts).
  });

  it("config/pins-and-server-options", () => {
    const config = parseConfig(
      {
        servers: {
          old: {
            url: "https://example.com/mcp",
            revision: "2025-06-18",
            namespace: "legacy",
            tools: { include: ["read_*"], exclude: ["read_secret"] },
          },
          local: {
            command: "node",
            args: ["server.js"],
            cwd: "servers/local",
            disabled: true,
            namespacing: false,
          },
        },
      },
      { path: "/home/me/mcpx.json" },
    );
    expect(config.servers.old).toMatchObject({
      revision: "2025-06-18",
      namespace: "legacy",
      tools: { include: ["read_*"], exclude: ["read_secret"] },
    });
    expect(config.servers.local).toMatchObject({
      cwd: path.resolve("/home/me/servers/local"),
      disabled: true,
      namespacing: false,
    });
    // Any date and any transport name load as written; whether a plugin provides them is checked
    // once plugins load (pins.test.ts). What cannot be a date or a name is refused here.
    const pinned = parseConfig({
      servers: { a: { ...everything, revision: "2099-01-01", transport: "ws" } },
    });
    expect(pinned.servers.a).toMatchObject({ revision: "2099-01-01", transport: "ws" });
    expect(
      failure({ servers: { a: { ...everything, revision: "2025-6-18", transport: "web socket" } } }).problems,
    ).toEqual([
      "servers.a.revision: must be a revision's date, YYYY-MM-DD",
      "servers.a.transport: must be a transport's name (letters, digits, +, ., _ and -)",
    ]);
  });

  it("config/namespaces-valid-and-unique", () => {
    expect(
      failure({
        servers: {
          "my server": everything,
          fs: everything,
          files: { ...everything, namespace: "fs" },
          off: { ...everything, namespace: "fs", disabled: true },
        },
      }).problems,
    ).toEqual([
      'servers["my server"]: the name is not a valid namespace (letters, digits, _ and -, not ending in _); rename it or set "namespace"',
      'servers.files.namespace: namespace "fs" is already used by servers.fs',
    ]);
  });

  it("config/plugins-listed-with-options", () => {
    const config = parseConfig({
      servers: { everything },
      plugins: ["a", ["./b.js"], ["@scope/c", { x: 1 }]],
    });
    expect(config.plugins).toEqual([
      { spec: "a" },
      { spec: "./b.js" },
      { spec: "@scope/c", options: { x: 1 } },
    ]);
    expect(
      failure({ servers: { everything }, plugins: [7, ["a", "b"], ["a", {}, {}], ""] }).problems,
    ).toEqual([
      "plugins[0]: must be string or array",
      "plugins[1][1]: must be object",
      "plugins[2]: must NOT have more than 2 items",
      "plugins[3]: must NOT have fewer than 1 characters",
    ]);
  });

  it("config/schema-file-matches-schema", async () => {
    const file = new URL("../schemas/mcpx.schema.json", import.meta.url);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual(configSchema);
    // It is a valid draft-07 schema that an editor's validator can compile.
    expect(() => new Ajv({ strict: false }).compile(configSchema)).not.toThrow();
  });
});
