/**
 * Text for a person at a terminal. What an upstream wrote (names, titles, descriptions, URIs, tool
 * output) is printed through core's forTerminal, without its control characters; --json output
 * keeps the text as it came.
 */
import { forTerminal } from "@mcpx/core";

export { forTerminal };

/** Content blocks as a person reads them: text as text, anything else as a one-line summary. */
export function renderContent(content: unknown): string {
  if (!Array.isArray(content)) return "";
  const out: string[] = [];
  for (const block of content as Record<string, unknown>[]) {
    if (block.type === "text" && typeof block.text === "string") out.push(block.text);
    else if (block.type === "resource" && typeof block.resource === "object" && block.resource !== null) {
      const r = block.resource as Record<string, unknown>;
      out.push(typeof r.text === "string" ? r.text : `[resource ${String(r.uri)}]`);
    } else if (block.type === "resource_link") out.push(`[link ${String(block.uri)}]`);
    else out.push(`[${String(block.type)}${typeof block.mimeType === "string" ? ` ${block.mimeType}` : ""}]`);
  }
  return out.length ? `${forTerminal(out.join("\n"))}\n` : "";
}
