/**
 * Core is the interfaces, hooks and errors that every package and plugin stands on: it depends on
 * tapable (the hooks) and nothing else. The runtime (ajv, the logger, redaction, the registry) is
 * @mcpx/host's.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const root = new URL("../", import.meta.url);
const manifest = JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as Record<string, unknown>;

/** Every module a source file names: static imports and re-exports, import(), require(). */
function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']/gm,
    /^\s*import\s*["']([^"']+)["']/gm,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
    /\brequire\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) found.push(m[1] as string);
  return found;
}

describe("core's dependencies", () => {
  it("core/depends-on-tapable-only", () => {
    expect(Object.keys((manifest.dependencies ?? {}) as object)).toEqual(["tapable"]);
    expect(manifest.peerDependencies).toBeUndefined();
    expect(manifest.optionalDependencies).toBeUndefined();

    const src = new URL("src/", root);
    const files = readdirSync(src, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(10);
    const foreign: string[] = [];
    let relative = 0;
    for (const file of files) {
      for (const spec of specifiers(readFileSync(new URL(file, src), "utf8"))) {
        if (spec.startsWith("./") || spec.startsWith("../")) relative++;
        // Not even node: built-ins: core is types, hooks, errors and codecs, which need none.
        else if (spec !== "tapable") foreign.push(`${file}: ${spec}`);
      }
    }
    expect(foreign).toEqual([]);
    // the scan reads the imports (a scan that found none would pass on anything)
    expect(relative).toBeGreaterThan(20);
  });
});
