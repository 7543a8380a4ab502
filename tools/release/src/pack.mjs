/**
 * `pnpm pack:release`: builds every publishable package (JavaScript and declarations), writes its
 * tarball into release/ with `pnpm pack` (which replaces each `workspace:` range with the version
 * it stands for, in dependencies and peerDependencies alike), and checks each tarball: real ranges,
 * every file its manifest points at, engines, publint's errors and warnings; for the app, that no
 * @mcpx/* package is left for npm to fetch and that its dependencies cover every npm package its
 * bundle imports. Any problem fails it, listing all of them.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { runPnpm } from "./run.mjs";
import { extract, importedPackages, listFiles, tarballProblems } from "./tarball.mjs";
import {
  APP_DIR,
  appManifestProblems,
  publishablePackages,
  RELEASE_DIR,
  readManifest,
  workspacePackages,
} from "./workspace.mjs";

/** Packs and checks every publishable package; resolves to `[{ name, version, file }]`. */
export async function packRelease({ log = console.log } = {}) {
  const publishable = publishablePackages();
  const app = readManifest(APP_DIR);
  const early = appManifestProblems(app, workspacePackages()).map((p) => `${app.name}: ${p}`);
  if (early.length > 0) throw new Error(`the app cannot be packed:\n${early.join("\n")}`);

  const filters = publishable.map((p) => `--filter=${p.manifest.name}`);
  log(`building ${publishable.length} packages`);
  await runPnpm(["exec", "turbo", "run", "build", ...filters, "--output-logs=errors-only"], {
    timeoutMs: 600_000,
  });

  rmSync(RELEASE_DIR, { recursive: true, force: true });
  mkdirSync(RELEASE_DIR, { recursive: true });
  const packFilters = publishable.flatMap((p) => ["--filter", p.manifest.name]);
  const { stdout } = await runPnpm(
    ["-r", ...packFilters, "pack", "--pack-destination", RELEASE_DIR, "--json"],
    { timeoutMs: 300_000 },
  );
  const packed = JSON.parse(stdout.slice(stdout.indexOf("[")));

  const problems = [];
  const scratch = mkdtempSync(path.join(tmpdir(), "mcpx-release-"));
  try {
    for (const { name, filename } of packed) {
      const dir = extract(filename, mkdtempSync(path.join(scratch, "p-")));
      const files = listFiles(dir);
      const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
      const found = tarballProblems(manifest, files);
      if (name === app.name) found.push(...bundleProblems(dir, files, manifest));
      found.push(...(await publintProblems(dir)));
      problems.push(...found.map((p) => `${name}: ${p}`));
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  if (problems.length > 0) throw new Error(`the release has problems:\n${problems.join("\n")}`);

  const release = packed.map(({ name, version, filename }) => ({ name, version, file: filename }));
  for (const r of release) log(`  ${path.relative(process.cwd(), r.file)}`);
  log(`packed ${release.length} packages into ${path.relative(process.cwd(), RELEASE_DIR) || "."}`);
  const appTarball = release.find((r) => r.name === app.name);
  if (appTarball)
    log(`install the app with: npm install -g ./${path.relative(process.cwd(), appTarball.file)}`);
  return release;
}

/** Every npm package the app's bundle imports must be one of its dependencies; the console is there. */
function bundleProblems(dir, files, manifest) {
  const deps = new Set(Object.keys(manifest.dependencies ?? {}));
  const problems = [];
  // The web console is served from beside the bundle (apps/daemon/src/console-dir.ts).
  if (!files.includes("dist/console/index.html"))
    problems.push("dist/console/index.html (the web console) is not in the tarball");
  // dist/console/ is the browser's code, bundled by Vite: it imports nothing from npm at run time.
  const node = files.filter(
    (f) => f.startsWith("dist/") && !f.startsWith("dist/console/") && f.endsWith(".js"),
  );
  for (const file of node) {
    for (const pkg of importedPackages(readFileSync(path.join(dir, file), "utf8"))) {
      if (pkg.startsWith("@mcpx/")) problems.push(`${file} imports ${pkg}, which should have been bundled`);
      else if (!deps.has(pkg)) problems.push(`${file} imports ${pkg}, which is not in its dependencies`);
    }
  }
  return problems;
}

async function publintProblems(dir) {
  const { messages, pkg } = await publint({ pkgDir: dir, pack: false, level: "warning" });
  return messages.map((m) => `publint ${m.type}: ${formatMessage(m, pkg, { color: false })}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  packRelease().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}
