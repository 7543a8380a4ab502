/**
 * The official conformance suite as a program: the two pinned versions, run on Node 20 through the
 * shims (`node --import shims/node20.mjs <suite>/dist/index.js …`), each run in a process group of
 * its own under a hard timeout that kills the whole group (the suite's own timeout kills the shell
 * it started, not the client under it), with its results in a directory of the caller's choosing.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

/** tools/conformance: where the shims and the adapter live, and the working directory of every run. */
export const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SHIMS = path.join(PACKAGE_DIR, "shims", "node20.mjs");
const require = createRequire(import.meta.url);

export interface Suite {
  /** The npm alias in package.json: conformance-alpha (0.2.0-alpha.12) or conformance-stable (0.1.16). */
  alias: string;
  version: string;
  entry: string;
}

function suite(alias: string): Suite {
  const manifest = require.resolve(`${alias}/package.json`);
  const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { version: string };
  return { alias, version, entry: path.join(path.dirname(manifest), "dist", "index.js") };
}

/** Both pinned versions, each run in full: the alpha, then 0.1.16. */
export const SUITES: readonly Suite[] = [suite("conformance-alpha"), suite("conformance-stable")];

export type Leg = "client" | "server";

/** A revision tag (a date), as opposed to "extension" or "draft". */
export const DATED = /^\d{4}-\d{2}-\d{2}$/;

export interface Scenario {
  name: string;
  /** What `list` shows after the name: revisions, "extension", "draft". */
  tags: string[];
  suite: Suite;
}

export interface Exec {
  code: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * Runs the suite with `args` and waits for it; at `timeoutMs` its whole process group (the suite,
 * the shell it starts, the client under that) is killed. The group is killed on a normal exit too,
 * so nothing a scenario started outlives it.
 */
export function runSuite(
  s: Suite,
  args: string[],
  timeoutMs: number,
  env: NodeJS.ProcessEnv = {},
): Promise<Exec> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", SHIMS, s.entry, ...args], {
      cwd: PACKAGE_DIR,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", ...env },
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // the group is already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    child.on("exit", () => {
      clearTimeout(timer);
      killGroup();
    });
    // The pipes close once every holder is gone, which killing the group on exit makes certain.
    child.on("close", (code) => resolve({ code, timedOut, stdout, stderr, ms: Date.now() - started }));
    child.on("error", (err) => {
      clearTimeout(timer);
      resolve({ code: -1, timedOut, stdout, stderr: `${stderr}\n${err.message}`, ms: Date.now() - started });
    });
  });
}

/** The scenarios of one leg, as `list` prints them (`  - name [tag,tag]` under "Client scenarios"). */
export async function listScenarios(s: Suite, leg: Leg): Promise<Scenario[]> {
  const out = await runSuite(s, ["list"], 60_000);
  if (out.code !== 0) throw new Error(`${s.alias} list failed (${out.code}): ${out.stderr.trim()}`);
  const heading = leg === "client" ? "Client scenarios" : "Server scenarios";
  const scenarios: Scenario[] = [];
  let inSection = false;
  for (const line of out.stdout.split("\n")) {
    if (/^\S/.test(line)) inSection = line.startsWith(heading);
    const m = inSection ? /^\s+- (\S+)(?: \[([^\]]*)\])?/.exec(line) : null;
    if (m) scenarios.push({ name: m[1]!, tags: m[2] ? m[2].split(",") : [], suite: s });
  }
  if (scenarios.length === 0) throw new Error(`${s.alias} list printed no ${leg} scenarios`);
  return scenarios;
}

/** The scenarios of one leg in every suite given, each version's own (a name both have is in both). */
export async function scenariosOf(leg: Leg, suites: readonly Suite[] = SUITES): Promise<Scenario[]> {
  const lists = await Promise.all(suites.map((s) => listScenarios(s, leg)));
  return lists.flat();
}

/** The suite of a version, or a clear error naming the versions there are. */
export function suiteOf(version: string): Suite {
  const s = SUITES.find((x) => x.version === version);
  if (!s)
    throw new Error(`no suite version ${version} (the versions: ${SUITES.map((x) => x.version).join(", ")})`);
  return s;
}

/** The revisions the suite has a requirement set for (`list --help`: "Requirement sets available: …"). */
export async function requirementSets(s: Suite): Promise<string[]> {
  const out = await runSuite(s, ["list", "--help"], 60_000);
  const m = /Requirement sets available:\s*([\d\-,\s]+)/.exec(out.stdout.replace(/\s+/g, " "));
  return m
    ? m[1]!
        .split(",")
        .map((r) => r.trim())
        .filter((r) => DATED.test(r))
    : [];
}

/**
 * The scenarios of one leg a revision requires, from `list --requirements <revision>` (the names
 * under "Client scenarios" or "Server scenarios", before "Run and reported, but never scored").
 */
export function parseRequirements(stdout: string, leg: Leg): string[] {
  const heading = leg === "client" ? "Client scenarios" : "Server scenarios";
  const names: string[] = [];
  let inSection = false;
  for (const line of stdout.split("\n")) {
    if (/^\S/.test(line)) inSection = line.startsWith(heading);
    const m = inSection ? /^\s+- (\S+)\s*$/.exec(line) : null;
    if (m) names.push(m[1]!);
  }
  return names;
}

export async function listRequirements(s: Suite, revision: string, leg: Leg): Promise<string[]> {
  const out = await runSuite(s, ["list", "--requirements", revision], 60_000);
  if (out.code !== 0)
    throw new Error(`${s.alias} list --requirements ${revision} failed: ${out.stderr.trim()}`);
  return parseRequirements(out.stdout, leg);
}

export interface Run {
  scenario: Scenario;
  /** The --spec-version of this run; undefined for a scenario on no dated revision (extension, draft). */
  version: string | undefined;
  /** The tag it is counted under: the version, or the scenario's own tag. */
  tag: string;
}

/** One run per revision a scenario belongs to: each revision is its own wire (initialize or stateless). */
export function runsOf(scenarios: readonly Scenario[]): Run[] {
  return scenarios.flatMap((scenario): Run[] => {
    const versions = scenario.tags.filter((t) => DATED.test(t));
    if (versions.length === 0) return [{ scenario, version: undefined, tag: scenario.tags[0] ?? "untagged" }];
    return versions.map((version) => ({ scenario, version, tag: version }));
  });
}

export interface Check {
  id: string;
  name?: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  description?: string;
  errorMessage?: string;
}

/** Every file called `name` under `dir`. */
export function findFiles(dir: string, name: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name === name)
    .map((e) => path.join(e.parentPath, e.name));
}

/** The checks the suite recorded under `dir` (its checks.json), or none. */
export function readChecks(dir: string): Check[] {
  const file = findFiles(dir, "checks.json")[0];
  return file ? (JSON.parse(readFileSync(file, "utf8")) as Check[]) : [];
}

export interface Verdict {
  pass: boolean;
  reason?: string;
}

export const oneLine = (text: string, max = 200) => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/**
 * A run passes when the suite says so (exit 0: no failure, no warning, no timeout) and at least one
 * check succeeded, as the suite's own tier-check counts: a scenario whose checks were all skipped
 * showed nothing. Otherwise the reason is the first thing that went wrong.
 */
export function judge(
  exec: Exec,
  checks: readonly Check[],
  timeoutMs: number,
  clientError?: string,
): Verdict {
  if (exec.timedOut) return { pass: false, reason: `killed after ${timeoutMs / 1000}s (hard timeout)` };
  const failed = checks.find((c) => c.status === "FAILURE");
  const warned = checks.find((c) => c.status === "WARNING");
  const worst = failed ?? warned;
  if (worst) {
    const what = `${worst.id}${worst.status === "WARNING" ? " (warning)" : ""}`;
    const why = oneLine(`${what}: ${worst.errorMessage ?? worst.description ?? ""}`, 120);
    return { pass: false, reason: clientError ? `${why} — ${oneLine(clientError, 100)}` : why };
  }
  if (exec.code !== 0) {
    const tail = clientError ?? exec.stderr.trim().split("\n").pop() ?? "";
    return { pass: false, reason: oneLine(`exit ${exec.code}${tail ? `: ${tail}` : ""}`) };
  }
  if (/^SKIPPED: scenario/m.test(exec.stdout)) return { pass: false, reason: oneLine(exec.stdout) };
  if (!checks.some((c) => c.status === "SUCCESS")) {
    const skipped = checks.find((c) => c.status === "SKIPPED");
    return {
      pass: false,
      reason: oneLine(
        `no check succeeded${skipped ? ` (${skipped.id}: ${skipped.errorMessage ?? "skipped"})` : ""}`,
      ),
    };
  }
  return { pass: true };
}

const helpCache = new Map<string, Promise<string>>();

/**
 * Whether `<command> --help` of a suite lists an option: 0.1.16's `server` has no `--timeout` (the
 * alpha's has), and an unknown option is an error there, not a no-op.
 */
export async function hasOption(s: Suite, command: string, option: string): Promise<boolean> {
  const key = `${s.entry} ${command}`;
  let help = helpCache.get(key);
  if (!help) {
    help = runSuite(s, [command, "--help"], 60_000).then((out) => out.stdout);
    helpCache.set(key, help);
  }
  return new RegExp(`(^|\\s)${option}(\\s|,|$)`, "m").test(await help);
}
