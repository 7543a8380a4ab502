import type { Env } from "@mcpx/config";

/** Where a command writes, and the process state it reads; tests pass their own. */
export interface MainIO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Relative paths on the command line are resolved from here (default process.cwd()). */
  cwd?: string;
  /** Where `${env:NAME}` is looked up (default process.env). */
  env?: Env;
}

export const processIO: MainIO = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};
