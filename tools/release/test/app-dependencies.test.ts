/**
 * The `mcpx` app installs from its tarball alone: its workspace packages are bundled (apps/cli/tsup.config.ts),
 * so npm must find no @mcpx/* package among what it installs, and every npm package those bundled
 * packages import must be one of the app's own dependencies, with the same range.
 */
import { describe, expect, it } from "vitest";
import { APP_DIR, appManifestProblems, readManifest, workspacePackages } from "../src/workspace.mjs";

const manifest = (name: string, fields: Record<string, Record<string, string>> = {}) => ({
  dir: `/ws/${name}`,
  manifest: { name, version: "0.1.0", ...fields },
});

describe("the app's dependencies", () => {
  it("release/app-dependencies-cover-what-its-bundle-imports", () => {
    expect(appManifestProblems(readManifest(APP_DIR), workspacePackages())).toEqual([]);
  });

  it("release/app-names-no-workspace-package-for-npm-to-fetch", () => {
    const packages = new Map(
      [
        manifest("@mcpx/core", { dependencies: { ajv: "^8.20.0" } }),
        manifest("@mcpx/http", {
          peerDependencies: { "@mcpx/core": "workspace:^" },
          dependencies: { undici: "^7.0.0" },
        }),
        manifest("@mcpx/gateway", { dependencies: { "@mcpx/http": "workspace:^", ajv: "^8.1.0" } }),
      ].map((p) => [p.manifest.name, p]),
    );
    const app = {
      name: "mcpx",
      dependencies: { "@mcpx/core": "workspace:^", undici: "^6.0.0" },
      devDependencies: { "@mcpx/gateway": "workspace:^" },
    };
    expect(appManifestProblems(app, packages)).toEqual([
      "dependencies names @mcpx/core: npm would fetch it from the registry; the app bundles its workspace packages, so list it in devDependencies",
      "ajv: @mcpx/core wants ^8.20.0, @mcpx/gateway wants ^8.1.0",
      "dependencies lacks ajv (^8.20.0), which the bundled @mcpx/core imports",
      "dependencies has undici ^6.0.0, the bundled @mcpx/http declares ^7.0.0",
    ]);
  });
});
