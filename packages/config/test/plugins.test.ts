import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { PluginError, silentLogger } from "@mcpx/core";
import { createHost } from "@mcpx/host";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadPlugins, parseConfig, resolvePlugins } from "../src/index.js";
import { exportsTarget } from "../src/resolve.js";

const fixtures = fileURLToPath(new URL("./fixtures", import.meta.url));
const pluginSource = (name: string, scheme: string) =>
  `export default { name: ${JSON.stringify(name)}, apiVersion: 1, apply(host) { host.registerAuthScheme({ type: ${JSON.stringify(scheme)}, apply: () => ({}) }); } };\n`;

async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
}

async function pluginError(promise: Promise<unknown>): Promise<PluginError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PluginError);
  return err as PluginError;
}

describe("plugins", () => {
  let tmp: string;
  let project: string;
  let app: string;

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(tmpdir(), "mcpx-plugins-"));
    project = path.join(tmp, "project");
    app = path.join(tmp, "app", "lib");
    // Packages installed beside the config file (node_modules is git-ignored, so they are made here).
    await writeFiles(project, {
      "mcpx.json": "{}",
      "node_modules/mcpx-plugin-esm/package.json": JSON.stringify({
        name: "mcpx-plugin-esm",
        type: "module",
        exports: { ".": { types: "./index.d.ts", import: "./dist/index.js" }, "./extra": "./dist/extra.js" },
      }),
      "node_modules/mcpx-plugin-esm/dist/index.js": pluginSource("mcpx-plugin-esm", "esm"),
      "node_modules/mcpx-plugin-esm/dist/extra.js": pluginSource("mcpx-plugin-esm/extra", "esm-extra"),
      "node_modules/@acme/mcpx-plugin/package.json": JSON.stringify({
        name: "@acme/mcpx-plugin",
        main: "main.mjs",
      }),
      "node_modules/@acme/mcpx-plugin/main.mjs": pluginSource("@acme/mcpx-plugin", "acme"),
    });
    // A package installed beside mcpx, not beside the config.
    await writeFiles(path.join(tmp, "app"), {
      "node_modules/mcpx-plugin-beside-app/package.json": JSON.stringify({ name: "x", type: "module" }),
      "node_modules/mcpx-plugin-beside-app/index.js": pluginSource("mcpx-plugin-beside-app", "beside"),
    });
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });
  const freshHost = () => createHost({ log: silentLogger });

  it("plugins/by-package-name-from-config-dir", async () => {
    const h = freshHost();
    await loadPlugins(
      [{ spec: "mcpx-plugin-esm" }, { spec: "mcpx-plugin-esm/extra" }, { spec: "@acme/mcpx-plugin" }],
      {
        configDir: project,
        host: h,
        fallbackDirs: [],
      },
    );
    expect(h.plugins).toEqual([
      { name: "mcpx-plugin-esm", source: "mcpx-plugin-esm" },
      { name: "mcpx-plugin-esm/extra", source: "mcpx-plugin-esm/extra" },
      { name: "@acme/mcpx-plugin", source: "@acme/mcpx-plugin" },
    ]);
    expect(h.registry.authSchemes().map((s) => s.type)).toEqual(["esm", "esm-extra", "acme"]);
  });

  it("plugins/by-package-name-from-a-subdirectory-of-the-project", async () => {
    const h = freshHost();
    await loadPlugins([{ spec: "@acme/mcpx-plugin" }], {
      configDir: path.join(project, "conf", "deep"),
      host: h,
    });
    expect(h.plugins.map((p) => p.name)).toEqual(["@acme/mcpx-plugin"]);
  });

  it("plugins/by-package-name-falls-back-to-mcpx-location", async () => {
    const h = freshHost();
    await loadPlugins([{ spec: "mcpx-plugin-beside-app" }], {
      configDir: project,
      host: h,
      fallbackDirs: [app],
    });
    expect(h.plugins.map((p) => p.name)).toEqual(["mcpx-plugin-beside-app"]);
    // By default the fallback is where @mcpx/config is installed: its own dependencies are found.
    const err = await pluginError(loadPlugins([{ spec: "@mcpx/core" }], { configDir: project, host: h }));
    expect(err.message).toBe(
      "plugin @mcpx/core: does not export a Plugin (an object with name, apiVersion and apply)",
    );
  });

  it("plugins/by-path-relative-to-config-file", async () => {
    const config = parseConfig(
      {
        servers: { a: { command: "x" } },
        plugins: [
          ["./plugins/greeter.js", { scheme: "greet" }],
          "./plugins/named-exports.js",
          "./plugins/dir-plugin",
        ],
      },
      { path: path.join(fixtures, "mcpx.json") },
    );
    const h = freshHost();
    await resolvePlugins(config, h);
    expect(h.plugins).toEqual([
      { name: "fixture-greeter", source: "./plugins/greeter.js" },
      { name: "fixture-named-exports", source: "./plugins/named-exports.js" },
      { name: "fixture-dir-plugin", source: "./plugins/dir-plugin" },
    ]);
    // An absolute path works too.
    const h2 = freshHost();
    await loadPlugins([{ spec: path.join(fixtures, "plugins", "greeter.js"), options: { scheme: "abs" } }], {
      configDir: "/nowhere",
      host: h2,
    });
    expect(h2.registry.authScheme("abs")).toBeDefined();
  });

  it("plugins/options-passed-and-checked", async () => {
    const h = freshHost();
    await loadPlugins(
      [{ spec: "./plugins/greeter.js", options: { scheme: "greet", greeting: "good day" } }],
      {
        configDir: fixtures,
        host: h,
      },
    );
    const scheme = h.registry.authScheme("greet");
    expect(await scheme?.apply({ type: "greet" }, { name: "api", url: "https://example.com" })).toEqual({
      headers: { "x-greeting": "good day" },
    });
    const err = await pluginError(
      loadPlugins([{ spec: "./plugins/greeter.js", options: { greting: "typo" } }], {
        configDir: fixtures,
        host: h,
      }),
    );
    expect(err.message).toBe(
      "plugin fixture-greeter: invalid options: options.scheme: is required; options.greting: is not a known key",
    );
  });

  it("plugins/missing-names-spec-and-where-it-looked", async () => {
    const byName = await pluginError(
      loadPlugins([{ spec: "mcpx-plugin-nowhere" }], {
        configDir: project,
        host: freshHost(),
        fallbackDirs: [app],
      }),
    );
    expect(byName.plugin).toBe("mcpx-plugin-nowhere");
    expect(byName.message).toBe(
      `plugin mcpx-plugin-nowhere: cannot find package "mcpx-plugin-nowhere" (looked in node_modules of ${project} and its parents, then node_modules of ${app} and its parents)`,
    );
    const byPath = await pluginError(
      loadPlugins([{ spec: "./nope.js" }], { configDir: project, host: freshHost() }),
    );
    expect(byPath.message).toBe(
      `plugin ./nope.js: cannot find ${path.join(project, "nope.js")} (a path is relative to the config file's directory, ${project})`,
    );
    const notExported = await pluginError(
      loadPlugins([{ spec: "mcpx-plugin-esm/private" }], { configDir: project, host: freshHost() }),
    );
    expect(notExported.message).toContain('does not export "./private" for import');
  });

  it("plugins/wrong-export-refused", async () => {
    const err = await pluginError(
      loadPlugins([{ spec: "./plugins/not-a-plugin.js" }], { configDir: fixtures, host: freshHost() }),
    );
    expect(err.plugin).toBe("./plugins/not-a-plugin.js");
    expect(err.message).toBe(
      "plugin ./plugins/not-a-plugin.js: does not export a Plugin (an object with name, apiVersion and apply)",
    );
  });

  it("plugins/throw-at-import-named-with-cause", async () => {
    const err = await pluginError(
      loadPlugins([{ spec: "./plugins/throws.js" }], { configDir: fixtures, host: freshHost() }),
    );
    expect(err.message).toBe(
      `plugin ./plugins/throws.js: failed to load ${path.join(fixtures, "plugins", "throws.js")}: boom at import`,
    );
    expect((err.cause as Error).message).toBe("boom at import");
  });

  it("plugins/exports-map-resolution", () => {
    expect(exportsTarget("./index.js", ".")).toBe("./index.js");
    expect(exportsTarget({ import: "./esm.js", require: "./cjs.cjs" }, ".")).toBe("./esm.js");
    expect(exportsTarget({ ".": { require: "./cjs.cjs", default: "./any.js" } }, ".")).toBe("./any.js");
    expect(exportsTarget({ ".": { node: { import: "./node.mjs" }, default: "./x.js" } }, ".")).toBe(
      "./node.mjs",
    );
    expect(exportsTarget({ "./plugins/*": "./dist/plugins/*.js" }, "./plugins/auth")).toBe(
      "./dist/plugins/auth.js",
    );
    expect(exportsTarget({ ".": { require: "./cjs.cjs" } }, ".")).toBeUndefined();
    expect(exportsTarget({ ".": "./i.js" }, "./other")).toBeUndefined();
  });
});
