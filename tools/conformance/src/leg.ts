/**
 * One leg of the official suite, run one scenario at a time (in parallel the suite's timing
 * scenarios, sse-retry first, fail on two cores): a line per run (`PASS name [tag]` or
 * `FAIL name [tag]: reason`), the numbers per revision tag, the ratchet against the expected
 * failures, and last `N passed, N failed`. The exit code is the ratchet's: 1 on a failure not
 * listed, on a listed entry that passed, and on a problem with the file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { entryFor, loadExpectedFailures } from "./expected-failures.js";
import { type Leg, type Run, runsOf, type Scenario, scenariosOfBoth, type Verdict } from "./suite.js";

export interface LegOptions {
  leg: Leg;
  expectedFile: string;
  /** Only the scenarios named (all when empty). */
  only: readonly string[];
  /** Keep the suite's result directories (their path is printed). */
  keep: boolean;
  /** Runs one scenario with the suite's results in `outDir`, and judges it. */
  execute(run: Run, outDir: string): Promise<Verdict>;
}

const label = (run: Run) => `${run.scenario.name} [${run.tag}]`;

export async function runLeg(opts: LegOptions): Promise<number> {
  const started = Date.now();
  const scenarios: Scenario[] = await scenariosOfBoth(opts.leg);
  const { entries, problems } = loadExpectedFailures(opts.expectedFile, scenarios);
  const unknown = opts.only.filter((n) => !scenarios.some((s) => s.name === n));
  if (unknown.length > 0) throw new Error(`no such ${opts.leg} scenario: ${unknown.join(", ")}`);
  const runs = runsOf(scenarios.filter((s) => opts.only.length === 0 || opts.only.includes(s.name)));
  const results = mkdtempSync(path.join(tmpdir(), `mcpx-conformance-${opts.leg}-`));
  const versions = [
    ...new Set(scenarios.map((s) => `${s.suite.alias.replace("conformance-", "")} ${s.suite.version}`)),
  ];
  console.log(
    `${opts.leg} leg: ${runs.length} runs of ${new Set(runs.map((r) => r.scenario.name)).size} scenarios (${versions.join(", ")})`,
  );

  const tally = new Map<string, { passed: number; failed: number; expected: number }>();
  const violations: string[] = [...problems];
  let passed = 0;
  let failed = 0;
  for (const [i, run] of runs.entries()) {
    const verdict = await opts.execute(run, path.join(results, String(i)));
    const entry = entryFor(entries, run);
    const t = tally.get(run.tag) ?? { passed: 0, failed: 0, expected: 0 };
    tally.set(run.tag, t);
    if (verdict.pass) {
      passed++;
      t.passed++;
      console.log(`PASS ${label(run)}`);
      if (entry)
        violations.push(
          `${label(run)} passes but ${entry.key} is listed as an expected failure: remove the entry`,
        );
    } else {
      failed++;
      t.failed++;
      if (entry) t.expected++;
      console.log(`FAIL ${label(run)}: ${verdict.reason}${entry ? " (expected failure)" : ""}`);
      if (!entry) violations.push(`${label(run)} fails and is not an expected failure`);
    }
  }
  if (opts.only.length === 0) {
    for (const e of entries) {
      if (!runs.some((r) => entryFor(entries, r) === e))
        violations.push(`${e.key} covers no run: remove the entry`);
    }
  }

  console.log("");
  for (const [tag, t] of [...tally.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(
      `  ${tag.padEnd(11)} ${t.passed} passed, ${t.failed} failed${t.failed ? ` (${t.expected} expected)` : ""}`,
    );
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  if (opts.keep) console.log(`results: ${results}`);
  else rmSync(results, { recursive: true, force: true });
  if (violations.length > 0) {
    console.log(`ratchet (${path.basename(opts.expectedFile)}): ${violations.length} problem(s)`);
    for (const v of violations) console.log(`  ${v}`);
  } else {
    const expected = [...tally.values()].reduce((n, t) => n + t.expected, 0);
    console.log(
      `ratchet (${path.basename(opts.expectedFile)}): ok, ${expected} expected failures; ${seconds}s`,
    );
  }
  console.log(`${passed} passed, ${failed} failed`);
  return violations.length > 0 ? 1 : 0;
}
