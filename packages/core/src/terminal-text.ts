/**
 * Text from a peer (a name, a description, a question, tool output) as a terminal may show it: escape
 * sequences and control characters removed, so it cannot repaint the terminal, set its title, write to
 * the clipboard (OSC 52) or reorder what is read with bidi controls (CVE-2021-42574, "Trojan Source").
 * Shared by everything that prints for a person: the CLI and the terminal elicitation handler. Text
 * meant for a program (JSON output, frames) keeps what it came with.
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

/** Peer text as a terminal should show it: escape sequences and control characters removed. */
export function forTerminal(text: string): string {
  return text.replace(SEQUENCES, "").replace(CONTROLS, "");
}

/** The same on one line (a title or a default must not break the prompt or the row it sits in). */
export function oneLine(text: string): string {
  return forTerminal(text).replace(/\s+/g, " ").trim();
}
