/**
 * The built `mcpx` in a tmux pane, as a person runs it on a terminal: a tmux server on a socket of its
 * own (only that server is ended), one pane with a clean shell (prompt "$ ", history off, `mcpx` the
 * built CLI), keys typed with send-keys and the screen read back with capture-pane. Like
 * elicitation-broker-tmux.test.ts; the CLI must be built first (pnpm build, or
 * `npx -y pnpm@10.34.9 exec turbo run build --filter=mcpx...`).
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { afterThisTest, sleep } from "../src/index.js";

const repo = fileURLToPath(new URL("../../../", import.meta.url));
export const BIN = join(repo, "apps/cli/dist/bin.js");

export interface Pane {
  /** Types a line and Enter. */
  type(line: string): void;
  /** Sends keys as tmux names them ("Enter", "C-c") or literal text with `literal`. */
  keys(keys: string, literal?: boolean): void;
  /** The whole pane, history included, wrapped lines joined. */
  screen(): string;
  /** Waits until the screen matches, and returns it. */
  until(pattern: RegExp, ms?: number): Promise<string>;
  /** The exit code of the last command, read from the shell. */
  exitCode(): Promise<number>;
}

/** A pane running a shell in `dir` (where mcpx.json is), ended after the test. */
export async function tmuxPane(dir: string): Promise<Pane> {
  expect(existsSync(BIN), `${BIN} is missing: build first (pnpm build)`).toBe(true);
  const sockets = await mkdtemp(join(tmpdir(), "mcpx-tmux-"));
  const socket = join(sockets, "tmux.sock");
  const tmux = (...args: string[]) =>
    execFileSync("tmux", ["-S", socket, ...args], { encoding: "utf8", cwd: dir });
  await writeFile(
    join(dir, "rc"),
    `PS1="$ "\nunset HISTFILE\nmcpx() { "${process.execPath}" "${BIN}" "$@"; }\n`,
  );
  const shell = `bash --noprofile --rcfile ${join(dir, "rc")} -i`;
  tmux("-f", "/dev/null", "new-session", "-d", "-s", "tty", "-x", "160", "-y", "50", "-c", dir, shell);
  afterThisTest(async () => {
    try {
      tmux("send-keys", "-t", "tty:0.0", "C-c");
      await sleep(200);
      tmux("kill-server");
    } catch {
      // already gone
    }
    await rm(sockets, { recursive: true, force: true });
  });
  const target = "tty:0.0";
  const screen = () => tmux("capture-pane", "-p", "-J", "-S", "-", "-t", target);
  let exits = 0;
  const pane: Pane = {
    type: (line) => tmux("send-keys", "-t", target, "-l", line, ";", "send-keys", "-t", target, "Enter"),
    keys: (keys, literal = false) => tmux("send-keys", "-t", target, ...(literal ? ["-l"] : []), keys),
    screen,
    async until(pattern, ms = 15_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const text = screen();
        if (pattern.test(text)) return text;
        if (Date.now() > deadline) throw new Error(`the pane never showed ${pattern}:\n${text}`);
        await sleep(50);
      }
    },
    async exitCode() {
      const n = ++exits;
      pane.type(`echo "exit#${n}=$?"`);
      const text = await pane.until(new RegExp(`^exit#${n}=\\d+$`, "m"));
      return Number(new RegExp(`^exit#${n}=(\\d+)$`, "m").exec(text)?.[1]);
    },
  };
  await pane.until(/^\$ $/m);
  return pane;
}

/** Resolves when `release()` is called: a scripted tool waits on it, so the test sets the pace. */
export function gate(): { wait: Promise<void>; release: () => void } {
  let release = () => {};
  const wait = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { wait, release };
}
