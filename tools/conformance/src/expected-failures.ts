/**
 * The expected failures of one leg: a ratchet. The file is a YAML mapping from a scenario (every run
 * of it) or `scenario@revision` (that run alone) to a one-line reason. Only auth/* scenarios and
 * extension scenarios may be listed. A failure not listed and a listed
 * entry that passes both fail the leg, so the file only ever shrinks.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import type { Run, Scenario } from "./suite.js";

export interface ExpectedFailure {
  key: string;
  reason: string;
}

/** The entries, or the problems with the file (each naming the entry). */
export function loadExpectedFailures(
  file: string,
  scenarios: readonly Scenario[],
): { entries: ExpectedFailure[]; problems: string[] } {
  const doc = (parse(readFileSync(file, "utf8")) ?? {}) as unknown;
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    return { entries: [], problems: [`${file}: must be a mapping of scenario to reason`] };
  }
  const byName = new Map(scenarios.map((s) => [s.name, s]));
  const entries: ExpectedFailure[] = [];
  const problems: string[] = [];
  for (const [key, reason] of Object.entries(doc)) {
    const [name = "", version] = key.split("@");
    const scenario = byName.get(name);
    if (typeof reason !== "string" || reason.trim() === "" || reason.includes("\n")) {
      problems.push(`${key}: the reason must be one line of text`);
    } else if (!scenario) {
      problems.push(`${key}: no such scenario in this leg of either suite version (remove the entry)`);
    } else if (version !== undefined && !scenario.tags.includes(version)) {
      problems.push(`${key}: ${name} is not run at ${version} (its tags: ${scenario.tags.join(", ")})`);
    } else if (!name.startsWith("auth/") && !scenario.tags.includes("extension")) {
      problems.push(`${key}: only auth/* and extension scenarios may be expected to fail`);
    } else {
      entries.push({ key, reason: reason.trim() });
    }
  }
  return { entries, problems };
}

/** The entry that covers a run: its `scenario@revision` entry, else its scenario's. */
export function entryFor(entries: readonly ExpectedFailure[], run: Run): ExpectedFailure | undefined {
  const name = run.scenario.name;
  return (
    entries.find((e) => run.version !== undefined && e.key === `${name}@${run.version}`) ??
    entries.find((e) => e.key === name)
  );
}
