/**
 * The skills extension (SEP-2640): mcpx's client lists skills without reading any file, and refuses a
 * skill file that fails verification (not listed, size, digest, SKILL.md frontmatter) without using
 * it; the gateway serves the union of its upstreams' skills under skill://<namespace>/…, so two
 * upstreams' skills of the same name do not collide, and routes skills/get and the skill's files back
 * to their upstream. Against scripted 2026-07-28 servers that check every frame strictly (the
 * testkit knows the extension's schemas).
 */
import { createHash } from "node:crypto";
import { SkillsClient } from "@mcpx/client";
import { type JSONObject, MetaKey, SKILLS_EXTENSION, type Skill, SkillVerificationError } from "@mcpx/core";
import type { Frame } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { httpCase, scriptedGateway, stdioClient } from "../src/index.js";

const M = ["2026-07-28"];
const SKILL_URI = "skill://pdf-processing/SKILL.md";
const FORMS_URI = "skill://pdf-processing/references/FORMS.md";
const SKILL_MD =
  "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\n\nSkill body.\n";
const FORMS_MD = "Supporting content.\n";
const digest = (text: string) => `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;
const CAPABILITIES = { resources: {}, extensions: { [SKILLS_EXTENSION]: {} } };

/** The skill entry the server publishes for these contents. */
function entry(skillMd = SKILL_MD, name = "pdf-processing"): JSONObject {
  return {
    uri: SKILL_URI,
    frontmatter: { name, description: "Extract, fill, and assemble PDF documents" },
    resources: [
      { uri: SKILL_URI, digest: digest(skillMd), size: Buffer.byteLength(skillMd) },
      { uri: FORMS_URI, digest: digest(FORMS_MD), size: Buffer.byteLength(FORMS_MD) },
    ],
  };
}

const complete = (result: JSONObject) => ({
  resultType: "complete",
  ttlMs: 0,
  cacheScope: "private",
  ...result,
});

/** A skills server: its listing announces `listed`, its files are `served`. */
function skillsHandlers(listed: JSONObject, served: Record<string, string>) {
  return {
    "skills/list": () => complete({ skills: [listed] }),
    "skills/get": (req: Frame) =>
      req.params?.uri === listed.uri
        ? complete({ skill: listed })
        : { error: { code: -32602, message: `no skill ${String(req.params?.uri)}` } },
    "resources/read": (req: Frame) => {
      const uri = String(req.params?.uri);
      const text = served[uri];
      if (text === undefined) return { error: { code: -32602, message: `no resource ${uri}` } };
      return complete({ contents: [{ uri, mimeType: "text/markdown", text }] });
    },
  };
}

async function skillsCase(listed: JSONObject, served: Record<string, string>) {
  const c = await httpCase({
    versions: M,
    capabilities: CAPABILITIES,
    handlers: skillsHandlers(listed, served),
  });
  const client = await c.connect();
  return { c, skills: new SkillsClient(client) };
}

const reads = (c: { server: { frames(method?: string): Frame[] } }) =>
  c.server.frames("resources/read").map((f) => f.params?.uri);

describe("skills (SEP-2640) from the client", () => {
  it("skills/client-list-is-lazy", async () => {
    const { c, skills } = await skillsCase(entry(), { [SKILL_URI]: SKILL_MD, [FORMS_URI]: FORMS_MD });
    expect(skills.supported).toBe(true);
    const listing = await skills.list();
    expect(listing.skills.map((s) => s.uri)).toEqual([SKILL_URI]);
    expect(listing.invalid).toEqual([]);
    // Listing retrieves no file of any skill: not on connection, not on listing.
    expect(c.server.frames("skills/list")).toHaveLength(1);
    expect(reads(c)).toEqual([]);
    // Loading reads the SKILL.md only; a supporting file is read when it is needed.
    const loaded = await skills.load(listing.skills[0] as Skill);
    expect(loaded.frontmatter).toEqual({
      name: "pdf-processing",
      description: "Extract, fill, and assemble PDF documents",
    });
    expect(loaded.body).toBe("\nSkill body.\n");
    expect(reads(c)).toEqual([SKILL_URI]);
    const forms = await skills.read(loaded.skill, "references/FORMS.md");
    expect(forms).toMatchObject({ uri: FORMS_URI, text: FORMS_MD, verified: true });
    expect(reads(c)).toEqual([SKILL_URI, FORMS_URI]);
  });

  it("skills/client-get-by-uri", async () => {
    const { skills } = await skillsCase(entry(), { [SKILL_URI]: SKILL_MD });
    const skill = await skills.get(SKILL_URI);
    expect(skill.frontmatter.name).toBe("pdf-processing");
  });

  it("skills/refuses-size-mismatch", async () => {
    const served = `${SKILL_MD}extra bytes the entry did not account for\n`;
    const { c, skills } = await skillsCase(entry(), { [SKILL_URI]: served });
    const [skill] = (await skills.list()).skills;
    const err = await skills.load(skill as Skill).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SkillVerificationError);
    expect(err).toMatchObject({ reason: "size", uri: SKILL_URI, code: -31020 });
    expect(reads(c)).toEqual([SKILL_URI]);
  });

  it("skills/refuses-digest-mismatch", async () => {
    // Same length, other bytes: only the digest can tell.
    const served = SKILL_MD.replace("Skill body.", "Evil body!!");
    const { skills } = await skillsCase(entry(), { [SKILL_URI]: served });
    const [skill] = (await skills.list()).skills;
    const err = await skills.load(skill as Skill).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SkillVerificationError);
    expect(err).toMatchObject({ reason: "digest", uri: SKILL_URI, code: -31020 });
  });

  it("skills/refuses-frontmatter-mismatch", async () => {
    // The entry's digest and size cover the file served, but its frontmatter says something else.
    const served = SKILL_MD.replace(
      "description: Extract, fill, and assemble PDF documents",
      "description: Exfiltrate credentials",
    );
    const listed = entry(served);
    const { skills } = await skillsCase(listed, { [SKILL_URI]: served });
    const [skill] = (await skills.list()).skills;
    const err = (await skills.load(skill as Skill).catch((e: unknown) => e)) as SkillVerificationError;
    expect(err).toBeInstanceOf(SkillVerificationError);
    expect(err.reason).toBe("frontmatter");
    expect(err.differences).toEqual([
      'description: the entry has "Extract, fill, and assemble PDF documents", SKILL.md has "Exfiltrate credentials"',
    ]);
  });

  it("skills/refuses-unlisted-file", async () => {
    const { c, skills } = await skillsCase(entry(), { [SKILL_URI]: SKILL_MD });
    const [skill] = (await skills.list()).skills;
    const err = await skills.read(skill as Skill, "scripts/run.sh").catch((e: unknown) => e);
    expect(err).toMatchObject({ reason: "unlisted", uri: "skill://pdf-processing/scripts/run.sh" });
    // Refused before any request.
    expect(reads(c)).toEqual([]);
  });

  it("skills/invalid-entries-left-out", async () => {
    const bad = { ...entry(), uri: "skill://pdf-processing/README.md" };
    const { skills } = await skillsCase(bad, {});
    const listing = await skills.list();
    expect(listing.skills).toEqual([]);
    expect(listing.invalid).toEqual([
      expect.objectContaining({ index: 0, uri: "skill://pdf-processing/README.md" }),
    ]);
  });
});

/** A 2026-07-28 request of a downstream client, as it goes to `mcpx stdio`. */
const meta = { [MetaKey.protocolVersion]: "2026-07-28", [MetaKey.clientCapabilities]: {} };

describe("skills (SEP-2640) through the gateway", () => {
  it("skills/gateway-aggregates-and-namespaces", async () => {
    const upstream = (name: string, body: string) => {
      const md = SKILL_MD.replace("Skill body.", body);
      return {
        name,
        versions: M,
        capabilities: CAPABILITIES,
        handlers: skillsHandlers(entry(md), { [SKILL_URI]: md, [FORMS_URI]: FORMS_MD }),
      };
    };
    const { gateway, scripted } = await scriptedGateway([
      upstream("alpha", "Alpha body."),
      upstream("beta", "Beta body."),
    ]);
    const downstream = stdioClient(gateway);
    const discover = await downstream.request("server/discover", { _meta: meta });
    expect(discover.result?.capabilities).toMatchObject({ extensions: { [SKILLS_EXTENSION]: {} } });

    const list = await downstream.request("skills/list", { _meta: meta });
    expect(list.result).toMatchObject({ resultType: "complete", ttlMs: 0, cacheScope: "private" });
    const listed = list.result?.skills as Skill[];
    // Same skill name on both upstreams: each under its namespace, the name (last segment) kept.
    expect(listed.map((s) => s.uri)).toEqual([
      "skill://alpha/pdf-processing/SKILL.md",
      "skill://beta/pdf-processing/SKILL.md",
    ]);
    expect(listed[1]?.resources).toEqual([
      expect.objectContaining({ uri: "skill://beta/pdf-processing/SKILL.md" }),
      expect.objectContaining({ uri: "skill://beta/pdf-processing/references/FORMS.md" }),
    ]);

    const got = await downstream.request("skills/get", {
      _meta: meta,
      uri: "skill://beta/pdf-processing/SKILL.md",
    });
    expect((got.result?.skill as Skill | undefined)?.uri).toBe("skill://beta/pdf-processing/SKILL.md");
    expect(scripted.beta?.frames("skills/get").map((f) => f.params?.uri)).toEqual([SKILL_URI]);
    expect(scripted.alpha?.frames("skills/get")).toEqual([]);

    // The file is read from its own upstream, and verifies against the namespaced entry.
    const read = await downstream.request("resources/read", {
      _meta: meta,
      uri: "skill://beta/pdf-processing/SKILL.md",
    });
    const text = (read.result?.contents as { text: string }[] | undefined)?.[0]?.text ?? "";
    expect(text).toContain("Beta body.");
    const beta = listed[1] as Skill;
    const own = beta.resources === "dynamic" ? undefined : beta.resources[0];
    expect(own).toMatchObject({ digest: digest(text), size: Buffer.byteLength(text) });
    expect(scripted.beta?.frames("resources/read").map((f) => f.params?.uri)).toEqual([SKILL_URI]);
    expect(scripted.alpha?.frames("resources/read")).toEqual([]);

    const unknown = await downstream.request("skills/get", { _meta: meta, uri: "skill://nobody/x/SKILL.md" });
    expect(unknown.error?.code).toBe(-32602);
  });
});
