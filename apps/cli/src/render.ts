/**
 * Text for a person at a terminal. What an upstream wrote (names, titles, descriptions, URIs, tool
 * output) is printed without its control characters: an escape sequence in a description would
 * otherwise repaint the user's terminal, set its title or write to the clipboard (OSC 52), and a
 * bidi control reorders what is read (CVE-2021-42574). --json output keeps the text as it came.
 */

// ESC-introduced or 8-bit C1 string commands (OSC, DCS, SOS, PM, APC) up to their terminator, with
// their payload; then CSI sequences; then any other escape sequence (ECMA-48 §5.3–5.6).
const SEQUENCES =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)|(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|\u001b[ -/]*[0-~]/g;
// Whatever is left: C0 controls but tab and newline, DEL, C1 controls, and the bidi controls.
const CONTROLS =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Upstream text as a terminal should show it: escape sequences and control characters removed. */
export function forTerminal(text: string): string {
  return text.replace(SEQUENCES, "").replace(CONTROLS, "");
}

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
