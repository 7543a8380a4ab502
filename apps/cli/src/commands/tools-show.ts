/**
 * `mcpx tools show <tool>`: one tool as a person reads it (its signature, description, each
 * parameter, the output schema when it has one, its annotations), or with --json the tool exactly
 * as mcpx lists it to its clients.
 */
import type { JSONObject } from "@mcpx/core";
import type { MainIO } from "../io.js";
import { findItem, serversFor } from "../lookup.js";
import { printJson, type UpstreamOptions, withUpstreams } from "../one-shot.js";
import { forTerminal } from "../render.js";
import { parameters, signature, typeText } from "../signature.js";
import { type Style, styleFor, table } from "../style.js";

export async function toolsShow(name: string, opts: UpstreamOptions, io: MainIO): Promise<number> {
  const tool = await withUpstreams(opts, io, (rt) => findItem(rt, "tools", name), serversFor(name));
  if (opts.json) printJson(io, tool);
  else io.stdout(render(tool, styleFor(io)));
  return 0;
}

function render(tool: JSONObject, style: Style): string {
  // Everything here is the upstream's text: shown without control characters.
  const clean = (v: unknown) => forTerminal(String(v));
  const sections = [style.paint("bold", clean(signature(tool)))];
  const title = typeof tool.title === "string" ? tool.title : undefined;
  const description = typeof tool.description === "string" ? tool.description.trim() : "";
  if (title || description) sections.push(clean([title, description].filter(Boolean).join("\n\n")));
  const params = parameters(tool.inputSchema);
  if (params.length > 0) {
    const rows = params.map((p) => [
      { text: clean(p.name), colour: "cyan" as const },
      { text: clean(`${p.type}${p.required ? "" : ", optional"}`) },
      {
        text: clean(
          [
            p.description?.trim().split("\n")[0],
            "default" in p ? `(default ${JSON.stringify(p.default)})` : "",
          ]
            .filter(Boolean)
            .join(" "),
        ),
        colour: "dim" as const,
      },
    ]);
    sections.push(`Parameters:\n${table(rows, style, "  ").trimEnd()}`);
  }
  if (typeof tool.outputSchema === "object" && tool.outputSchema !== null) {
    sections.push(`Output:\n  ${clean(typeText(tool.outputSchema))}`);
  }
  const annotations = tool.annotations;
  if (typeof annotations === "object" && annotations !== null && Object.keys(annotations).length > 0) {
    const rows = Object.entries(annotations as JSONObject).map(([k, v]) => [
      { text: clean(k) },
      { text: clean(typeof v === "string" ? v : JSON.stringify(v)) },
    ]);
    sections.push(`Annotations:\n${table(rows, style, "  ").trimEnd()}`);
  }
  return `${sections.join("\n\n")}\n`;
}
