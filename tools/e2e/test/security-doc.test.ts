/**
 * SECURITY.md maps every promise to the test that proves it: each test it names must exist, under
 * that exact name, among the project's test files, so the page cannot promise what no test checks.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const SKIP = new Set(["node_modules", "dist", ".turbo", ".git"]);
const NOT_AREAS = new Set(["tools", "packages", "plugins", "apps", "text", "application"]);

function testFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    if (SKIP.has(entry)) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) testFiles(path, out);
    else if (/\.test\.ts$/.test(entry)) out.push(path);
  }
  return out;
}

/** Every test name in a file: the first string argument of it(…) and of requirement([…]). */
function namesIn(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/\b(?:it|test)\(\s*"([^"]+)"/g)) names.add(m[1] as string);
  for (const m of text.matchAll(/requirement\(\s*\[([^\]]+)\]/g))
    for (const n of (m[1] as string).matchAll(/"([^"]+)"/g)) names.add(n[1] as string);
  return names;
}

describe("SECURITY.md", () => {
  it("security/every-promise-names-a-test-that-exists", () => {
    const doc = readFileSync(join(root, "SECURITY.md"), "utf8");
    const files = testFiles(join(root, "packages"))
      .concat(testFiles(join(root, "plugins")), testFiles(join(root, "tools")), testFiles(join(root, "apps")))
      .map((path) => ({ path: relative(root, path), names: namesIn(readFileSync(path, "utf8")) }));
    const missing: string[] = [];
    let named = 0;
    for (const line of doc.split("\n")) {
      // A test is a backticked `area/requirement`; a path of the repository or a media type is not.
      const tests = [...line.matchAll(/`([a-z0-9-]+)\/([^`\s]+)`/g)]
        .filter((m) => !NOT_AREAS.has(m[1] as string))
        .map((m) => `${m[1]}/${m[2]}`);
      for (const name of tests) {
        named++;
        if (!files.some((f) => f.names.has(name))) missing.push(name);
      }
    }
    expect(missing).toEqual([]);
    expect(named).toBeGreaterThan(60);
  });
});
