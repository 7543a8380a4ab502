/**
 * What a packed tarball must hold to install and run on its own: real version ranges where the
 * workspace wrote `workspace:`, and every file its manifest points at (exports, main, types, bin).
 */
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { builtinModules } from "node:module";
import * as path from "node:path";
import { INSTALLED_FIELDS } from "./workspace.mjs";

/**
 * The workspace's own export condition: it points vitest and tsc at src/, which is not published.
 * Node and bundlers outside the workspace never ask for it.
 */
const SOURCE_CONDITION = "@mcpx/source";
const LOCAL_RANGE = /^(workspace|link|file|portal):/;

/** Unpacks a tarball into `into`; the package is then `into/package`. */
export function extract(tarball, into) {
  execFileSync("tar", ["-xzf", tarball, "-C", into]);
  return path.join(into, "package");
}

/** Every file under dir, as relative paths with forward slashes. */
export function listFiles(dir, prefix = "") {
  const out = [];
  for (const entry of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(dir, rel));
    else out.push(rel);
  }
  return out;
}

/** Every file target of an exports field, with the condition path that leads to it. */
function exportTargets(value, where, out) {
  if (typeof value === "string") out.push({ where, target: value });
  else if (Array.isArray(value)) for (const v of value) exportTargets(v, where, out);
  else if (value && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) {
      if (key === SOURCE_CONDITION) continue;
      exportTargets(v, `${where}[${JSON.stringify(key)}]`, out);
    }
  }
  return out;
}

const normal = (target) => target.replace(/^\.\//, "");

/** Problems of a packed manifest against the files packed with it. */
export function tarballProblems(manifest, files) {
  const problems = [];
  const have = new Set(files);
  for (const field of INSTALLED_FIELDS) {
    for (const [dep, range] of Object.entries(manifest[field] ?? {})) {
      if (LOCAL_RANGE.test(range)) problems.push(`${field}.${dep} is ${range}, not a version range`);
    }
  }
  const pointers = exportTargets(manifest.exports, "exports", []);
  for (const field of ["main", "types"]) {
    if (typeof manifest[field] === "string") pointers.push({ where: field, target: manifest[field] });
  }
  const bin = typeof manifest.bin === "string" ? { [manifest.name]: manifest.bin } : (manifest.bin ?? {});
  for (const [name, target] of Object.entries(bin)) pointers.push({ where: `bin.${name}`, target });
  for (const { where, target } of pointers) {
    if (target.includes("*")) continue;
    if (!have.has(normal(target))) problems.push(`${where} points at ${target}, which is not in the tarball`);
  }
  if (!manifest.engines?.node) problems.push("engines.node is missing");
  if (manifest.type !== "module") problems.push('type is not "module"');
  return problems;
}

const BUILTINS = new Set(builtinModules);

/** The package a bare import specifier names (`ajv/dist/2020.js` → `ajv`), or undefined for a path. */
export function packageOf(specifier) {
  if (specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("node:"))
    return undefined;
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
  return BUILTINS.has(name) ? undefined : name;
}

/**
 * The packages a bundled ES module file imports: `import … from "x"`, `export … from "x"`, `import "x"`
 * and `import("x")`, as esbuild writes them (one statement per line, double quotes).
 */
export function importedPackages(code) {
  const found = new Set();
  const patterns = [
    /^\s*(?:import|export)\b[^"'\n]*?\bfrom\s*"([^"]+)"/gm,
    /^\s*import\s*"([^"]+)"/gm,
    /\bimport\(\s*"([^"]+)"\s*\)/g,
  ];
  for (const re of patterns) {
    for (const m of code.matchAll(re)) {
      const name = packageOf(m[1]);
      if (name) found.add(name);
    }
  }
  return found;
}
