/**
 * Packages are versioned independently: a minor of @mcpx/core (a new hook, a new error) bumps no
 * plugin, though every plugin peer-depends on it. Changesets bumps a peer dependent at major whenever
 * the peer takes a minor, unless `onlyUpdatePeerDependentsWhenOutOfRange` is set and the plugins'
 * range still holds the new version: on 0.x a caret range (^0.1.0) does not hold 0.2.0, hence
 * `>=0.1.0 <1.0.0` (the plugin API's own version, checked when a plugin loads, is what guards a
 * change a plugin cannot follow). Checked with `changeset status` on a copy of the workspace's
 * manifests and changeset config, with one changeset: a core minor.
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "../src/workspace.mjs";

const FOLDERS = ["packages", "plugins", "apps", "tools", "examples"];

interface Release {
  name: string;
  type: "major" | "minor" | "patch" | "none";
}

/** The workspace's manifests and changeset config in a git repository of their own. */
function manifestsOnly(): { dir: string; peerDependents: string[] } {
  const dir = mkdtempSync(path.join(tmpdir(), "mcpx-versioning-"));
  for (const file of ["package.json", "pnpm-workspace.yaml", ".changeset/config.json"]) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    cpSync(path.join(REPO, file), path.join(dir, file));
  }
  const peerDependents: string[] = [];
  for (const folder of FOLDERS) {
    for (const entry of readdirSync(path.join(REPO, folder), { withFileTypes: true })) {
      const manifest = path.join(REPO, folder, entry.name, "package.json");
      if (!entry.isDirectory() || !existsSync(manifest)) continue;
      mkdirSync(path.join(dir, folder, entry.name), { recursive: true });
      cpSync(manifest, path.join(dir, folder, entry.name, "package.json"));
      const pkg = JSON.parse(readFileSync(manifest, "utf8"));
      if (pkg.private !== true && pkg.peerDependencies?.["@mcpx/core"]) peerDependents.push(pkg.name);
    }
  }
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd: dir });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "manifests");
  return { dir, peerDependents };
}

describe("versioning", () => {
  it("versioning/core-minor-bumps-no-plugin", () => {
    const { dir, peerDependents } = manifestsOnly();
    try {
      writeFileSync(
        path.join(dir, ".changeset/core-minor.md"),
        '---\n"@mcpx/core": minor\n---\n\nA new hook.\n',
      );
      const out = path.join(dir, "status.json");
      execFileSync(
        process.execPath,
        [path.join(REPO, "node_modules/@changesets/cli/bin.js"), "status", `--output=${out}`],
        { cwd: dir, stdio: "pipe" },
      );
      const releases = (JSON.parse(readFileSync(out, "utf8")) as { releases: Release[] }).releases;
      const bumped = Object.fromEntries(
        releases.filter((r) => r.type !== "none").map((r) => [r.name, r.type]),
      );
      expect(bumped["@mcpx/core"]).toBe("minor");
      // The plugins (and the other packages that peer-depend on core) are not bumped at all.
      expect(peerDependents.length).toBeGreaterThan(10);
      expect(peerDependents.filter((name) => name in bumped)).toEqual([]);
      // Nothing is bumped at major.
      expect(Object.entries(bumped).filter(([, type]) => type === "major")).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
