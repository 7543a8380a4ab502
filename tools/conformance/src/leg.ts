/**
 * One leg of the official suite, both pinned versions in full (or one, `suiteVersion`), run one
 * scenario at a time (in parallel the suite's timing scenarios, sse-retry first, fail on two cores):
 * a line per run naming its suite version (`PASS 0.1.16 name [tag]` or `FAIL … : reason`), a table
 * per version and revision tag, per requirement set whether every required scenario passed, the
 * ratchet against the expected failures, and last `N passed, N failed`. The exit code is the
 * ratchet's: 1 on a failure not listed, on a listed entry that passed, and on a problem with the file.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { entryFor, loadExpectedFailures } from "./expected-failures.js";
import { markdownReport, type Requirement, type RunResult, requirement, textReport } from "./report.js";
import {
  type Leg,
  listRequirements,
  type Run,
  requirementSets,
  runsOf,
  type Scenario,
  SUITES,
  scenariosOf,
  suiteOf,
  type Verdict,
} from "./suite.js";

export interface LegOptions {
  leg: Leg;
  expectedFile: string;
  /** The upstream is the suite's reference server: entries blaming it may be listed (expected-failures.ts). */
  peerDepartures?: boolean;
  /** Only the scenarios named (all when empty). */
  only: readonly string[];
  /** Only this suite version (both when undefined). */
  suiteVersion?: string | undefined;
  /** Keep the suite's result directories (their path is printed). */
  keep: boolean;
  /** Write the tables as markdown to this file. */
  markdown?: string | undefined;
  /** Runs one scenario with the suite's results in `outDir`, and judges it. */
  execute(run: Run, outDir: string): Promise<Verdict>;
}

const label = (run: Run) => `${run.scenario.suite.version} ${run.scenario.name} [${run.tag}]`;

/** Each selected suite's requirement sets for this leg (the alpha has them; 0.1.16 has none). */
async function requirementsOf(leg: Leg, suites: typeof SUITES) {
  const sets = await Promise.all(
    suites.map(async (s) => {
      const revisions = await requirementSets(s);
      return Promise.all(
        revisions.map(async (revision) => ({
          suite: s,
          revision,
          required: await listRequirements(s, revision, leg),
        })),
      );
    }),
  );
  return sets.flat();
}

export async function runLeg(opts: LegOptions): Promise<number> {
  const started = Date.now();
  const suites = opts.suiteVersion !== undefined ? [suiteOf(opts.suiteVersion)] : SUITES;
  // Every version's scenarios, so the ratchet can check a key of a version not run this time.
  const [all, sets] = await Promise.all([scenariosOf(opts.leg), requirementsOf(opts.leg, suites)]);
  const selected: Scenario[] = all.filter((s) => suites.includes(s.suite));
  const { entries, problems } = loadExpectedFailures(opts.expectedFile, all, {
    peerDepartures: opts.peerDepartures ?? false,
  });
  const unknown = opts.only.filter((n) => !selected.some((s) => s.name === n));
  if (unknown.length > 0) {
    const where = suites.map((s) => s.version).join(" or ");
    throw new Error(`no such ${opts.leg} scenario in ${where}: ${unknown.join(", ")}`);
  }
  const runs = runsOf(selected.filter((s) => opts.only.length === 0 || opts.only.includes(s.name)));
  const results = mkdtempSync(path.join(tmpdir(), `mcpx-conformance-${opts.leg}-`));
  for (const s of suites) {
    const of = runs.filter((r) => r.scenario.suite === s);
    console.log(
      `${opts.leg} leg, suite ${s.version}: ${of.length} runs of ${new Set(of.map((r) => r.scenario.name)).size} scenarios`,
    );
  }

  const done: RunResult[] = [];
  const violations: string[] = [...problems];
  for (const [i, run] of runs.entries()) {
    const verdict = await opts.execute(run, path.join(results, String(i)));
    const entry = entryFor(entries, run);
    done.push({
      version: run.scenario.suite.version,
      scenario: run.scenario.name,
      tag: run.tag,
      pass: verdict.pass,
      expected: !verdict.pass && entry !== undefined,
    });
    if (verdict.pass) {
      console.log(`PASS ${label(run)}`);
      if (entry)
        violations.push(
          `${label(run)} passes but ${entry.key} is listed as an expected failure: remove the entry`,
        );
    } else {
      console.log(`FAIL ${label(run)}: ${verdict.reason}${entry ? " (expected failure)" : ""}`);
      if (!entry) violations.push(`${label(run)} fails and is not an expected failure`);
    }
  }
  if (opts.only.length === 0 && opts.suiteVersion === undefined) {
    for (const e of entries) {
      if (!runs.some((r) => entryFor(entries, r) === e))
        violations.push(`${e.key} covers no run: remove the entry`);
    }
  }

  // A requirement set is answered only by a full run of its version (a partial one says "not run").
  const reqs: Requirement[] =
    opts.only.length === 0 ? sets.map((s) => requirement(s.revision, s.suite.version, s.required, done)) : [];
  console.log("");
  for (const line of textReport(opts.leg, done, reqs)) console.log(line);
  if (opts.markdown) {
    writeFileSync(opts.markdown, markdownReport(opts.leg, done, reqs));
    console.log(`markdown: ${opts.markdown}`);
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  if (opts.keep) console.log(`results: ${results}`);
  else rmSync(results, { recursive: true, force: true });
  if (violations.length > 0) {
    console.log(`ratchet (${path.basename(opts.expectedFile)}): ${violations.length} problem(s)`);
    for (const v of violations) console.log(`  ${v}`);
  } else {
    const expected = done.filter((r) => r.expected).length;
    console.log(
      `ratchet (${path.basename(opts.expectedFile)}): ok, ${expected} expected failures; ${seconds}s`,
    );
  }
  const passed = done.filter((r) => r.pass).length;
  console.log(`${passed} passed, ${done.length - passed} failed`);
  return violations.length > 0 ? 1 : 0;
}
