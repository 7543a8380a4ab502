/**
 * `mcpx skills list|get`: the skills (SEP-2640) of the configured servers, as a client of mcpx sees
 * them (skill://<namespace>/<skill-path>/SKILL.md). `get` loads one: its SKILL.md read and verified
 * against its upstream's entry (size, digest, frontmatter) before any of it is shown.
 */
import type { JSONObject } from "@mcpx/core";
import { UsageError } from "../errors.js";
import type { MainIO } from "../io.js";
import { printJson, type UpstreamOptions, withUpstreams } from "../one-shot.js";
import { forTerminal } from "../render.js";
import { type Cell, styleFor, table } from "../style.js";

/** `skill://alpha/pdf-processing/SKILL.md` → `alpha/pdf-processing`: what a person types. */
function skillPath(uri: string): string {
  return uri.replace(/^skill:\/\//, "").replace(/\/SKILL\.md$/, "");
}

const frontmatterOf = (skill: JSONObject) =>
  (skill.frontmatter ?? {}) as { name?: unknown; description?: unknown };

export async function skillsList(opts: UpstreamOptions, io: MainIO): Promise<number> {
  const skills = await withUpstreams(opts, io, ({ gateway }) => gateway.skills.all());
  if (opts.json) {
    printJson(io, { skills });
    return 0;
  }
  const rows: Cell[][] = skills.map((s) => [
    { text: forTerminal(skillPath(String(s.uri))), colour: "cyan" },
    { text: forTerminal(String(frontmatterOf(s).description ?? "").split("\n")[0] ?? ""), colour: "dim" },
  ]);
  io.stdout(table(rows, styleFor(io)));
  return 0;
}

/** The skill `name` names: its URI, its path (`alpha/pdf-processing`), or its name when only one has it. */
function pick(skills: readonly JSONObject[], name: string): JSONObject {
  const exact = skills.find((s) => s.uri === name || skillPath(String(s.uri)) === name);
  if (exact) return exact;
  const named = skills.filter((s) => frontmatterOf(s).name === name);
  if (named.length === 1 && named[0]) return named[0];
  if (named.length > 1) {
    throw new UsageError(
      `${named.length} skills are named ${name}`,
      `name one by its path: ${named.map((s) => skillPath(String(s.uri))).join(", ")}`,
    );
  }
  throw new UsageError(`no skill ${name}`, "`mcpx skills list` shows them");
}

export async function skillsGet(name: string, opts: UpstreamOptions, io: MainIO): Promise<number> {
  return withUpstreams(opts, io, async ({ gateway }) => {
    const chosen = pick(await gateway.skills.all(), name);
    const loaded = await gateway.skills.load(String(chosen.uri));
    if (opts.json) {
      printJson(io, { skill: loaded.skill, frontmatter: loaded.frontmatter, body: loaded.body });
      return 0;
    }
    io.stdout(forTerminal(loaded.manifest.text ?? loaded.manifest.bytes.toString("utf8")));
    return 0;
  });
}
