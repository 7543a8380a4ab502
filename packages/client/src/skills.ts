/**
 * The host side of the skills extension (SEP-2640) over one upstream connection: list and get skill
 * entries, and read a skill's files verified against its entry. Lazy by design: listing reads no
 * file (hosts MUST NOT retrieve a skill's files ahead of need); `load` reads the SKILL.md only, and
 * `read` one file when it is needed. Every file read is checked before it is returned: listed in the
 * entry, its size, its SHA-256 digest, and for the SKILL.md its frontmatter against the entry's.
 * A check that fails is a SkillVerificationError and the content is not returned (MUST NOT use
 * unverified content); a cached copy that fails is fetched once more from the server.
 */
import { createHash } from "node:crypto";
import {
  InvalidParamsError,
  InvalidResultError,
  type JSONObject,
  type Result,
  type Skill,
  SkillsMethod,
  SkillVerificationError,
  skillRoot,
  skillsCapabilityOf,
} from "@mcpx/core";
import type { UpstreamClient } from "./connection.js";
import type { RequestOptions } from "./engine.js";
import { entryProblems, type InvalidSkillEntry, partitionEntries } from "./skill-entries.js";
import { frontmatterDifferences, parseSkillMarkdown } from "./skill-frontmatter.js";

export interface SkillListing {
  skills: Skill[];
  /** Entries refused (malformed, or a uri listed twice): never offered to a user. */
  invalid: InvalidSkillEntry[];
}

/** A skill file as read and verified. */
export interface SkillFile {
  uri: string;
  mimeType?: string;
  /** The bytes the entry's digest covers. */
  bytes: Buffer;
  text?: string;
  /** Size and digest were checked: false only for a "dynamic" skill, which publishes none. */
  verified: boolean;
}

/** A skill whose SKILL.md was read and verified: what a host may now put before a model. */
export interface LoadedSkill {
  skill: Skill;
  manifest: SkillFile;
  frontmatter: Record<string, unknown>;
  body: string;
}

export class SkillsClient {
  readonly #client: UpstreamClient;

  constructor(client: UpstreamClient) {
    this.#client = client;
  }

  /** Whether the server declared io.modelcontextprotocol/skills. */
  get supported(): boolean {
    return skillsCapabilityOf(this.#client.negotiated.serverCapabilities) !== undefined;
  }

  /** Whether the server serves resources/directory/read. */
  get directoryRead(): boolean {
    return skillsCapabilityOf(this.#client.negotiated.serverCapabilities)?.directoryRead === true;
  }

  /** Every skill entry of every page; nothing is read. A server without the extension has none. */
  async list(opts?: RequestOptions): Promise<SkillListing> {
    if (!this.supported) return { skills: [], invalid: [] };
    const raw = await this.#client.list<unknown>(SkillsMethod.list, "skills", undefined, opts);
    return partitionEntries(raw);
  }

  /** One skill's entry by its SKILL.md URI, listed or not. */
  async get(uri: string, opts?: RequestOptions): Promise<Skill> {
    this.#requireSupport(SkillsMethod.get);
    const result = await this.#client.request(SkillsMethod.get, { uri }, opts);
    const problems = entryProblems(result.skill);
    if (problems.length > 0) {
      throw new InvalidResultError(`skills/get returned an invalid entry for ${uri}: ${problems.join("; ")}`);
    }
    const skill = result.skill as Skill;
    if (skill.uri !== uri) throw new InvalidResultError(`skills/get for ${uri} returned ${skill.uri}`);
    return skill;
  }

  /** Reads and verifies the skill's SKILL.md: the skill may be used only if this succeeds. */
  async load(skill: Skill, opts?: RequestOptions): Promise<LoadedSkill> {
    const manifest = await this.read(skill, undefined, opts);
    // read() verified the frontmatter; parsed again here for the caller (cheap, and no state kept).
    const { frontmatter, body } = parseSkillMarkdown(manifest.text ?? manifest.bytes.toString("utf8"));
    return { skill, manifest, frontmatter, body };
  }

  /**
   * One file of the skill, verified: `ref` is a path relative to the skill's directory
   * (`references/FORMS.md`) or an absolute URI; the default is the SKILL.md.
   */
  async read(skill: Skill, ref?: string, opts: RequestOptions = {}): Promise<SkillFile> {
    const problems = entryProblems(skill);
    if (problems.length > 0) {
      throw new InvalidParamsError(
        `${String(skill?.uri)} is not a valid skill entry: ${problems.join("; ")}`,
      );
    }
    this.#requireSupport("resources/read");
    const target = resolveTarget(skill, ref);
    const params = { uri: target.uri };
    const cached = this.#client.isCached("resources/read", params, opts.authContext);
    const result = await this.#client.request("resources/read", params, opts);
    try {
      return verify(skill, target, result);
    } catch (err) {
      if (!(err instanceof SkillVerificationError) || !cached) throw err;
      // A cached copy that fails verification is fetched again, never used (SEP-2640).
      return verify(
        skill,
        target,
        await this.#client.request("resources/read", params, { ...opts, refresh: true }),
      );
    }
  }

  /** The direct children of a skill directory (every page), where the server declared directoryRead. */
  async readDirectory(uri: string, opts?: RequestOptions): Promise<JSONObject[]> {
    if (!this.directoryRead) {
      throw new InvalidParamsError(`upstream ${this.#client.name} does not serve resources/directory/read`);
    }
    return this.#client.list<JSONObject>(SkillsMethod.directoryRead, "resources", { uri }, opts);
  }

  #requireSupport(method: string): void {
    if (!this.supported) {
      throw new InvalidParamsError(
        `upstream ${this.#client.name} does not declare the skills extension (needed for ${method})`,
      );
    }
  }
}

interface Target {
  uri: string;
  /** The entry's triple for the file; undefined for a "dynamic" skill. */
  listed: { uri: string; digest: string; size: number } | undefined;
  manifest: boolean;
}

/** The file `ref` names, which must be the skill's: refused before any request when it is not listed. */
function resolveTarget(skill: Skill, ref: string | undefined): Target {
  const root = skillRoot(skill.uri) as string;
  let uri: string;
  try {
    const url = new URL(ref ?? skill.uri, `${root}/`);
    url.hash = "";
    uri = url.href;
  } catch {
    throw new SkillVerificationError("unlisted", String(ref), `${String(ref)} is not a URI reference`);
  }
  const manifest = uri === skill.uri;
  if (skill.resources === "dynamic") {
    if (!manifest && !uri.startsWith(`${root}/`)) {
      throw new SkillVerificationError("unlisted", uri, `${uri} is not a file of the skill ${skill.uri}`);
    }
    return { uri, listed: undefined, manifest };
  }
  const listed = skill.resources.find((r) => r.uri === uri);
  if (!listed)
    throw new SkillVerificationError("unlisted", uri, `${uri} is not a file of the skill ${skill.uri}`);
  return { uri, listed, manifest };
}

/** The checks of SEP-2640 §Integrity and verification, in order: size, digest, frontmatter. */
function verify(skill: Skill, target: Target, result: Result): SkillFile {
  const { uri, listed } = target;
  const contents = Array.isArray(result.contents) ? (result.contents as JSONObject[]) : [];
  const content = contents.find((c) => c.uri === uri) ?? (contents.length === 1 ? contents[0] : undefined);
  if (!content) throw new InvalidResultError(`resources/read returned no contents for ${uri}`);
  const text = typeof content.text === "string" ? content.text : undefined;
  if (text === undefined && typeof content.blob !== "string") {
    throw new InvalidResultError(`resources/read returned neither text nor blob for ${uri}`);
  }
  const bytes = text !== undefined ? Buffer.from(text, "utf8") : Buffer.from(String(content.blob), "base64");
  if (listed) {
    // A size mismatch is a verification failure whether or not the digest is computed.
    if (bytes.byteLength !== listed.size) {
      throw new SkillVerificationError(
        "size",
        uri,
        `${uri} is ${bytes.byteLength} bytes; the skill entry lists ${listed.size}`,
      );
    }
    const digest = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
    if (digest !== listed.digest) {
      throw new SkillVerificationError(
        "digest",
        uri,
        `${uri} has digest ${digest}; the skill entry lists ${listed.digest}`,
      );
    }
  }
  const file: SkillFile = { uri, bytes, verified: listed !== undefined };
  if (typeof content.mimeType === "string") file.mimeType = content.mimeType;
  if (text !== undefined) file.text = text;
  if (!target.manifest) return file;
  let parsed: Record<string, unknown>;
  try {
    parsed = parseSkillMarkdown(text ?? bytes.toString("utf8")).frontmatter;
  } catch (err) {
    throw new SkillVerificationError(
      "frontmatter",
      uri,
      `the frontmatter of ${uri} cannot be read: ${(err as Error).message}`,
    );
  }
  const differences = frontmatterDifferences(skill.frontmatter, parsed);
  if (differences.length > 0) {
    throw new SkillVerificationError(
      "frontmatter",
      uri,
      `the frontmatter of ${uri} differs from the skill entry: ${differences.join("; ")}`,
      differences,
    );
  }
  return file;
}
