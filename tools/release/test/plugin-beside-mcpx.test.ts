/**
 * A third-party plugin installed beside a global mcpx finds no @mcpx/core there (the app bundles its
 * own): examples/plugin-hello, the plugin install-check.mjs installs that way, must import nothing at
 * run time and name every peer dependency optional, or npm fetches @mcpx/core from the registry.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { importedPackages } from "../src/tarball.mjs";
import { REPO, readManifest } from "../src/workspace.mjs";

const dir = path.join(REPO, "examples/plugin-hello");

describe("examples/plugin-hello", () => {
  it("release/example-plugin-needs-nothing-from-a-registry", () => {
    const manifest = readManifest(dir);
    const peers = Object.keys(manifest.peerDependencies ?? {});
    expect(peers).toContain("@mcpx/core");
    for (const peer of peers)
      expect({ peer, ...manifest.peerDependenciesMeta?.[peer] }).toEqual({ peer, optional: true });
    expect(manifest.dependencies ?? {}).toEqual({});
    // Its types come from JSDoc (`import("@mcpx/core").Plugin`), which is no import at run time.
    const code = readFileSync(path.join(dir, "index.js"), "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
    expect([...importedPackages(code)]).toEqual([]);
  });
});
