/** Planning the runs of a leg and judging each: what `pnpm conformance:client` counts as a pass. */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import {
  type Check,
  type Exec,
  hasOption,
  judge,
  listRequirements,
  requirementSets,
  runSuite,
  runsOf,
  type Scenario,
  SUITES,
} from "../src/suite.js";

const scenario = (name: string, tags: string[]): Scenario => ({ name, tags, suite: SUITES[0]! });
const exec = (over: Partial<Exec> = {}): Exec => ({
  code: 0,
  timedOut: false,
  stdout: "",
  stderr: "",
  ms: 1,
  ...over,
});
const check = (status: Check["status"], id = "c", errorMessage?: string): Check => ({
  id,
  status,
  ...(errorMessage ? { errorMessage } : {}),
});

describe("runs and verdicts", () => {
  it("runner/one-run-per-revision-tag", () => {
    const runs = runsOf([
      scenario("tools_call", ["2025-06-18", "2025-11-25", "2026-07-28"]),
      scenario("sep-2640-client-no-prefetch", ["extension"]),
    ]);
    expect(runs.map((r) => [r.scenario.name, r.version, r.tag])).toEqual([
      ["tools_call", "2025-06-18", "2025-06-18"],
      ["tools_call", "2025-11-25", "2025-11-25"],
      ["tools_call", "2026-07-28", "2026-07-28"],
      ["sep-2640-client-no-prefetch", undefined, "extension"],
    ]);
  });

  it("runner/pass-needs-exit-0-and-a-success", () => {
    expect(judge(exec(), [check("SUCCESS"), check("INFO")], 1000)).toEqual({ pass: true });
    expect(judge(exec(), [check("SKIPPED", "s", "never called")], 1000)).toEqual({
      pass: false,
      reason: "no check succeeded (s: never called)",
    });
    expect(judge(exec({ code: 1 }), [check("SUCCESS")], 1000, "client: boom").reason).toBe(
      "exit 1: client: boom",
    );
  });

  it("runner/failure-warning-and-timeout-fail", () => {
    expect(judge(exec({ code: 1 }), [check("SUCCESS"), check("FAILURE", "f", "bad")], 1000).reason).toBe(
      "f: bad",
    );
    expect(judge(exec({ code: 1 }), [check("WARNING", "w", "meh")], 1000).reason).toBe("w (warning): meh");
    expect(judge(exec({ code: null, timedOut: true }), [], 45_000).reason).toBe(
      "killed after 45s (hard timeout)",
    );
  });
});

describe("the hard timeout", () => {
  it("runner/hard-timeout-kills-the-hung-client", async () => {
    // The suite's own timeout kills the shell it started; the client under it lives on and holds the
    // suite's pipes, so the suite never ends. The hard timeout kills the whole process group.
    const dir = mkdtempSync(path.join(tmpdir(), "mcpx-hang-"));
    const pidFile = path.join(dir, "pid");
    const hang = path.join(dir, "hang.mjs");
    writeFileSync(
      hang,
      `import { writeFileSync } from "node:fs";
writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));
setInterval(() => {}, 1000);`,
    );
    const args = [
      "client",
      "--command",
      `node ${hang}`,
      "--scenario",
      "initialize",
      "--timeout",
      "1000",
      "-o",
      dir,
    ];
    // long enough for the suite to start the client on a loaded machine (its own timeout is 1 s)
    const exec = await runSuite(SUITES[0]!, args, 20_000);
    expect(exec.timedOut).toBe(true);
    const pid = Number(readFileSync(pidFile, "utf8"));
    // Gone, or a zombie its new parent (init) has not reaped yet: either way, no longer running.
    const running = () => {
      try {
        return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
      } catch {
        return false;
      }
    };
    expect(running()).toBe(false);
  }, 60_000);
});

describe("what each pinned suite offers", () => {
  it("conformance/requirement-sets-and-options-read-from-each-suite", async () => {
    const [alpha, stable] = SUITES;
    // each answer is a suite process of its own: started together, so a loaded machine waits once
    const [alphaSets, stableSets, required, alphaTimeout, stableTimeout] = await Promise.all([
      requirementSets(alpha!),
      requirementSets(stable!),
      listRequirements(alpha!, "2025-11-25", "client"),
      hasOption(alpha!, "server", "--timeout"),
      hasOption(stable!, "server", "--timeout"),
    ]);
    expect(alphaSets).toEqual(expect.arrayContaining(["2025-11-25", "2026-07-28"]));
    expect(stableSets).toEqual([]);
    expect(required).toContain("sse-retry");
    expect(required).not.toContain("auth/dpop");
    // 0.1.16's server command has no --timeout (an unknown option is an error there)
    expect(alphaTimeout).toBe(true);
    expect(stableTimeout).toBe(false);
  }, 120_000);
});
