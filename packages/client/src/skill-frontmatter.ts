/**
 * A SKILL.md's YAML frontmatter, read as SEP-2640 compares it: the block between the leading `---`
 * lines (a BOM and CRLF line ends allowed), parsed as YAML 1.2 core schema (the `yaml` package), and
 * compared field by field with the entry's frontmatter: every key both ways, objects in any key
 * order, arrays in order, no type coercion.
 */
import { createRequire } from "node:module";
import type * as Yaml from "yaml";

// Loaded with the first skill read, not with mcpx (it is the largest library mcpx holds, and most
// daemons read no skill): its CommonJS build, which require loads on demand.
const require = createRequire(import.meta.url);

const BLOCK = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export interface SkillMarkdown {
  frontmatter: Record<string, unknown>;
  /** The markdown after the frontmatter. */
  body: string;
}

/** The frontmatter and body of a SKILL.md; throws an Error saying what is wrong with the frontmatter. */
export function parseSkillMarkdown(markdown: string): SkillMarkdown {
  const text = markdown.charCodeAt(0) === 0xfeff ? markdown.slice(1) : markdown;
  const match = BLOCK.exec(text);
  if (!match) throw new Error("SKILL.md does not begin with a --- delimited YAML frontmatter block");
  const value: unknown = (require("yaml") as typeof Yaml).parse(match[1] ?? "", { schema: "core" });
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error("the SKILL.md frontmatter is not a YAML mapping");
  }
  return { frontmatter: value as Record<string, unknown>, body: text.slice(match[0].length) };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const show = (v: unknown) => (v === undefined ? "nothing" : JSON.stringify(v));

/** One line per field where the entry's frontmatter and the file's differ; none when they are equal. */
export function frontmatterDifferences(entry: unknown, file: unknown, path = ""): string[] {
  const label = path === "" ? "(frontmatter)" : path;
  if (Array.isArray(entry) && Array.isArray(file)) {
    if (entry.length !== file.length) {
      return [`${label}: the entry has ${entry.length} items, SKILL.md has ${file.length}`];
    }
    return entry.flatMap((item, i) => frontmatterDifferences(item, file[i], `${path}[${i}]`));
  }
  if (isObject(entry) && isObject(file)) {
    const keys = [...new Set([...Object.keys(entry), ...Object.keys(file)])].sort();
    return keys.flatMap((k) =>
      frontmatterDifferences(
        Object.hasOwn(entry, k) ? entry[k] : undefined,
        Object.hasOwn(file, k) ? file[k] : undefined,
        path === "" ? k : `${path}.${k}`,
      ),
    );
  }
  return Object.is(entry, file) || (entry === 0 && file === 0)
    ? []
    : [`${label}: the entry has ${show(entry)}, SKILL.md has ${show(file)}`];
}
