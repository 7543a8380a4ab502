/**
 * The BUILT `mcpx` (apps/cli/dist/bin.js) as a child process, the way MCP hosts run it, and the
 * processes it leaves: each test's upstreams carry a marker argument of the test's own, found by
 * scanning /proc. Anything still alive with a marker when the test ends is killed (by its pid), so a
 * failing test leaves nothing either.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { afterThisTest } from "./harness.js";
import { until } from "./wait.js";

const repo = fileURLToPath(new URL("../../../", import.meta.url));
export const BUILT_MCPX = join(repo, "apps/cli/dist/bin.js");
/** A stdio server that answers nothing for a while (tools/e2e/fixtures/slow-stdio-server.mjs). */
export const SLOW_SERVER = join(repo, "tools/e2e/fixtures/slow-stdio-server.mjs");

/** A marker for this test's upstreams; what carries it is killed when the test ends. */
export function processMarker(): string {
  const marker = `mcpx-test-marker-${randomUUID()}`;
  afterThisTest(async () => {
    for (const p of processesWith(marker)) {
      try {
        process.kill(p.pid, "SIGKILL");
      } catch {
        // gone meanwhile
      }
    }
  });
  return marker;
}

export interface MarkedProcess {
  pid: number;
  argv: string[];
}

/** Live processes (zombies left out) whose command line holds `marker`. */
export function processesWith(marker: string): MarkedProcess[] {
  const out: MarkedProcess[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (!cmdline.includes(marker)) continue;
      // "pid (comm) S …": the state follows the last ")".
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) === "Z") continue;
      out.push({ pid: Number(entry), argv: cmdline.split("\0").filter(Boolean) });
    } catch {
      // ended while being read
    }
  }
  return out;
}

/** The slow server's process itself (its marker a whole argument, not inside a shell's -c string). */
export function serverProcesses(marker: string): MarkedProcess[] {
  return processesWith(marker).filter((p) => p.argv.includes(marker));
}

export interface SlowServerOptions {
  /** How long it answers nothing, in ms. */
  delayMs: number;
  tool: string;
  marker: string;
  /** Keep running when stdin ends (only a signal ends it). */
  stay?: boolean;
  /** Exit at once with this code. */
  exitCode?: number;
  /** Run through `sh -c`: `exec` replaces the shell; `child` leaves it as the server's parent. */
  wrapper?: "exec" | "child";
}

/** A config entry for the slow server. */
export function slowServer(o: SlowServerOptions): { command: string; args: string[] } {
  const args = [
    SLOW_SERVER,
    String(o.delayMs),
    o.tool,
    ...(o.stay ? ["--stay"] : []),
    ...(o.exitCode === undefined ? [] : [`--exit=${o.exitCode}`]),
    o.marker,
  ];
  if (!o.wrapper) return { command: process.execPath, args };
  const line = [process.execPath, ...args].map((a) => `'${a}'`).join(" ");
  // `; true`: the shell waits for the server, which stays its child (a grandchild of mcpx).
  return { command: "sh", args: ["-c", o.wrapper === "exec" ? `exec ${line}` : `${line}; true`] };
}

export interface BuiltMcpx {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) once it has exited. */
  exited: Promise<number | string>;
  /** Whether it has exited. */
  hasExited(): boolean;
}

/** Runs `node apps/cli/dist/bin.js <args>` in `cwd`; killed (SIGKILL) at the test's end if still running. */
export function runBuiltMcpx(args: string[], cwd: string): BuiltMcpx {
  expect(existsSync(BUILT_MCPX), `${BUILT_MCPX} is missing: build first (pnpm build)`).toBe(true);
  const child = spawn(process.execPath, [BUILT_MCPX, ...args], {
    cwd,
    env: { ...process.env, XDG_STATE_HOME: join(cwd, ".state") },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (t: string) => {
    out += t;
  });
  child.stderr.setEncoding("utf8").on("data", (t: string) => {
    err += t;
  });
  let done = false;
  const exited = new Promise<number | string>((resolve) => {
    child.once("exit", (code, signal) => {
      done = true;
      resolve(code ?? signal ?? "unknown");
    });
  });
  afterThisTest(async () => {
    if (!done) child.kill("SIGKILL");
    await exited;
  });
  return { child, stdout: () => out, stderr: () => err, exited, hasExited: () => done };
}

/**
 * Waits for the process to exit by itself (at most `ms`: only how long a failure takes to show);
 * if it does not, kills it so that what it left behind can be looked at, and says so.
 */
export async function exitedByItself(run: BuiltMcpx, ms = 15_000): Promise<number | string> {
  try {
    await until(() => run.hasExited(), ms);
  } catch {
    run.child.kill("SIGKILL");
    await run.exited;
    return "still running: killed";
  }
  return run.exited;
}
