/**
 * The checks a host makes on a skill entry before it trusts it (SEP-2640 §Skill entries): a string
 * uri ending in /SKILL.md whose last path segment is frontmatter.name, a frontmatter object with a
 * name and a description, and resources that are "dynamic" or a list of {uri, digest, size} triples
 * within the skill, with the SKILL.md's own entry among them.
 */
import { type Skill, skillRoot } from "@mcpx/core";

const DIGEST = /^sha256:[0-9a-f]{64}$/;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** What is wrong with an entry a server sent; empty when it is a valid skill entry. */
export function entryProblems(value: unknown): string[] {
  if (!isObject(value)) return ["the entry is not an object"];
  const problems: string[] = [];
  const uri = value.uri;
  const root = typeof uri === "string" ? skillRoot(uri) : undefined;
  if (typeof uri !== "string") problems.push("uri is missing or not a string");
  else if (root === undefined) problems.push(`uri ${uri} does not end in /SKILL.md`);
  const fm = value.frontmatter;
  if (!isObject(fm)) problems.push("frontmatter is missing or not an object");
  else {
    if (typeof fm.name !== "string" || fm.name === "") problems.push("frontmatter.name is missing or empty");
    if (typeof fm.description !== "string" || fm.description === "")
      problems.push("frontmatter.description is missing or empty");
    if (root !== undefined && typeof fm.name === "string" && root.split("/").pop() !== fm.name) {
      problems.push(`the last segment of ${String(uri)} is not frontmatter.name ${JSON.stringify(fm.name)}`);
    }
  }
  const resources = value.resources;
  if (resources === "dynamic") return problems;
  if (!Array.isArray(resources)) {
    problems.push('resources is neither an array nor "dynamic"');
    return problems;
  }
  resources.forEach((r, i) => {
    if (!isObject(r) || typeof r.uri !== "string") {
      problems.push(`resources[${i}].uri is missing`);
      return;
    }
    if (typeof r.digest !== "string" || !DIGEST.test(r.digest))
      problems.push(`resources[${i}].digest is not sha256:<64 lowercase hex>`);
    if (typeof r.size !== "number" || !Number.isInteger(r.size) || r.size < 0)
      problems.push(`resources[${i}].size is not a non-negative integer`);
    if (root !== undefined && r.uri !== uri && !r.uri.startsWith(`${root}/`))
      problems.push(`resources[${i}].uri ${r.uri} is outside the skill`);
  });
  if (typeof uri === "string" && !resources.some((r) => isObject(r) && r.uri === uri)) {
    problems.push("resources has no entry for the skill's own SKILL.md");
  }
  return problems;
}

/** An entry refused, and why. */
export interface InvalidSkillEntry {
  index: number;
  uri?: string;
  reason: string;
}

/** Splits what a listing carried into valid skills and refused entries (every copy of a repeated uri). */
export function partitionEntries(values: readonly unknown[]): {
  skills: Skill[];
  invalid: InvalidSkillEntry[];
} {
  const uriOf = (v: unknown) => (isObject(v) && typeof v.uri === "string" ? v.uri : undefined);
  const counts = new Map<string, number>();
  for (const v of values) {
    const u = uriOf(v);
    if (u !== undefined) counts.set(u, (counts.get(u) ?? 0) + 1);
  }
  const skills: Skill[] = [];
  const invalid: InvalidSkillEntry[] = [];
  values.forEach((v, index) => {
    const uri = uriOf(v);
    const problems = entryProblems(v);
    if (uri !== undefined && (counts.get(uri) ?? 0) > 1)
      problems.push("the same uri is listed more than once");
    if (problems.length === 0) skills.push(v as Skill);
    else invalid.push({ index, ...(uri === undefined ? {} : { uri }), reason: problems.join("; ") });
  });
  return { skills, invalid };
}
