import type { Env } from "@mcpx/config";
import { processTerminal, type Terminal } from "./terminal.js";

/** Where a command writes, and the process state it reads; tests pass their own. */
export interface MainIO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Relative paths on the command line are resolved from here (default process.cwd()). */
  cwd?: string;
  /** Where `${env:NAME}` is looked up (default process.env). */
  env?: Env;
  /** Whether stdout is a terminal: colour and aligned columns then (never when piped). */
  isTTY?: boolean;
  /** The terminal's width, when stdout is one. */
  columns?: number;
  /** A person at the terminal (stderr is one): progress drawn, questions asked there (terminal.ts). */
  terminal?: Terminal;
}

export const processIO: MainIO = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  isTTY: process.stdout.isTTY === true,
  ...(process.stdout.columns ? { columns: process.stdout.columns } : {}),
  terminal: processTerminal(),
};
