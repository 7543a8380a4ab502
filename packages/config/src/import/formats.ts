/**
 * Which host wrote a file (from its path, else its shape), and reading it: JSON with comments and
 * trailing commas for the JSON hosts (VS Code and Cursor accept both), TOML for Codex.
 */
import * as path from "node:path";
import { ConfigError } from "@mcpx/core";
import type { ParseError } from "jsonc-parser";
import { lineAndColumn } from "../json.js";
import { claudeDesktop } from "./claude.js";
import { codex } from "./codex.js";
import { cursor } from "./cursor.js";
import { jsoncParser, tomlParser } from "./lazy.js";
import type { HostDefinition } from "./read.js";
import { isObject } from "./read.js";
import type { HostFormat } from "./types.js";
import { vscode } from "./vscode.js";
import { windsurf } from "./windsurf.js";

export const HOSTS: Readonly<Record<HostFormat, HostDefinition>> = {
  "claude-desktop": claudeDesktop,
  cursor,
  vscode,
  windsurf,
  codex,
};

/** Each host's name, for people. */
export const HOST_LABELS: Readonly<Record<HostFormat, string>> = Object.fromEntries(
  Object.entries(HOSTS).map(([format, host]) => [format, host.label]),
) as Record<HostFormat, string>;

/** The format a file's path names, if it names one. */
export function formatFromPath(file: string): HostFormat | undefined {
  const parts = path.resolve(file).split(path.sep);
  const base = parts.at(-1) ?? "";
  const dir = parts.at(-2) ?? "";
  if (base.endsWith(".toml")) return "codex";
  if (base === "claude_desktop_config.json" || base === ".mcp.json") return "claude-desktop";
  if (dir === ".cursor") return "cursor";
  if (base === "mcp_config.json" || parts.includes(".codeium")) return "windsurf";
  if (dir === ".vscode" || (dir === "User" && (base === "mcp.json" || base === "settings.json")))
    return "vscode";
  return undefined;
}

/** The format a parsed document's shape says. */
export function formatFromShape(doc: unknown): HostFormat | undefined {
  if (!isObject(doc)) return undefined;
  if (isObject(doc.mcp_servers)) return "codex";
  if (isObject(doc.servers) || (isObject(doc.mcp) && isObject(doc.mcp.servers))) return "vscode";
  if (isObject(doc.mcpServers)) {
    const entries = Object.values(doc.mcpServers);
    return entries.some((e) => isObject(e) && e.serverUrl !== undefined) ? "windsurf" : "claude-desktop";
  }
  return undefined;
}

/** The document in `text`: TOML for Codex, JSON with comments for the others. Throws ConfigError. */
export function parseHostText(text: string, format: HostFormat | undefined, label: string): unknown {
  if (format === "codex") return toml(text, label);
  const errors: ParseError[] = [];
  const doc = jsoncParser().parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first === undefined) return doc;
  // A file of unknown origin that is not JSON may be Codex's TOML.
  if (format === undefined) {
    try {
      return tomlParser().parse(text);
    } catch {}
  }
  const { line, column } = lineAndColumn(text, first.offset);
  const problem = `invalid JSON at line ${line}, column ${column}: ${describe(first)}`;
  throw new ConfigError(`${label}: ${problem}`, [problem]);
}

function toml(text: string, label: string): unknown {
  try {
    return tomlParser().parse(text);
  } catch (err) {
    if (!(err instanceof tomlParser().TomlError)) throw err;
    const what = err.message.split("\n")[0]!.replace(/^Invalid TOML document: /, "");
    const problem = `invalid TOML at line ${err.line}, column ${err.column}: ${what}`;
    throw new ConfigError(`${label}: ${problem}`, [problem], { cause: err });
  }
}

function describe(error: ParseError): string {
  // "PropertyNameExpected" → "property name expected"
  return jsoncParser()
    .printParseErrorCode(error.error)
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
}
