/**
 * The built `mcpx` (apps/cli/dist, which `pnpm test` builds first) as a child process, as a shell
 * runs it: its exit codes, a server with no config, shell completion, its output piped or on a
 * pseudo-terminal (util-linux `script`), and listings of two upstreams that share names.
 */
import { execFileSync } from "node:child_process";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { JSONObject } from "@mcpx/core";
import { httpScript, ScriptedServer } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { afterThisTest, configDir, EVERYTHING, freePort } from "../src/index.js";
import { BIN, built, ESCAPE, scriptedUpstream, spawned } from "./cli.helpers.js";

function installed(command: string): boolean {
  try {
    execFileSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** A shell word for a path (single-quoted). */
const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

// Each run starts node and the upstreams anew: seconds, not milliseconds.
describe("the built mcpx", { timeout: 120_000 }, () => {
  it("cli/exit-codes", async () => {
    const dir = await configDir({
      // A port nothing listens on: no daemon answers there.
      listen: { port: await freePort() },
      servers: { fs: (await scriptedUpstream()).entry, dead: { command: "/nonexistent/mcp-server" } },
    });
    // 0: ok.
    const ok = await built(dir, ["call", "fs__read_file", "path=a.txt"]);
    expect(ok).toMatchObject({ code: 0, stdout: '{"path":"a.txt"}\n', stderr: "" });
    // 1: the call failed — a result with isError, or the upstream's JSON-RPC error.
    expect((await built(dir, ["call", "fs__fail"])).code).toBe(1);
    const broken = await built(dir, ["call", "fs__broken"]);
    expect(broken).toMatchObject({ code: 1, stderr: "mcpx: the disk is on fire (JSON-RPC -32603)\n" });
    // 2: usage (an unknown command, tool or option; an argument of the wrong type) or config.
    for (const args of [
      ["tool", "list"],
      ["call", "fs__raed_file"],
      ["call", "fs__typed", "i=x"],
      ["tools", "list", "--bogus"],
      ["tools", "list", "-c", "missing.json"],
    ]) {
      expect((await built(dir, args)).code, args.join(" ")).toBe(2);
    }
    // 3: unreachable — the tool's upstream failed to connect; a listing with one down; no daemon.
    const dead = await built(dir, ["call", "dead__anything"]);
    expect(dead.code).toBe(3);
    expect(dead.stderr).toMatch(
      /^mcpx: cannot reach the upstream of tool dead__anything: dead is not connected: /,
    );
    const listing = await built(dir, ["tools", "list"]);
    expect(listing.code).toBe(3);
    expect(listing.stdout).toMatch(/^fs: 2025-11-25 over stdio, 7 tools$/m);
    expect(listing.stderr).toBe("mcpx: dead is not connected\n");
    const noDaemon = await built(dir, ["status"]);
    expect(noDaemon.code).toBe(3);
    expect(noDaemon.stderr).toMatch(
      /^mcpx: no daemon answers at http:\/\/127\.0\.0\.1:\d+\/\.mcpx\/ \(start one with `mcpx serve`\)\n$/,
    );
    // And --help says so.
    const help = await built(dir, ["--help"]);
    expect(help.stdout).toContain(
      [
        "Exit codes:",
        "  0  ok",
        "  1  the call failed: the upstream answered an error, or a result with isError",
        "  2  usage or config: a bad command line, an unknown tool or server, a missing or invalid config",
        "  3  unreachable: an upstream failed to connect or is not connected, or no daemon answers",
      ].join("\n"),
    );
  });

  it("cli/ad-hoc-stdio-server-without-config", async () => {
    // A directory with no config at all.
    const dir = await configDir({ servers: {} });
    const empty = join(dir, "empty");
    execFileSync("mkdir", [empty]);
    const stdio = `${quote(process.execPath)} ${quote(EVERYTHING)} stdio`;
    const listed = await built(empty, ["tools", "list", "--stdio", stdio]);
    expect(listed.stderr).toBe("");
    expect(listed.code).toBe(0);
    // Named after what it runs: …/server-everything/dist/index.js.
    expect(listed.stdout).toMatch(/^server-everything: 2025-11-25 over stdio, \d+ tools$/m);
    const called = await built(empty, [
      "call",
      "ev__echo",
      "message=hi there",
      "--stdio",
      stdio,
      "--name",
      "ev",
    ]);
    expect(called).toMatchObject({ code: 0, stdout: "Echo: hi there\n" });
    const shown = await built(empty, ["tools", "show", "ev__get-sum", "--stdio", stdio, "--name", "ev"]);
    expect(shown.stdout.split("\n")[0]).toBe("ev__get-sum(a: number, b: number) -> text");
    const prompts = await built(empty, ["prompts", "list", "--stdio", stdio, "--name", "ev", "--json"]);
    expect((JSON.parse(prompts.stdout) as { prompts: { name: string }[] }).prompts.length).toBeGreaterThan(0);
    const resources = await built(empty, ["resources", "list", "--stdio", stdio, "--name", "ev"]);
    expect(resources.stdout).toMatch(/^mcpx:\/\/ev\//);
    // Nothing left behind: no config written, no era record kept.
    expect(await readdir(empty)).toEqual([]);
    // What a shell would do and mcpx cannot is refused, saying so.
    const piped = await built(empty, ["tools", "list", "--stdio", `${stdio} | tee log`]);
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('--stdio: "|" (a shell operator)');

    // --url, with headers: sent to the server, and never printed.
    const server = new ScriptedServer({
      versions: ["2025-11-25"],
      tools: [{ name: "ping", inputSchema: { type: "object" } }],
    });
    const http = await httpScript(server);
    afterThisTest(() => http.close());
    const viaUrl = await built(empty, [
      "tools",
      "list",
      "--url",
      http.url,
      "--header",
      "X-Api-Key=k-123",
      "--json",
    ]);
    expect(viaUrl.code).toBe(0);
    const servers = (JSON.parse(viaUrl.stdout) as { servers: JSONObject[] }).servers;
    expect(servers.map((s) => s.server)).toEqual(["127-0-0-1-" + new URL(http.url).port]);
    expect(
      http.requests.filter((r) => r.httpMethod === "POST").every((r) => r.headers["x-api-key"] === "k-123"),
    ).toBe(true);
    expect(viaUrl.stdout).not.toContain("k-123");
    expect(server.failures).toEqual([]);
  });

  it("cli/completion-scripts-for-bash-zsh-fish", async () => {
    const dir = await configDir({
      // No daemon there: tool names come from the upstreams themselves.
      listen: { port: await freePort() },
      servers: { fs: (await scriptedUpstream()).entry, web: { url: "http://127.0.0.1:9/mcp" } },
    });
    const mcpx = `${quote(process.execPath)} ${quote(BIN)}`;
    // bash: sourced, `complete -p` shows it registered, and the function completes commands, a
    // subcommand, an option's servers and flags, and the config's tool names (one shell, each
    // line typed so far in turn; the candidates of each after a "--").
    const typed = [
      "mcpx too",
      "mcpx too ''",
      "mcpx tools ''",
      "mcpx tools list -s ''",
      "mcpx call fs__re",
      "mcpx tools list --fi",
    ];
    const bash = await spawned(
      "bash",
      [
        "--norc",
        "--noprofile",
        "-c",
        `mcpx() { ${mcpx} "$@"; }
source <(mcpx completion bash)
complete -p mcpx
for line in ${typed.map((t) => quote(t)).join(" ")}; do
  eval "COMP_WORDS=($line)"; COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 ))
  _mcpx_complete
  echo --; printf '%s\\n' "\${COMPREPLY[@]}"
done`,
      ],
      dir,
    );
    const [registered, ...answers] = bash.stdout.trimEnd().split("\n--\n");
    expect(registered).toBe("complete -o filenames -F _mcpx_complete mcpx");
    expect(answers.map((a) => a.split("\n"))).toEqual([
      ["tools"],
      // After a word that is no command nothing fits, and bash falls back to file names.
      ["mcpx.json"],
      ["list", "show"],
      ["fs", "web"],
      ["fs__read_file"],
      ["--filter"],
    ]);

    const zsh = await built(dir, ["completion", "zsh"]);
    expect(zsh.stdout.split("\n")[0]).toBe("#compdef mcpx");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: zsh's own parameter expansion
    expect(zsh.stdout).toContain('mcpx __complete -- "${(@)words[2,CURRENT]}"');
    if (installed("zsh")) {
      const loaded = await spawned(
        "zsh",
        [
          "-f",
          "-c",
          `mcpx() { ${mcpx} "$@"; }; autoload -Uz compinit; compinit -u -D; source <(mcpx completion zsh); print -r -- $_comps[mcpx]`,
        ],
        dir,
      );
      expect(loaded.stdout).toBe("_mcpx\n");
    }
    const fish = await built(dir, ["completion", "fish"]);
    expect(fish.stdout).toContain("complete -c mcpx -f -a '(__mcpx_complete)'");
    if (installed("fish")) {
      const done = await spawned(
        "fish",
        [
          "--no-config",
          "-c",
          `function mcpx; ${mcpx} $argv; end; mcpx completion fish | source; complete -C 'mcpx tools l'; complete -C 'mcpx call fs__wr'`,
        ],
        dir,
      );
      expect(done.stdout).toBe("list\nfs__write_file\n");
    }
    // An unknown shell is a usage error naming the choices.
    const bad = await built(dir, ["completion", "tcsh"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("bash, zsh, fish");
  });

  it("cli/no-colour-when-piped-or-NO_COLOR", async () => {
    const dir = await configDir({ servers: { fs: (await scriptedUpstream()).entry } });
    const env = { TERM: "xterm-256color" };
    // Piped: plain, whatever the terminal type says.
    const piped = await built(dir, ["tools", "list"], env);
    expect(piped.code).toBe(0);
    expect(piped.stdout).not.toMatch(ESCAPE);
    expect(piped.stdout).toContain("  fs__read_file  Read a file from disk.\n");
    if (!installed("script")) throw new Error("util-linux `script` is needed for a pseudo-terminal");
    // On a pseudo-terminal: colour, unless NO_COLOR says no, and never in --json.
    const tty = (args: string, extra: Record<string, string> = {}) =>
      spawned(
        "script",
        ["-q", "-e", "-c", `${quote(process.execPath)} ${quote(BIN)} ${args}`, "/dev/null"],
        dir,
        {
          ...env,
          ...extra,
        },
      );
    expect((await tty("tools list")).stdout).toMatch(ESCAPE);
    const noColour = await tty("tools list", { NO_COLOR: "1" });
    expect(noColour.code).toBe(0);
    expect(noColour.stdout).not.toMatch(ESCAPE);
    expect(noColour.stdout).toContain("fs__read_file");
    const json = await tty("tools list --json");
    expect(json.stdout).not.toMatch(ESCAPE);
    expect(JSON.parse(json.stdout)).toMatchObject({ servers: [{ server: "fs" }] });
    // FORCE_COLOR colours even a pipe; NO_COLOR wins over it.
    expect((await built(dir, ["tools", "list"], { FORCE_COLOR: "1" })).stdout).toMatch(ESCAPE);
    expect((await built(dir, ["tools", "list"], { FORCE_COLOR: "1", NO_COLOR: "1" })).stdout).not.toMatch(
      ESCAPE,
    );
  });

  it("cli/resources-list-keeps-same-named-resources-of-two-upstreams", async () => {
    const resources = [
      { uri: "file:///notes.txt", name: "notes", description: "Notes" },
      { uri: "file:///todo.txt", name: "todo" },
    ];
    const a = await scriptedUpstream({ resources });
    const b = await scriptedUpstream({ resources });
    const dir = await configDir({ servers: { a: a.entry, b: b.entry } });
    const listed = await built(dir, ["resources", "list"]);
    expect(listed.stderr).toBe("");
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe(
      [
        "mcpx://a/file:///notes.txt  Notes",
        "mcpx://a/file:///todo.txt",
        "mcpx://b/file:///notes.txt  Notes",
        "mcpx://b/file:///todo.txt",
        "",
      ].join("\n"),
    );
    const json = JSON.parse((await built(dir, ["resources", "list", "--json"])).stdout) as {
      resources: { uri: string; name: string }[];
    };
    expect(json.resources.filter((r) => r.name === "notes").map((r) => r.uri)).toEqual([
      "mcpx://a/file:///notes.txt",
      "mcpx://b/file:///notes.txt",
    ]);
    // Each is read from its own upstream.
    const read = await built(dir, ["resources", "read", "mcpx://b/file:///notes.txt"]);
    expect(read).toMatchObject({ code: 0, stdout: "contents of file:///notes.txt\n" });
    const reads = (s: ScriptedServer) => s.received.filter((r) => r.frame.method === "resources/read").length;
    expect([reads(a.server), reads(b.server)]).toEqual([0, 1]);
  });
});
