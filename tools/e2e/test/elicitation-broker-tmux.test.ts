/**
 * `mcpx elicit` as a person uses it, in tmux: `mcpx serve` in one pane (in front of an upstream that
 * asks for a name when its tool is called), `mcpx elicit watch` in a second, the tool called through
 * the daemon from a third, then `mcpx elicit list` and `mcpx elicit answer <id> --field name=Ada`
 * typed (send-keys) in a fourth; the panes are read back (capture-pane). The built CLI
 * (apps/cli/dist) is what runs, as `pnpm test` builds it first. tmux runs on a socket of its own,
 * and only that server is ended. tools/e2e/scripts/elicit-demo.sh is the same, for a person.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { afterThisTest, configDir, freePort, sleep } from "../src/index.js";

const repo = fileURLToPath(new URL("../../../", import.meta.url));
const BIN = join(repo, "apps/cli/dist/bin.js");
const UPSTREAM = join(repo, "tools/e2e/scripts/ask-name-server.mjs");

function tmuxVersion(): string | undefined {
  try {
    return execFileSync("tmux", ["-V"], { encoding: "utf8" }).trim();
  } catch {
    return undefined;
  }
}

const version = tmuxVersion();
if (!version) {
  console.warn(
    "broker/tmux-demo: tmux is not installed, so this test is skipped (install it: apt-get install -y tmux)",
  );
}

describe("mcpx elicit in tmux", () => {
  it.skipIf(!version)("broker/tmux-demo", async () => {
    expect(existsSync(BIN), `${BIN} is missing: build first (pnpm build)`).toBe(true);
    const port = await freePort();
    const dir = await configDir({
      listen: { host: "127.0.0.1", port },
      servers: { demo: { command: process.execPath, args: [UPSTREAM] } },
      stateDir: ".state",
    });
    // A tmux server of this test's own, its socket in a directory of its own (removed after it).
    const sockets = await mkdtemp(join(tmpdir(), "mcpx-tmux-"));
    const socket = join(sockets, "tmux.sock");
    const tmux = (...args: string[]) =>
      execFileSync("tmux", ["-S", socket, ...args], { encoding: "utf8", cwd: dir });
    // A clean shell in every pane, prompt "$ ", history off, and `mcpx` the built CLI.
    await writeFile(
      join(dir, "rc"),
      `PS1="$ "\nunset HISTFILE\nmcpx() { "${process.execPath}" "${BIN}" "$@"; }\n`,
    );
    const shell = `bash --noprofile --rcfile ${join(dir, "rc")} -i`;
    tmux("-f", "/dev/null", "new-session", "-d", "-s", "demo", "-x", "200", "-y", "80", "-c", dir, shell);
    afterThisTest(async () => {
      try {
        for (const pane of ["0", "1", "2"]) tmux("send-keys", "-t", `demo:0.${pane}`, "C-c");
        await sleep(300);
        tmux("kill-server");
      } catch {
        // already gone
      }
      await rm(sockets, { recursive: true, force: true });
    });
    for (let i = 0; i < 3; i++) tmux("split-window", "-v", "-t", "demo:0", "-c", dir, shell);
    tmux("select-layout", "-t", "demo:0", "even-vertical");
    const type = (pane: number, line: string) =>
      tmux(
        "send-keys",
        "-t",
        `demo:0.${pane}`,
        "-l",
        line,
        ";",
        "send-keys",
        "-t",
        `demo:0.${pane}`,
        "Enter",
      );
    const screen = (pane: number) => tmux("capture-pane", "-p", "-J", "-S", "-", "-t", `demo:0.${pane}`);
    const until = async (pane: number, pattern: RegExp, ms = 15_000): Promise<string> => {
      const deadline = Date.now() + ms;
      for (;;) {
        const text = screen(pane);
        if (pattern.test(text)) return text;
        if (Date.now() > deadline) throw new Error(`pane ${pane} never showed ${pattern}:\n${text}`);
        await sleep(100);
      }
    };

    // pane 0: the daemon
    type(0, `mcpx serve`);
    await until(0, /mcpx listening at http:\/\/127\.0\.0\.1:\d+\/mcp/);
    // pane 1: a person watching
    type(1, `mcpx elicit watch`);
    await until(1, /watching for elicitations at/);
    // pane 2: the tool call, through the daemon (it waits for the answer)
    type(2, `mcpx call --daemon demo__ask_name`);
    const watched = await until(1, /What is your name\?/);
    expect(watched).toMatch(/ {2}[0-9a-f]{8} {2}form {2}from demo, during tools\/call, expires in/);

    // pane 3: list, then answer
    type(3, `mcpx elicit list`);
    const listed = await until(3, /answer: mcpx elicit answer/);
    expect(listed).toContain("1 pending elicitation (1 watcher attached):");
    expect(listed).toContain("What is your name?");
    expect(listed).toContain("    name      string, required         Name\n");
    expect(listed).toContain('    greeting  string, default "Hello"  Greeting\n');
    const id = /^ {2}([0-9a-f]{8}) {2}form {2}from demo/m.exec(listed)?.[1];
    expect(id).toBeDefined();
    type(3, `mcpx elicit answer ${id} --field name=Ada`);
    const answered = await until(3, new RegExp(`answered ${id}: accept`));
    expect(answered).toContain(`answered ${id}: accept {"name":"Ada","greeting":"Hello"}`);

    // the tool call finished with the answer; the watcher saw it settle
    await until(2, /^Hello, Ada!$/m);
    await until(1, new RegExp(`${id} {2}form {2}from demo: accept`));
    type(3, `mcpx elicit list`);
    await until(3, /No pending elicitations \(1 watcher attached\)\./);
  });
});
