/**
 * The three outcomes the SDK's codecs use: ok, not in this revision, invalid. Every error names the JSON
 * path and the rule that failed.
 */
export type Verdict =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly reason: "not-in-revision" | "invalid";
      readonly errors: readonly string[];
    };

/** What a check found so far; several checks (envelope, definition, strict walk) add to one. */
export interface Findings {
  readonly errors: string[];
  /** Set when the method (or definition) does not exist in the revision at all. */
  notInRevision: boolean;
}

export function newFindings(): Findings {
  return { errors: [], notInRevision: false };
}

export function toVerdict(findings: Findings): Verdict {
  if (findings.errors.length === 0) return { ok: true };
  return {
    ok: false,
    reason: findings.notInRevision ? "not-in-revision" : "invalid",
    errors: findings.errors,
  };
}

/** Throws an Error listing every failure, headed by what was checked. */
export function assertOk(verdict: Verdict, what: string): void {
  if (verdict.ok) return;
  throw new Error(`${what} failed strict validation:\n${verdict.errors.map((e) => `  - ${e}`).join("\n")}`);
}
