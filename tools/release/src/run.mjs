/**
 * What the release scripts share: running a command with a time bound (its output kept for the
 * error), pnpm however this script was started, and named checks that print a result line each and
 * a closing count.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { REPO } from "./workspace.mjs";

/** The process groups started and not yet ended, ended by `bound` if time runs out. */
const live = new Set();

export function killGroup(pid) {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {}
}

/** Runs a command; resolves to its output, or rejects with its exit and the tail of its output. */
export function run(command, args, { cwd = REPO, env = process.env, timeoutMs = 300_000, input } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"], detached: true });
    live.add(child.pid);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (t) => {
      stdout += t;
    });
    child.stderr.setEncoding("utf8").on("data", (t) => {
      stderr += t;
    });
    const timer = setTimeout(() => {
      // The whole group: npm and pnpm start children of their own.
      killGroup(child.pid);
      reject(
        new Error(`${describe(command, args)} took over ${timeoutMs / 1000} s\n${tail(stdout, stderr)}`),
      );
    }, timeoutMs);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(new Error(`${describe(command, args)}: ${err.message}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      live.delete(child.pid);
      if (code === 0) resolve({ stdout, stderr });
      else reject(new Error(`${describe(command, args)} exited ${code ?? signal}\n${tail(stdout, stderr)}`));
    });
    child.stdin.end(input ?? "");
  });
}

function describe(command, args) {
  return [command, ...args].map((a) => (/[\s"]/.test(a) ? JSON.stringify(a) : a)).join(" ");
}

function tail(stdout, stderr) {
  const cut = (t) => (t.length > 4000 ? `…${t.slice(-4000)}` : t);
  return [stdout && `stdout:\n${cut(stdout)}`, stderr && `stderr:\n${cut(stderr)}`]
    .filter(Boolean)
    .join("\n");
}

/**
 * pnpm: the one running this script (`pnpm pack:release`), else the version the root package.json
 * names, through npx (as .ci/run and the README run it).
 */
export function pnpm() {
  const execPath = process.env.npm_execpath;
  if (execPath && path.basename(execPath).startsWith("pnpm")) {
    return { command: process.execPath, prefix: [execPath] };
  }
  const { packageManager } = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8"));
  return { command: "npx", prefix: ["-y", packageManager] };
}

export function runPnpm(args, options) {
  const { command, prefix } = pnpm();
  return run(command, [...prefix, ...args], options);
}

/** Named checks: each prints `ok <name>` or `FAIL <name>` with why; `finish` prints the count and sets the exit code. */
export function checks() {
  let passed = 0;
  let failed = 0;
  return {
    async check(name, fn) {
      try {
        await fn();
        passed++;
        console.log(`ok ${name}`);
        return true;
      } catch (err) {
        failed++;
        console.log(`FAIL ${name}\n${indent(err instanceof Error ? err.message : String(err))}`);
        return false;
      }
    },
    finish() {
      console.log(`${passed} passed, ${failed} failed`);
      process.exitCode = failed > 0 ? 1 : 0;
    },
  };
}

const indent = (text) =>
  text
    .split("\n")
    .map((l) => `    ${l}`)
    .join("\n");

/** Remembers a process group started elsewhere (a server), so `bound` ends it too. */
export function track(pid) {
  live.add(pid);
  return () => live.delete(pid);
}

/** Ends the process if a script runs past its bound, naming it: CI must not hang on a stuck install. */
export function bound(name, ms) {
  setTimeout(() => {
    console.log(`FAIL ${name}: still running after ${ms / 1000} s`);
    for (const pid of live) killGroup(pid);
    process.exit(1);
  }, ms).unref();
}
