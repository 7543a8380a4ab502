/**
 * The skills the fixture upstream offers (SEP-2640), served by the official SDK's skills extension
 * from memory: one skill with a subdirectory, so every server scenario of the extension finds what
 * it looks for through mcpx (the listing, skills/get, the SKILL.md resource, a directory to read).
 */
import type { McpServer } from "@modelcontextprotocol/server";
import { memorySkillFiles, SkillsExtension } from "@modelcontextprotocol/server/ext/skills";

const SKILL_MD = `---
name: pdf-processing
description: Extract, fill, and assemble PDF documents
---

# PDF processing

Read references/FORMS.md before filling a form.
`;

const FORMS_MD = `# Forms

Fill each field in order.
`;

// One catalog for the process: the SDK builds a server per connection, and each gets it attached.
const catalog = await SkillsExtension.load(
  memorySkillFiles({ "pdf-processing/SKILL.md": SKILL_MD, "pdf-processing/references/FORMS.md": FORMS_MD }),
  { onWarning: (w) => process.stderr.write(`fixture skills: ${w.path}: ${w.message}\n`) },
);

/** Serves the skills on `server` (before it connects). */
export function skills(server: McpServer): void {
  catalog.attach(server);
}
