/**
 * CI: the example of packages/client/README.md ("Use it on its own") as a user runs it. Packs the
 * release, installs into an empty project only the packages the example imports and the @mcpx/*
 * packages they need, all from release/ in one `npm install` (none may come from a registry),
 * writes the example exactly as the README has it (between its client-example markers, so the two
 * cannot drift), and runs it: it must connect to server-everything over stdio, call a tool and
 * print what the README says it prints. Exits non-zero on any failure.
 *
 *   node tools/release/client-example-check.mjs
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { EVERYTHING, everythingDir } from "./src/everything.mjs";
import { cleanEnv, npmInstall } from "./src/npm.mjs";
import { packRelease } from "./src/pack.mjs";
import { readmeExample } from "./src/readme-example.mjs";
import { bound, checks, run } from "./src/run.mjs";
import { REPO } from "./src/workspace.mjs";

const README = path.join(REPO, "packages/client/README.md");
bound("release/client-example-check", 9 * 60_000);

/** The tarballs to install: the packages named, and every @mcpx/* package they need, transitively. */
function closure(names, release) {
  const byName = new Map(release.map((r) => [r.name, r]));
  const chosen = new Map();
  const visit = (name, from) => {
    if (chosen.has(name)) return;
    const r = byName.get(name);
    if (!r) throw new Error(`${from} needs ${name}, which release/ has no tarball of`);
    chosen.set(name, r);
    const manifest = JSON.parse(
      execFileSync("tar", ["-xzOf", r.file, "package/package.json"], { encoding: "utf8" }),
    );
    for (const field of ["dependencies", "peerDependencies"]) {
      for (const dep of Object.keys(manifest[field] ?? {})) if (dep.startsWith("@mcpx/")) visit(dep, name);
    }
  };
  for (const name of names) visit(name, "the README's example");
  return [...chosen.values()];
}

const { check, finish } = checks();
const tmp = mkdtempSync(path.join(tmpdir(), "mcpx-client-example-"));
try {
  await check("release/client-readme-example-runs-from-the-tarballs", async () => {
    let example;
    try {
      example = readmeExample(readFileSync(README, "utf8"));
    } catch (err) {
      throw new Error(`${README}: ${err.message}`);
    }
    const { code, expected, imports } = example;
    const release = await packRelease({ log: () => {} });
    const tarballs = closure(
      imports.filter((i) => i.startsWith("@mcpx/")),
      release,
    );
    const project = path.join(tmp, "project");
    mkdirSync(project);
    writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({ name: "client-example", private: true, type: "module" }),
    );
    const { askedRegistryAbout } = await npmInstall(
      tarballs.map((t) => t.file),
      { cwd: project },
    );
    // server-everything as the project's own dependency, from the workspace (its dependencies resolve
    // beside its real path): `npx -y` then runs it without a fetch, and offline mode makes sure of it.
    const modules = path.join(project, "node_modules");
    mkdirSync(path.join(modules, path.dirname(EVERYTHING)), { recursive: true });
    symlinkSync(everythingDir(), path.join(modules, EVERYTHING), "dir");
    mkdirSync(path.join(modules, ".bin"), { recursive: true });
    symlinkSync(
      path.join("..", EVERYTHING, "dist", "index.js"),
      path.join(modules, ".bin", "mcp-server-everything"),
    );
    writeFileSync(path.join(project, "example.mjs"), code);
    const { stdout } = await run(process.execPath, ["example.mjs"], {
      cwd: project,
      env: cleanEnv({ npm_config_offline: "true" }),
      timeoutMs: 120_000,
    });
    if (stdout.trim() !== expected) {
      throw new Error(
        `the example printed ${JSON.stringify(stdout)}, the README says ${JSON.stringify(expected)}`,
      );
    }
    console.log(`  installed ${tarballs.map((t) => t.name).join(", ")} from release/`);
    if (askedRegistryAbout.length > 0) {
      console.log(
        `  (npm looked up ${askedRegistryAbout.join(", ")} in the registry, refused, and took the tarball)`,
      );
    }
    console.log(`  the example printed ${JSON.stringify(expected)}`);
  });
} finally {
  rmSync(tmp, { recursive: true, force: true });
  finish();
}
