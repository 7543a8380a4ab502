/**
 * The key of an expected failure: `[<version>:]<scenario>[@<revision>]`. The suite version (`0.1.16`,
 * `0.2.0-alpha.12`) narrows it to that version's runs, the revision to the runs at that revision; a
 * key without either covers every run of the scenario. Scenario names hold neither `:` nor `@`.
 */
import type { Run } from "./suite.js";

export interface Key {
  /** The suite version, or undefined for every version. */
  version?: string;
  scenario: string;
  /** The revision tag, or undefined for every revision. */
  revision?: string;
}

/** A semver version before the first `:` (so `auth/x` or `a:b` with a non-version prefix is refused). */
const KEY = /^(?:(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?):)?([^:@\s]+)(?:@([^:@\s]+))?$/;

export class KeyError extends Error {
  override name = "KeyError";
}

export function parseKey(key: string): Key {
  const m = KEY.exec(key);
  if (!m) {
    throw new KeyError(
      `${JSON.stringify(key)} is not a key: expected [<version>:]<scenario>[@<revision>], e.g. 0.1.16:auth/basic-cimd@2025-11-25`,
    );
  }
  return {
    ...(m[1] !== undefined ? { version: m[1] } : {}),
    scenario: m[2]!,
    ...(m[3] !== undefined ? { revision: m[3] } : {}),
  };
}

export function formatKey(k: Key): string {
  return `${k.version !== undefined ? `${k.version}:` : ""}${k.scenario}${k.revision !== undefined ? `@${k.revision}` : ""}`;
}

/** Whether a key covers a run: the same scenario, and the version and revision where the key names them. */
export function covers(k: Key, run: Run): boolean {
  return (
    k.scenario === run.scenario.name &&
    (k.version === undefined || k.version === run.scenario.suite.version) &&
    (k.revision === undefined || k.revision === run.tag)
  );
}

/** How narrow a key is: the most specific key covering a run is the one that answers for it. */
export const specificity = (k: Key) => (k.version !== undefined ? 2 : 0) + (k.revision !== undefined ? 1 : 0);
