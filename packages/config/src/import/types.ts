/** What importing a host's MCP config gives: mcpx server entries, and every warning on the way. */
import type { ServerEntryFile, TimeoutsFile, ToolFilter } from "../types.js";

/** The MCP hosts whose config files mcpx imports. */
export const HOST_FORMATS = ["claude-desktop", "cursor", "vscode", "windsurf", "codex"] as const;
export type HostFormat = (typeof HOST_FORMATS)[number];

export interface ImportWarning {
  /** The host server it is about (its key in the host file), if any. */
  server?: string;
  /** The key path in the host file, e.g. `mcpServers.github.env.GITHUB_TOKEN`. */
  at: string;
  message: string;
}

export interface ImportResult {
  format: HostFormat;
  /** The host file, when the text came from one. */
  source?: string;
  /** The mcpx server entries by name, in the host file's order. */
  servers: Record<string, ServerEntryFile>;
  /** Host servers left out (they cannot be expressed in mcpx), with why in `warnings`. */
  skipped: string[];
  warnings: ImportWarning[];
  /** Every variable the entries read with `${env:NAME}`: to be set where mcpx runs. */
  env: string[];
}

export interface ImportOptions {
  /** The host file the text came from: picks the format, and resolves `${workspaceFolder}` and a relative `cwd`. */
  path?: string;
  /** The format, when the path and the shape do not tell. */
  format?: HostFormat;
  /** The user's home (default os.homedir()): `~/.cursor` and `~/.codex` are the user's, not a project's. */
  home?: string;
}

/** One host server, read with the host's own rules, before it becomes an mcpx entry. */
export interface HostServer {
  /** Its key in the host file. */
  key: string;
  /** The key path of the entry in the host file. */
  at: (string | number)[];
  command?: string;
  args?: string[];
  cwd?: string;
  env?: Record<string, string>;
  url?: string;
  transport?: string;
  headers?: Record<string, string>;
  disabled?: boolean;
  tools?: ToolFilter;
  timeouts?: TimeoutsFile;
}
