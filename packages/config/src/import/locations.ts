/**
 * Where each host keeps its MCP config, user-wide and in the current project, on macOS, Windows and
 * Linux: what `mcpx config init` looks for. Only files that exist are returned.
 */
import { access } from "node:fs/promises";
import * as path from "node:path";
import type { HostFormat } from "./types.js";

export interface HostConfigFile {
  format: HostFormat;
  path: string;
}

export interface LocateOptions {
  home: string;
  /** The project: its `.vscode/mcp.json`, `.cursor/mcp.json`, `.mcp.json`, `.codex/config.toml`. */
  cwd: string;
  platform?: NodeJS.Platform;
  env?: Readonly<Record<string, string | undefined>>;
}

/** Every place a host's MCP config may be, in a stable order (user files, then the project's). */
export function hostConfigPaths(options: LocateOptions): HostConfigFile[] {
  const { home, cwd } = options;
  const env = options.env ?? {};
  const platform = options.platform ?? process.platform;
  // Where desktop apps keep their settings (Electron's userData parent).
  const appData =
    platform === "darwin"
      ? path.join(home, "Library", "Application Support")
      : platform === "win32"
        ? (env.APPDATA ?? path.join(home, "AppData", "Roaming"))
        : (env.XDG_CONFIG_HOME ?? path.join(home, ".config"));
  const codexHome = env.CODEX_HOME ?? path.join(home, ".codex");
  return [
    { format: "claude-desktop", path: path.join(appData, "Claude", "claude_desktop_config.json") },
    { format: "cursor", path: path.join(home, ".cursor", "mcp.json") },
    { format: "vscode", path: path.join(appData, "Code", "User", "mcp.json") },
    { format: "vscode", path: path.join(appData, "Code", "User", "settings.json") },
    { format: "windsurf", path: path.join(home, ".codeium", "windsurf", "mcp_config.json") },
    { format: "codex", path: path.join(codexHome, "config.toml") },
    { format: "claude-desktop", path: path.join(cwd, ".mcp.json") },
    { format: "cursor", path: path.join(cwd, ".cursor", "mcp.json") },
    { format: "vscode", path: path.join(cwd, ".vscode", "mcp.json") },
    { format: "codex", path: path.join(cwd, ".codex", "config.toml") },
  ];
}

/** The host config files that exist. */
export async function findHostConfigs(options: LocateOptions): Promise<HostConfigFile[]> {
  const all = hostConfigPaths(options);
  const seen = new Set<string>();
  const found: HostConfigFile[] = [];
  for (const candidate of all) {
    if (seen.has(candidate.path)) continue;
    seen.add(candidate.path);
    try {
      await access(candidate.path);
      found.push(candidate);
    } catch {}
  }
  return found;
}
