/**
 * Where a plugin spec points: a path (`./`, `../`, `/`), relative to the config file, or a package
 * name looked up in node_modules the way Node's ESM loader does (the `exports` map with the
 * "node", "import" and "default" conditions, else `main`), from the config file's directory first
 * and then from each fallback directory.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";

const CONDITIONS = new Set(["node", "import", "default"]);

export type Resolution = { file: string } | { error: string };

export function isPathSpec(spec: string): boolean {
  return /^\.{1,2}([/\\]|$)/.test(spec) || path.isAbsolute(spec);
}

export function resolveSpec(spec: string, configDir: string, fallbackDirs: readonly string[]): Resolution {
  return isPathSpec(spec) ? resolvePath(spec, configDir) : resolvePackage(spec, [configDir, ...fallbackDirs]);
}

function resolvePath(spec: string, configDir: string): Resolution {
  const target = path.resolve(configDir, spec);
  const stat = statSync(target, { throwIfNoEntry: false });
  if (stat?.isFile()) return { file: target };
  if (stat?.isDirectory()) return packageEntry(target, ".", spec);
  return { error: `cannot find ${target} (a path is relative to the config file's directory, ${configDir})` };
}

function resolvePackage(spec: string, from: readonly string[]): Resolution {
  const parts = spec.split("/");
  const nameLength = spec.startsWith("@") ? 2 : 1;
  const name = parts.slice(0, nameLength).join("/");
  const subpath = parts.length > nameLength ? `./${parts.slice(nameLength).join("/")}` : ".";
  for (const dir of from) {
    const lookups = createRequire(path.join(dir, "noop.js")).resolve.paths(name) ?? [];
    for (const nodeModules of lookups) {
      const pkgDir = path.join(nodeModules, name);
      if (existsSync(path.join(pkgDir, "package.json"))) return packageEntry(pkgDir, subpath, spec);
    }
  }
  const where = from.map((d) => `node_modules of ${d} and its parents`).join(", then ");
  return { error: `cannot find package ${JSON.stringify(name)} (looked in ${where})` };
}

function packageEntry(pkgDir: string, subpath: string, spec: string): Resolution {
  let pkg: { exports?: unknown; main?: unknown };
  const manifest = path.join(pkgDir, "package.json");
  try {
    pkg = existsSync(manifest) ? JSON.parse(readFileSync(manifest, "utf8")) : {};
  } catch (err) {
    return { error: `cannot read ${manifest}: ${(err as Error).message}` };
  }
  if (pkg.exports !== undefined && pkg.exports !== null) {
    const target = exportsTarget(pkg.exports, subpath);
    if (target === undefined) {
      return {
        error: `${spec}: ${pkgDir}/package.json does not export ${JSON.stringify(subpath)} for import`,
      };
    }
    return fileAt(path.join(pkgDir, target));
  }
  if (subpath !== ".") return fileAt(path.join(pkgDir, subpath));
  return fileAt(path.join(pkgDir, typeof pkg.main === "string" ? pkg.main : "index.js"));
}

/** A file, or a directory's index.js (legacy `main` resolution). */
function fileAt(target: string): Resolution {
  const stat = statSync(target, { throwIfNoEntry: false });
  if (stat?.isFile()) return { file: target };
  for (const candidate of [`${target}.js`, path.join(target, "index.js")]) {
    if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) return { file: candidate };
  }
  return { error: `cannot find ${target}` };
}

/** The target of `subpath` in a package's `exports`, or undefined if not exported. */
export function exportsTarget(exportsField: unknown, subpath: string): string | undefined {
  const isSubpathMap =
    typeof exportsField === "object" &&
    exportsField !== null &&
    !Array.isArray(exportsField) &&
    Object.keys(exportsField).some((k) => k.startsWith("."));
  const map = (isSubpathMap ? exportsField : { ".": exportsField }) as Record<string, unknown>;
  if (Object.hasOwn(map, subpath)) return conditionTarget(map[subpath], undefined);
  // Patterns ("./*", "./plugins/*.js"): the longest prefix wins.
  let best: { key: string; star: string } | undefined;
  for (const key of Object.keys(map)) {
    const star = key.indexOf("*");
    if (star < 0) continue;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    if (
      subpath.startsWith(prefix) &&
      subpath.endsWith(suffix) &&
      subpath.length >= key.length - 1 &&
      (!best || prefix.length > best.key.indexOf("*"))
    ) {
      best = { key, star: subpath.slice(prefix.length, subpath.length - suffix.length) };
    }
  }
  return best ? conditionTarget(map[best.key], best.star) : undefined;
}

function conditionTarget(target: unknown, star: string | undefined): string | undefined {
  if (typeof target === "string") return star === undefined ? target : target.replaceAll("*", star);
  if (Array.isArray(target)) {
    for (const t of target) {
      const found = conditionTarget(t, star);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof target === "object" && target !== null) {
    for (const [condition, t] of Object.entries(target)) {
      if (!CONDITIONS.has(condition)) continue;
      const found = conditionTarget(t, star);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
