/**
 * The skills extension (SEP-2640, `io.modelcontextprotocol/skills`): a server publishes Agent Skills
 * as resources, enumerated by `skills/list` and `skills/get`, each entry carrying the SKILL.md
 * frontmatter and every file's digest and size so a host can verify what it reads. The shapes and
 * names both sides share; the behaviour is in @mcpx/client (the host side) and @mcpx/gateway.
 */
import type { JSONObject } from "./jsonrpc.js";
import type { ServerCapabilities } from "./mcp.js";

export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

export const SkillsMethod = {
  list: "skills/list",
  get: "skills/get",
  /** Optional: a server that declares `directoryRead: true` serves it. */
  directoryRead: "resources/directory/read",
} as const;

/** The file every skill has at its root; a skill's `uri` is that file's. */
export const SKILL_MANIFEST = "SKILL.md";

/** The mimeType a directory resource carries (resources/directory/read). */
export const DIRECTORY_MIME_TYPE = "inode/directory";

/** One file of a skill: its URI, the SHA-256 of its raw bytes (`sha256:<64 hex>`) and their length. */
export interface SkillResourceEntry {
  uri: string;
  digest: string;
  size: number;
  [key: string]: unknown;
}

/** The SKILL.md YAML frontmatter rendered as JSON, verbatim; name and description always present. */
export interface SkillFrontmatter {
  name: string;
  description: string;
  [key: string]: unknown;
}

/** One skill entry, as skills/list and skills/get carry it. */
export interface Skill {
  /** The skill's SKILL.md URI (`skill://<skill-path>/SKILL.md`). */
  uri: string;
  frontmatter: SkillFrontmatter;
  /** Every file of the skill, SKILL.md included, or "dynamic" (no manifest published). */
  resources: SkillResourceEntry[] | "dynamic";
  _meta?: JSONObject;
  [key: string]: unknown;
}

export interface SkillsCapability {
  directoryRead?: boolean;
  [key: string]: unknown;
}

/** What a server declared for the skills extension; undefined when it did not declare it. */
export function skillsCapabilityOf(caps: ServerCapabilities | undefined): SkillsCapability | undefined {
  const declared = caps?.extensions?.[SKILLS_EXTENSION];
  return typeof declared === "object" && declared !== null && !Array.isArray(declared)
    ? (declared as SkillsCapability)
    : undefined;
}

/** The directory of a skill (its SKILL.md URI without `/SKILL.md`); undefined for another URI. */
export function skillRoot(uri: string): string | undefined {
  const tail = `/${SKILL_MANIFEST}`;
  return uri.endsWith(tail) && uri.indexOf("://") >= 0 ? uri.slice(0, -tail.length) : undefined;
}
