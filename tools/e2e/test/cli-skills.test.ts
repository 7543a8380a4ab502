/**
 * `mcpx skills list|get` without a daemon, against a real skills upstream (the official SDK v2's
 * skills extension over stdio): the listing under the server's namespace, and a skill loaded (its
 * SKILL.md verified against the entry) by path or by name.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { configDir, mcpx } from "../src/index.js";

const SKILLS_SERVER = fileURLToPath(new URL("../fixtures/sdk-v2-skills-server.mjs", import.meta.url));

describe("mcpx skills", () => {
  it("cli/skills-list-and-get", async () => {
    const dir = await configDir({ servers: { kb: { command: process.execPath, args: [SKILLS_SERVER] } } });
    const list = await mcpx(dir, "skills", "list");
    expect(list.stderr).toBe("");
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^kb\/pdf-processing +Extract, fill, and assemble PDF documents$/m);
    expect(list.stdout).toMatch(/^kb\/release-notes +Write release notes from merged changes$/m);

    const json = JSON.parse((await mcpx(dir, "skills", "list", "--json")).stdout) as {
      skills: { uri: string; resources: { uri: string }[] }[];
    };
    const pdf = json.skills.find((s) => s.uri === "skill://kb/pdf-processing/SKILL.md");
    expect(pdf?.resources.map((r) => r.uri).sort()).toEqual([
      "skill://kb/pdf-processing/SKILL.md",
      "skill://kb/pdf-processing/references/FORMS.md",
    ]);

    const get = await mcpx(dir, "skills", "get", "kb/pdf-processing");
    expect(get.code).toBe(0);
    expect(get.stdout).toBe(
      "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\n\nRead references/FORMS.md first.\n",
    );
    const byName = JSON.parse((await mcpx(dir, "skills", "get", "release-notes", "--json")).stdout);
    expect(byName).toMatchObject({
      skill: { uri: "skill://kb/release-notes/SKILL.md" },
      frontmatter: { name: "release-notes", description: "Write release notes from merged changes" },
      body: "\nGroup by package.\n",
    });
    const missing = await mcpx(dir, "skills", "get", "nope");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no skill nope");
  });
});
