/**
 * What `mcpx config import|init|add|remove` share: reading and writing the config file, and printing
 * what changed and every warning. Nothing printed carries a value from an env, a header or an auth:
 * servers are shown by their program or their URL without query string or credentials.
 */
import { chmod, mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import * as path from "node:path";
import type { ImportWarning, ServerEntryFile } from "@mcpx/config";
import type { MainIO } from "../io.js";
import { forTerminal } from "../render.js";

/** The file's text, or undefined when there is none. */
export async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/**
 * Writes the config whole or not at all (a temporary file renamed over it), so an interrupted write
 * never leaves half a config. An existing file keeps its mode; a new one is its owner's only, as it
 * may hold a literal secret.
 */
export async function writeConfig(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const mode = await stat(file).then(
    (s) => s.mode & 0o777,
    () => 0o600,
  );
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text, { mode });
  await chmod(tmp, mode);
  await rename(tmp, file);
}

/** A warning and the file it is about (the host's, or the mcpx config). */
export type FileWarning = ImportWarning & { file: string };

/** One line per warning on stderr, `mcpx: warning: <file>: <key>: <what>`. */
export function printWarnings(io: MainIO, warnings: readonly FileWarning[]): void {
  for (const w of warnings) io.stderr(`mcpx: warning: ${forTerminal(`${w.file}: ${w.at}: ${w.message}`)}\n`);
}

/** `  name   command npx` / `  name   url https://host/path  auth bearer  disabled`. */
export function serverLines(servers: Record<string, ServerEntryFile>): string[] {
  const names = Object.keys(servers);
  const width = Math.max(0, ...names.map((n) => n.length));
  return names.map((name) => {
    const s = servers[name]!;
    const facts = [
      s.command !== undefined ? `command ${path.basename(s.command)}` : `url ${publicUrl(s.url ?? "")}`,
    ];
    if (s.namespace !== undefined) facts.push(`namespace ${s.namespace}`);
    if (s.transport !== undefined) facts.push(`transport ${s.transport}`);
    if (s.auth !== undefined) facts.push(`auth ${s.auth.type}`);
    if (s.disabled) facts.push("disabled");
    return forTerminal(`  ${name.padEnd(width)}  ${facts.join("  ")}`);
  });
}

/** The URL without its query string, fragment or credentials, any of which may hold a secret. */
export function publicUrl(url: string): string {
  try {
    const u = new URL(url);
    u.search = "";
    u.hash = "";
    u.username = "";
    u.password = "";
    return u.href;
  } catch {
    return url.replace(/[?#].*$/s, "").replace(/\/\/[^/@]*@/, "//");
  }
}

/** The line naming the variables a config reads, when it reads any. */
export function envLine(env: readonly string[]): string[] {
  return env.length ? [`set before starting mcpx: ${env.join(", ")}`] : [];
}
