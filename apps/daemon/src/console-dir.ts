/**
 * Where the web console's built files are at run time: beside the bundle for the released app
 * (apps/cli's build copies them into its dist/console/), else the @mcpx/console package's dist/ in
 * the workspace. None when neither is there (a daemon installed on its own): then no console.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export function consoleDir(): string | undefined {
  const bundled = fileURLToPath(new URL("./console/", import.meta.url));
  if (existsSync(path.join(bundled, "index.html"))) return bundled;
  try {
    const manifest = createRequire(import.meta.url).resolve("@mcpx/console/package.json");
    const dist = path.join(path.dirname(manifest), "dist");
    if (existsSync(path.join(dist, "index.html"))) return dist;
  } catch {
    // not installed beside this daemon
  }
  return undefined;
}
