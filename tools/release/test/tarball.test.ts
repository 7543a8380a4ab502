/** What pack:release checks in each tarball: real ranges, the files the manifest points at, and the app's bundle imports. */
import { describe, expect, it } from "vitest";
import { importedPackages, tarballProblems } from "../src/tarball.mjs";

describe("a packed tarball", () => {
  it("release/packed-manifest-has-real-ranges-and-every-file-it-points-at", () => {
    const manifest = {
      name: "@mcpx/x",
      type: "module",
      engines: { node: ">=20.18" },
      exports: {
        ".": { "@mcpx/source": "./src/index.ts", types: "./dist/index.d.ts", import: "./dist/index.js" },
        "./schema.json": "./schemas/x.json",
        "./package.json": "./package.json",
      },
      main: "./dist/index.js",
      bin: { x: "./dist/bin.js" },
      dependencies: { "@mcpx/core": "^0.1.0", ajv: "^8.20.0" },
      peerDependencies: { "@mcpx/legacy-era": "workspace:^" },
    };
    const files = ["package.json", "dist/index.js", "dist/index.d.ts", "README.md"];
    expect(tarballProblems(manifest, files)).toEqual([
      "peerDependencies.@mcpx/legacy-era is workspace:^, not a version range",
      'exports["./schema.json"] points at ./schemas/x.json, which is not in the tarball',
      "bin.x points at ./dist/bin.js, which is not in the tarball",
    ]);
    expect(tarballProblems({ ...manifest, engines: undefined, type: undefined }, files)).toContain(
      "engines.node is missing",
    );
  });

  it("release/bundle-imports-read-as-esbuild-writes-them", () => {
    const code = [
      'import { AsyncSeriesHook } from "tapable";',
      'import { Ajv2020 } from "ajv/dist/2020.js";',
      'import * as path from "path";',
      'import { readFile } from "node:fs/promises";',
      'import { x } from "./chunk-ABC.js";',
      'import "@scope/side-effect";',
      'export { y } from "@mcpx/core";',
      "const mod = await import(pathToFileURL(file).href);",
      'const lazy = () => import("undici");',
      'const text = "not an import from \\"nowhere\\"";',
    ].join("\n");
    expect([...importedPackages(code)].sort()).toEqual([
      "@mcpx/core",
      "@scope/side-effect",
      "ajv",
      "tapable",
      "undici",
    ]);
  });
});
