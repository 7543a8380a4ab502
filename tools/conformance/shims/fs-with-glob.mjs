/**
 * node:fs as Node 22 has it, for the conformance suite on Node 20: every export of node:fs, and
 * globSync (Node 22's fs.globSync: a pattern or patterns, `cwd`, `exclude`; paths relative to cwd).
 */
import fs from "node:fs";
import { globSync as tinyGlobSync } from "tinyglobby";

export * from "node:fs";
export default fs;

export function globSync(pattern, options = {}) {
  if (options.withFileTypes) throw new Error("globSync shim: withFileTypes is not supported");
  const exclude = typeof options.exclude === "function" ? undefined : options.exclude;
  const found = tinyGlobSync(pattern, {
    cwd: options.cwd === undefined ? process.cwd() : String(options.cwd),
    ignore: exclude ?? [],
    onlyFiles: false,
    dot: true,
    expandDirectories: false,
  });
  return typeof options.exclude === "function" ? found.filter((p) => !options.exclude(p)) : found;
}
