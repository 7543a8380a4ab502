/**
 * The expected failures of one leg: a ratchet. The file is a YAML mapping from a key
 * `[<version>:]<scenario>[@<revision>]` (keys.ts) to a one-line reason. Only auth/* scenarios and
 * extension scenarios may be listed; and, in the leg fronting the suite's reference server, a
 * scenario the reference server itself fails (its reason starts "reference server:", and the README
 * says where it departs). A failure not listed and a listed entry that passes both fail
 * the leg, so the file only ever shrinks.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { covers, type Key, KeyError, parseKey, specificity } from "./keys.js";
import type { Run, Scenario } from "./suite.js";

/** How an entry blaming the reference server starts (allowed only where `peerDepartures` is on). */
export const PEER_DEPARTURE = "reference server:";

export interface ExpectedFailure extends Key {
  key: string;
  reason: string;
}

/** What is wrong with a key against the leg's scenarios (of every suite version), or undefined. */
function keyProblem(
  k: Key,
  scenarios: readonly Scenario[],
  reason: string,
  peerDepartures: boolean,
): string | undefined {
  const versions = [...new Set(scenarios.map((s) => s.suite.version))];
  if (k.version !== undefined && !versions.includes(k.version)) {
    return `no suite version ${k.version} (the versions: ${versions.join(", ")})`;
  }
  const named = scenarios.filter(
    (s) => s.name === k.scenario && (k.version === undefined || s.suite.version === k.version),
  );
  if (named.length === 0) {
    return k.version === undefined
      ? "no such scenario in this leg of either suite version (remove the entry)"
      : `no such scenario in this leg of ${k.version} (remove the entry)`;
  }
  const tags = [...new Set(named.flatMap((s) => s.tags))];
  if (k.revision !== undefined && !tags.includes(k.revision)) {
    return `${k.scenario} is not run at ${k.revision} (its tags: ${tags.join(", ")})`;
  }
  if (
    !k.scenario.startsWith("auth/") &&
    !tags.includes("extension") &&
    !(peerDepartures && reason.trim().startsWith(PEER_DEPARTURE))
  ) {
    return peerDepartures
      ? `only auth/* and extension scenarios, and those the reference server fails (a reason starting "${PEER_DEPARTURE}"), may be expected to fail`
      : "only auth/* and extension scenarios may be expected to fail";
  }
  return undefined;
}

/** The entries, or the problems with the file (each naming the entry). */
export function loadExpectedFailures(
  file: string,
  scenarios: readonly Scenario[],
  opts: { peerDepartures?: boolean } = {},
): { entries: ExpectedFailure[]; problems: string[] } {
  const doc = (parse(readFileSync(file, "utf8")) ?? {}) as unknown;
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    return { entries: [], problems: [`${file}: must be a mapping of scenario to reason`] };
  }
  const entries: ExpectedFailure[] = [];
  const problems: string[] = [];
  for (const [key, reason] of Object.entries(doc)) {
    let k: Key;
    try {
      k = parseKey(key);
    } catch (err) {
      if (!(err instanceof KeyError)) throw err;
      problems.push(`${key}: ${err.message}`);
      continue;
    }
    const problem = keyProblem(k, scenarios, String(reason), opts.peerDepartures ?? false);
    if (typeof reason !== "string" || reason.trim() === "" || reason.includes("\n")) {
      problems.push(`${key}: the reason must be one line of text`);
    } else if (problem) {
      problems.push(`${key}: ${problem}`);
    } else {
      entries.push({ ...k, key, reason: reason.trim() });
    }
  }
  return { entries, problems };
}

/** The entry that covers a run: the most specific of those that do (version, then revision). */
export function entryFor(entries: readonly ExpectedFailure[], run: Run): ExpectedFailure | undefined {
  let best: ExpectedFailure | undefined;
  for (const e of entries) {
    if (covers(e, run) && (best === undefined || specificity(e) > specificity(best))) best = e;
  }
  return best;
}
