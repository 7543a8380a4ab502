/**
 * The workspace as the release sees it: which packages are published (every package under packages/,
 * plugins/ and apps/ that is not private), and what the `mcpx` app bundles (its @mcpx/* packages and
 * theirs, see apps/cli/tsup.config.ts), hence which npm packages it must name as its own dependencies.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../../../", import.meta.url));
export const RELEASE_DIR = path.join(REPO, "release");
export const APP_DIR = path.join(REPO, "apps", "cli");
/** Where the published packages live; tools/ and examples/ hold none. */
const PUBLISHED_FOLDERS = ["packages", "plugins", "apps"];
/** The fields whose packages npm installs with a package (devDependencies it never does). */
export const INSTALLED_FIELDS = ["dependencies", "peerDependencies", "optionalDependencies"];

export function readManifest(dir) {
  return JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
}

/** Every workspace package under packages/, plugins/ and apps/: `{ dir, manifest }`, by name. */
export function workspacePackages(root = REPO) {
  const found = new Map();
  for (const folder of PUBLISHED_FOLDERS) {
    const base = path.join(root, folder);
    if (!existsSync(base)) continue;
    for (const entry of readdirSync(base, { withFileTypes: true })) {
      const dir = path.join(base, entry.name);
      if (!entry.isDirectory() || !existsSync(path.join(dir, "package.json"))) continue;
      const manifest = readManifest(dir);
      found.set(manifest.name, { dir, manifest });
    }
  }
  return found;
}

/** The packages `pnpm pack:release` writes: every one that is not private. */
export function publishablePackages(root = REPO) {
  return [...workspacePackages(root).values()].filter((p) => p.manifest.private !== true);
}

const isWorkspaceName = (name) => name.startsWith("@mcpx/");

/**
 * The npm packages the app's bundle imports: the runtime dependencies of every @mcpx/* package it
 * bundles (its own dependencies and devDependencies under @mcpx/, and theirs, transitively), with
 * the range each declares. Two packages declaring different ranges of one dependency is a problem.
 */
export function bundledNpmDependencies(appManifest, packages) {
  const needed = new Map();
  const problems = [];
  const seen = new Set();
  const visit = (name, from) => {
    if (seen.has(name)) return;
    seen.add(name);
    const pkg = packages.get(name);
    if (!pkg) {
      problems.push(`${from} names ${name}, which is not a workspace package`);
      return;
    }
    for (const field of INSTALLED_FIELDS) {
      for (const [dep, range] of Object.entries(pkg.manifest[field] ?? {})) {
        if (isWorkspaceName(dep)) {
          visit(dep, name);
          continue;
        }
        const known = needed.get(dep);
        if (known && known.range !== range) {
          problems.push(`${dep}: ${known.by} wants ${known.range}, ${name} wants ${range}`);
        } else if (!known) {
          needed.set(dep, { range, by: name });
        }
      }
    }
  };
  for (const field of [...INSTALLED_FIELDS, "devDependencies"]) {
    for (const dep of Object.keys(appManifest[field] ?? {})) {
      if (isWorkspaceName(dep)) visit(dep, appManifest.name);
    }
  }
  return { needed, problems };
}

/**
 * What is wrong with the app's manifest for an install of its tarball alone: an @mcpx/* package
 * among what npm installs (npm would fetch it from the registry), or a dependency of a bundled
 * package missing from its dependencies or named with another range.
 */
export function appManifestProblems(appManifest, packages) {
  const problems = [];
  for (const field of INSTALLED_FIELDS) {
    for (const dep of Object.keys(appManifest[field] ?? {})) {
      if (isWorkspaceName(dep)) {
        problems.push(
          `${field} names ${dep}: npm would fetch it from the registry; the app bundles its workspace packages, so list it in devDependencies`,
        );
      }
    }
  }
  const { needed, problems: graph } = bundledNpmDependencies(appManifest, packages);
  problems.push(...graph);
  const own = appManifest.dependencies ?? {};
  for (const [dep, { range, by }] of needed) {
    if (!(dep in own)) problems.push(`dependencies lacks ${dep} (${range}), which the bundled ${by} imports`);
    else if (own[dep] !== range)
      problems.push(`dependencies has ${dep} ${own[dep]}, the bundled ${by} declares ${range}`);
  }
  return problems;
}
