/**
 * Output for a person at a terminal: colour and columns aligned to the terminal's width, only when
 * stdout is a terminal. Piped output, and --json, carry no escape codes and no padding, so what a
 * script reads does not depend on where it runs.
 *
 * Colour follows the conventions tools share: NO_COLOR set and not empty turns it off
 * (https://no-color.org); FORCE_COLOR turns it on even when piped (FORCE_COLOR=0 or "false" off);
 * TERM=dumb turns it off. NO_COLOR wins over FORCE_COLOR. The colours are node:util's styleText.
 */
import { styleText } from "node:util";
import type { MainIO } from "./io.js";

export type Colour = "bold" | "dim" | "cyan" | "green" | "red" | "yellow";

export interface Style {
  /** Whether escape codes are written. */
  readonly colour: boolean;
  /** Whether columns are padded to line up (a terminal) and lines cut to its width. */
  readonly aligned: boolean;
  /** The terminal's width when aligned. */
  readonly width: number;
  paint(colour: Colour | undefined, text: string): string;
}

export function wantsColour(io: MainIO, json: boolean): boolean {
  if (json) return false;
  const env = io.env ?? process.env;
  if (env.NO_COLOR) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== "") return force !== "0" && force !== "false";
  return io.isTTY === true && env.TERM !== "dumb";
}

export function styleFor(io: MainIO, json = false): Style {
  const colour = wantsColour(io, json);
  return {
    colour,
    aligned: io.isTTY === true && !json,
    width: io.columns && io.columns > 20 ? io.columns : 80,
    // validateStream off: whether to colour is decided above, for the stream the CLI writes to.
    paint: (c, text) => (colour && c && text ? styleText(c, text, { validateStream: false }) : text),
  };
}

export interface Cell {
  text: string;
  colour?: Colour;
}

/**
 * Rows of cells, two spaces apart. On a terminal every column but the last is padded to its widest
 * cell and a line longer than the terminal is cut with "…"; piped, cells are written as they are.
 */
export function table(rows: readonly (readonly Cell[])[], style: Style, indent = ""): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.text.length);
    });
  }
  const lines = rows.map((full) => {
    // No trailing separator for a row whose last cells are empty (a tool without a description).
    let end = full.length;
    while (end > 1 && full[end - 1]?.text === "") end--;
    const row = full.slice(0, end);
    let used = indent.length;
    const parts = row.map((cell, i) => {
      const last = i === row.length - 1;
      let text = style.aligned && !last ? cell.text.padEnd(widths[i] ?? 0) : cell.text;
      if (style.aligned && last) text = cut(text, style.width - used);
      used += text.length + 2;
      return style.paint(cell.colour, text);
    });
    return `${indent}${parts.join("  ")}`;
  });
  return lines.length ? `${lines.join("\n")}\n` : "";
}

/** The text cut to `room` characters, its end marked. */
export function cut(text: string, room: number): string {
  if (text.length <= room) return text;
  return room <= 1 ? "…".slice(0, Math.max(0, room)) : `${text.slice(0, room - 1)}…`;
}
