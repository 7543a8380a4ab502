/**
 * What a leg reports once its runs are done: per suite version, per revision tag, the runs passed
 * and failed (and how many failures were expected); per revision with a requirement set, whether
 * every scenario it requires passed. As text for the terminal and as markdown (`--markdown`), so the
 * README's tables are the leg's own output.
 */
import { DATED, type Leg } from "./suite.js";

export interface RunResult {
  /** The suite version the run came from (0.2.0-alpha.12, 0.1.16). */
  version: string;
  scenario: string;
  /** The revision tag it is counted under (a date, or extension / draft). */
  tag: string;
  pass: boolean;
  /** A failure the expected-failures file lists. */
  expected: boolean;
}

export interface Tally {
  passed: number;
  failed: number;
  expected: number;
}

export interface VersionTable {
  version: string;
  rows: { tag: string; tally: Tally }[];
  total: Tally;
}

/** Dated tags in order, then the others (draft, extension) by name. */
const tagOrder = (t: string) => (DATED.test(t) ? `0${t}` : `1${t}`);

/** One table per suite version (in the order the runs came), one row per revision tag. */
export function tables(results: readonly RunResult[]): VersionTable[] {
  const byVersion = new Map<string, Map<string, Tally>>();
  for (const r of results) {
    const tags = byVersion.get(r.version) ?? new Map<string, Tally>();
    byVersion.set(r.version, tags);
    const t = tags.get(r.tag) ?? { passed: 0, failed: 0, expected: 0 };
    tags.set(r.tag, t);
    if (r.pass) t.passed++;
    else {
      t.failed++;
      if (r.expected) t.expected++;
    }
  }
  return [...byVersion].map(([version, tags]) => {
    const rows = [...tags]
      .map(([tag, tally]) => ({ tag, tally }))
      .sort((a, b) => tagOrder(a.tag).localeCompare(tagOrder(b.tag)));
    const total = rows.reduce(
      (sum, { tally }) => ({
        passed: sum.passed + tally.passed,
        failed: sum.failed + tally.failed,
        expected: sum.expected + tally.expected,
      }),
      { passed: 0, failed: 0, expected: 0 },
    );
    return { version, rows, total };
  });
}

export interface Requirement {
  revision: string;
  /** The suite version whose requirement set this is, and whose runs at `revision` answer it. */
  version: string;
  required: readonly string[];
  /** Each required scenario that did not pass at the revision, and why. */
  notPassed: { scenario: string; why: "failed" | "expected failure" | "not run" }[];
}

/** Whether every scenario `required` passed in `version`'s run at `revision`. */
export function requirement(
  revision: string,
  version: string,
  required: readonly string[],
  results: readonly RunResult[],
): Requirement {
  const notPassed: Requirement["notPassed"] = [];
  for (const scenario of required) {
    const run = results.find((r) => r.version === version && r.scenario === scenario && r.tag === revision);
    if (!run) notPassed.push({ scenario, why: "not run" });
    else if (!run.pass) notPassed.push({ scenario, why: run.expected ? "expected failure" : "failed" });
  }
  return { revision, version, required, notPassed };
}

const passedOf = (r: Requirement) => r.required.length - r.notPassed.length;
const notPassedText = (r: Requirement) => r.notPassed.map((n) => `${n.scenario} (${n.why})`).join(", ");

/** The terminal's account: a block per version, then a line per requirement set. */
export function textReport(leg: Leg, results: readonly RunResult[], reqs: readonly Requirement[]): string[] {
  const lines: string[] = [];
  for (const t of tables(results)) {
    lines.push(`${leg} leg, suite ${t.version}:`);
    for (const { tag, tally } of [...t.rows, { tag: "total", tally: t.total }]) {
      const expected = tally.failed ? ` (${tally.expected} expected)` : "";
      lines.push(`  ${tag.padEnd(11)} ${tally.passed} passed, ${tally.failed} failed${expected}`);
    }
  }
  for (const r of reqs) {
    lines.push(
      r.notPassed.length === 0
        ? `requirements ${r.revision} (${r.version}): all ${r.required.length} required ${leg} scenarios passed`
        : `requirements ${r.revision} (${r.version}): ${passedOf(r)} of ${r.required.length} required ${leg} scenarios passed; not passed: ${notPassedText(r)}`,
    );
  }
  return lines;
}

/** The same as markdown: a table per suite version, then one for the requirement sets. */
export function markdownReport(
  leg: Leg,
  results: readonly RunResult[],
  reqs: readonly Requirement[],
): string {
  const out: string[] = [];
  for (const t of tables(results)) {
    out.push(`#### ${leg} leg, suite ${t.version}`, "");
    out.push("| revision tag | passed | failed | of which expected |", "| --- | ---: | ---: | ---: |");
    for (const { tag, tally } of t.rows) {
      out.push(`| ${tag} | ${tally.passed} | ${tally.failed} | ${tally.expected} |`);
    }
    out.push(`| **total** | ${t.total.passed} | ${t.total.failed} | ${t.total.expected} |`, "");
  }
  if (reqs.length > 0) {
    out.push(`#### ${leg} leg, what each revision requires (\`list --requirements\`)`, "");
    out.push("| revision | suite | required | passed | not passed |", "| --- | --- | ---: | ---: | --- |");
    for (const r of reqs) {
      out.push(
        `| ${r.revision} | ${r.version} | ${r.required.length} | ${passedOf(r)} | ${r.notPassed.length ? notPassedText(r) : "—"} |`,
      );
    }
    out.push("");
  }
  return `${out.join("\n")}`;
}
