import { cpSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { defineConfig } from "tsup";

/**
 * The web console (@mcpx/console, built by turbo before this package: a devDependency) goes into
 * dist/console/, where the daemon's console-dir.ts looks beside the bundle.
 */
function copyConsole(): void {
  const manifest = createRequire(import.meta.url).resolve("@mcpx/console/package.json");
  const built = path.join(path.dirname(manifest), "dist");
  if (!existsSync(path.join(built, "index.html"))) {
    throw new Error(`the console is not built (${built}): run its build first (turbo does)`);
  }
  cpSync(built, "dist/console", { recursive: true });
}

/**
 * mcpx is installed on its own (`npm install -g mcpx-<version>.tgz`), and npm fetches every
 * dependency a tarball names from the registry, where the @mcpx scope is not ours. So the workspace
 * packages (@mcpx/*) are bundled into dist, and only real npm packages stay imports: the
 * "dependencies" of package.json, which tools/release checks against what the bundled packages
 * declare. Chosen over bundleDependencies, which pnpm's symlinked node_modules make fragile and
 * which would ship each package's nested copy of ajv and the rest.
 */
export default defineConfig({
  // bin.ts starts with a shebang; tsup keeps it and makes dist/bin.js executable.
  entry: ["src/bin.ts", "src/index.ts"],
  noExternal: [/^@mcpx\//],
  // Any other bare import stays an import, even one package.json forgot: the release checks then
  // fail on it, where bundling it would hide it.
  external: [/^(?!@mcpx\/)[^./]/],
  format: ["esm"],
  dts: { entry: "src/index.ts" },
  sourcemap: true,
  clean: true,
  target: "node20",
  onSuccess: async () => copyConsole(),
});
