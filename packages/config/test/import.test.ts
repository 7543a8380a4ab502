// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${env:NAME} is the config's own syntax
/**
 * @mcpx/config's import and edit functions on their own. The conversions of the real host fixtures
 * (and `mcpx config check` on them) are tested through the CLI: apps/cli/test/config-import.test.ts.
 */
import { ConfigError } from "@mcpx/core";
import { describe, expect, it } from "vitest";
import {
  formatFromPath,
  formatFromShape,
  importHostConfig,
  mergeServers,
  parseConfig,
  removeServer,
  toNamespace,
} from "../src/index.js";

describe("config import", () => {
  it("config-import/format-told-by-path-then-shape", () => {
    expect(formatFromPath("/Users/ada/Library/Application Support/Claude/claude_desktop_config.json")).toBe(
      "claude-desktop",
    );
    expect(formatFromPath("/work/app/.mcp.json")).toBe("claude-desktop");
    expect(formatFromPath("/home/ada/.cursor/mcp.json")).toBe("cursor");
    expect(formatFromPath("/work/app/.vscode/mcp.json")).toBe("vscode");
    expect(formatFromPath("/home/ada/.config/Code/User/settings.json")).toBe("vscode");
    expect(formatFromPath("/home/ada/.codeium/windsurf/mcp_config.json")).toBe("windsurf");
    expect(formatFromPath("/home/ada/.codex/config.toml")).toBe("codex");
    expect(formatFromPath("/tmp/servers.json")).toBeUndefined();
    expect(formatFromShape({ mcp_servers: {} })).toBe("codex");
    expect(formatFromShape({ servers: {}, inputs: [] })).toBe("vscode");
    expect(formatFromShape({ mcp: { servers: {} } })).toBe("vscode");
    expect(formatFromShape({ mcpServers: { a: { serverUrl: "https://a" } } })).toBe("windsurf");
    expect(formatFromShape({ mcpServers: { a: { command: "x" } } })).toBe("claude-desktop");
    expect(formatFromShape({ other: 1 })).toBeUndefined();
    // A file of no telling name is read by its shape, TOML included.
    const toml = importHostConfig('[mcp_servers.a]\ncommand = "node"\n', { path: "/tmp/hosts.txt" });
    expect(toml).toMatchObject({ format: "codex", servers: { a: { command: "node" } } });
  });

  it("config-import/unreadable-host-files-name-line-and-column", () => {
    const problems = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as ConfigError).problems;
      }
      throw new Error("did not throw");
    };
    expect(
      problems(() =>
        importHostConfig('{\n  "mcpServers": {\n    "a": { "command": }\n  }\n}', {
          path: "/x/.cursor/mcp.json",
        }),
      ),
    ).toEqual(["invalid JSON at line 3, column 23: value expected"]);
    expect(
      problems(() => importHostConfig('[mcp_servers.a]\ncommand = "node\n', { path: "/x/config.toml" })),
    ).toEqual([expect.stringMatching(/^invalid TOML at line 2, column \d+: /)]);
    expect(
      problems(() => importHostConfig('{ "servers": {} }', { path: "/x/claude_desktop_config.json" })),
    ).toEqual(['has no "mcpServers", where a Claude Desktop config keeps its MCP servers']);
    expect(problems(() => importHostConfig('{ "editor.fontSize": 14 }'))).toEqual([
      'not an MCP host config: it has no "mcpServers" (Claude Desktop, Cursor, Windsurf), "servers" (VS Code) or [mcp_servers] (Codex)',
    ]);
  });

  it("config-import/nothing-dropped-silently", () => {
    const r = importHostConfig(
      JSON.stringify({
        servers: {
          sock: { type: "http", url: "unix:///tmp/mcp.sock" },
          ws: { type: "websocket", url: "https://ws.example/mcp", autoStart: true },
          none: { type: "stdio" },
          both: { command: "node", url: "https://both.example/mcp", headers: { "X-A": "1" } },
        },
      }),
      { path: "/x/.vscode/mcp.json" },
    );
    expect(r.servers).toEqual({ ws: { url: "https://ws.example/mcp" }, both: { command: "node" } });
    expect(r.skipped).toEqual(["sock", "none"]);
    expect(r.warnings.map((w) => `${w.at}: ${w.message}`)).toEqual([
      "servers.sock.url: mcpx reaches servers over http:// or https:// only; this server is not imported",
      'servers.ws.type: "websocket" is not a VS Code server type mcpx knows (stdio, http, sse); the transport is left to the probe',
      "servers.ws.autoStart: not a VS Code key mcpx knows; left out",
      'servers.none: has neither "command" nor "url"; not imported',
      'servers.both.url: a server has "command" or "url", not both; the url is left out',
      "servers.both.headers: a command server has no HTTP headers; left out (give it credentials in env)",
    ]);
  });

  it("config-import/which-literals-count-as-secrets", () => {
    const r = importHostConfig(
      JSON.stringify({
        mcpServers: {
          s: {
            command: "node",
            env: {
              API_KEY: "abc",
              DATABASE_URL: "postgres://app:pw@db/app",
              SLACK: "xoxb-123-456",
              AUTH_ENABLED: "true",
              GDRIVE_CREDENTIALS_PATH: "/home/ada/creds.json",
              TOKEN_URL: "https://auth.example/token",
              LOG_LEVEL: "debug",
              REF: "${env:API_KEY}",
            },
          },
        },
      }),
    );
    expect(r.warnings.map((w) => w.at)).toEqual([
      "mcpServers.s.env.API_KEY",
      "mcpServers.s.env.DATABASE_URL",
      "mcpServers.s.env.SLACK",
    ]);
    for (const w of r.warnings) expect(w.message).not.toMatch(/abc|pw@|xoxb/);
  });

  it("config-import/namespace-made-valid", () => {
    expect(toNamespace("Google Drive")).toBe("Google-Drive");
    expect(toNamespace("my.tools__v2_")).toBe("my-tools_v2");
    expect(toNamespace("__")).toBe("server");
    expect(toNamespace("café")).toBe("cafe");
  });
});

describe("config edit", () => {
  it("config-edit/untouched-lines-keep-their-layout", () => {
    const text =
      '{\r\n\t"listen": { "port": 7555 },\r\n\t"servers": {\r\n\t\t"a": { "command": "a" }\r\n\t}\r\n}\r\n';
    const added = mergeServers(text, { b: { command: "b", args: ["x"] } });
    expect(added.text).toBe(
      '{\r\n\t"listen": { "port": 7555 },\r\n\t"servers": {\r\n\t\t"a": { "command": "a" },\r\n\t\t"b": {\r\n\t\t\t"command": "b",\r\n\t\t\t"args": [\r\n\t\t\t\t"x"\r\n\t\t\t]\r\n\t\t}\r\n\t}\r\n}\r\n',
    );
    expect(removeServer(added.text, "b").text).toBe(text);
    // A config keeping its servers under mcpServers keeps doing so; one with none gets "servers".
    const hostStyle = mergeServers('{\n  "mcpServers": {}\n}\n', { a: { command: "a" } }).text;
    expect(hostStyle).toBe('{\n  "mcpServers": {\n    "a": {\n      "command": "a"\n    }\n  }\n}\n');
    const none = mergeServers('{\n  "listen": { "port": 1 }\n}\n', { a: { command: "a" } }).text;
    expect(none).toBe(
      '{\n  "listen": { "port": 1 },\n  "servers": {\n    "a": {\n      "command": "a"\n    }\n  }\n}\n',
    );
    expect(parseConfig(none, { env: {} }).servers.a).toMatchObject({ kind: "command", command: "a" });
  });

  it("config-edit/an-edit-the-schema-refuses-is-refused", () => {
    // The config's own older problems are not the edit's.
    const old = '{ "servers": { "x": { "command": "x", "bogus": 1 } } }';
    expect(mergeServers(old, { a: { command: "a" } }).added).toEqual(["a"]);
    expect(() => mergeServers(old, { b: { url: "ftp://b" } })).toThrow(
      expect.objectContaining({ problems: ["servers.b.url: must be an http:// or https:// URL"] }),
    );
    expect(() => mergeServers(old, { x: { command: "y" } })).toThrow(
      expect.objectContaining({
        problems: ["servers.x: the config has a server of this name already (force replaces it)"],
      }),
    );
    // Its namespace taken: the newcomer gets its own.
    const taken = mergeServers('{ "servers": { "gh": { "command": "a", "namespace": "github" } } }', {
      github: { command: "b" },
    });
    expect(JSON.parse(taken.text).servers.github).toEqual({ command: "b", namespace: "github-2" });
    expect(taken.warnings).toEqual([
      {
        server: "github",
        at: "servers.github",
        message: 'namespace "github" is already used by another server; this one gets "github-2"',
      },
    ]);
    expect(() => removeServer(old, "nope")).toThrow(
      expect.objectContaining({
        problems: ['servers.nope: the config has no server of this name (it has "x")'],
      }),
    );
  });
});
