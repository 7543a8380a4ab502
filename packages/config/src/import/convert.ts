/** A host's config file in, mcpx server entries and warnings out. */
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import * as path from "node:path";
import { ConfigError, formatKeyPath } from "@mcpx/core";
import type { ServerEntryFile } from "../types.js";
import { toEntry } from "./entry.js";
import { formatFromPath, formatFromShape, HOSTS, parseHostText } from "./formats.js";
import { settleNamespaces } from "./names.js";
import { envReferences } from "./placeholders.js";
import type { ReadContext } from "./read.js";
import { Report } from "./report.js";
import type { ImportOptions, ImportResult, ImportWarning } from "./types.js";

const WHERE = {
  "claude-desktop": '"mcpServers"',
  cursor: '"mcpServers"',
  windsurf: '"mcpServers"',
  vscode: '"servers" (or "mcp": { "servers" } in settings.json)',
  codex: "[mcp_servers.<name>] tables",
} as const;

/** Reads a host's config file and converts it. Throws ConfigError naming the file. */
export async function importHostFile(
  file: string,
  options: Omit<ImportOptions, "path"> = {},
): Promise<ImportResult> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (err as Error).message;
    throw new ConfigError(
      `${file}: cannot read the host config: ${reason}`,
      [`cannot read the host config: ${reason}`],
      {
        cause: err,
      },
    );
  }
  return importHostConfig(text, { ...options, path: file });
}

/** Converts a host config's text. Throws ConfigError when it cannot be read or holds no servers. */
export function importHostConfig(text: string, options: ImportOptions = {}): ImportResult {
  const label = options.path ?? "(host config)";
  let format = options.format ?? (options.path === undefined ? undefined : formatFromPath(options.path));
  const doc = parseHostText(text, format, label);
  format ??= formatFromShape(doc);
  if (format === undefined) {
    const problem =
      'not an MCP host config: it has no "mcpServers" (Claude Desktop, Cursor, Windsurf), "servers" (VS Code) or [mcp_servers] (Codex)';
    throw new ConfigError(`${label}: ${problem}`, [problem]);
  }
  const host = HOSTS[format];
  const report = new Report();
  const workspace = options.path === undefined ? undefined : workspaceFolder(options.path, options.home);
  const ctx: ReadContext = {
    report,
    rules: { bareEnv: host.bareEnv, ...(workspace === undefined ? {} : { workspaceFolder: workspace }) },
    ...(options.path === undefined ? {} : { baseDir: workspace ?? path.dirname(path.resolve(options.path)) }),
  };
  const read = host.read(doc, ctx);
  if (read === undefined) {
    const problem = `has no ${WHERE[format]}, where a ${host.label} config keeps its MCP servers`;
    throw new ConfigError(`${label}: ${problem}`, [problem]);
  }

  const servers: Record<string, ServerEntryFile> = {};
  const skipped: string[] = [];
  const at = new Map<string, string>();
  for (const server of read) {
    const entry = toEntry(server, report);
    if (entry === undefined) skipped.push(server.key);
    else servers[server.key] = entry;
    at.set(server.key, formatKeyPath([...report.serversAt, server.key]));
  }
  settleNamespaces(servers, new Set(), (name, message) =>
    report.warnings.push({ server: name, at: at.get(name) ?? name, message }),
  );
  // Each server's warnings together, in the file's order (those about no server first).
  const order = new Map(read.map((server, i) => [server.key, i]));
  const rank = (w: ImportWarning) => (w.server === undefined ? -1 : (order.get(w.server) ?? -1));
  return {
    format,
    ...(options.path === undefined ? {} : { source: options.path }),
    servers,
    skipped,
    warnings: report.warnings
      .map((w, i) => ({ w, i }))
      .sort((a, b) => rank(a.w) - rank(b.w) || a.i - b.i)
      .map((x) => x.w),
    env: envOf(servers),
  };
}

/**
 * The project folder of a project's host file (`<project>/.vscode/mcp.json`, `.cursor/mcp.json`,
 * `.codex/config.toml`, `.mcp.json`): what `${workspaceFolder}` means there. A user-level file has none.
 */
function workspaceFolder(file: string, home = homedir()): string | undefined {
  const abs = path.resolve(file);
  const dir = path.dirname(abs);
  if (path.basename(abs) === ".mcp.json") return dir;
  const parent = path.dirname(dir);
  // ~/.cursor/mcp.json and ~/.codex/config.toml are the user's own, not a project's.
  if ([".vscode", ".cursor", ".codex"].includes(path.basename(dir)) && parent !== home) return parent;
  return undefined;
}

/** Every variable the entries read without a default, sorted. */
export function envOf(servers: Record<string, ServerEntryFile>): string[] {
  const names = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === "string") for (const n of envReferences(v)) names.add(n);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === "object" && v !== null) Object.values(v).forEach(walk);
  };
  walk(servers);
  return [...names].sort();
}
