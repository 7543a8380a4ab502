/**
 * Applying the plugins a config lists: each is found (see resolve.ts), imported, and handed to the
 * host with its options. Anything that goes wrong is a PluginError naming the spec.
 */
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isPlugin, PluginError } from "@mcpx/core";
import type { Host } from "@mcpx/host";
import { resolveSpec } from "./resolve.js";
import type { McpxConfig, PluginSpec } from "./types.js";

/** Where packages are looked for after the config file's directory: beside mcpx itself. */
export const DEFAULT_FALLBACK_DIRS: readonly string[] = [path.dirname(fileURLToPath(import.meta.url))];

export interface PluginLoadOptions {
  /** Relative paths, and package names first, are resolved from here: the config file's directory. */
  configDir: string;
  /** Where to look for a package not found from configDir. Default: where @mcpx/config is installed. */
  fallbackDirs?: readonly string[];
}

/** The file a spec resolves to. Throws PluginError naming the spec and where it looked. */
export function resolvePluginFile(spec: string, options: PluginLoadOptions): string {
  const found = resolveSpec(spec, options.configDir, options.fallbackDirs ?? DEFAULT_FALLBACK_DIRS);
  if ("error" in found) throw new PluginError(spec, found.error);
  return found.file;
}

/**
 * Imports the plugin a spec names: its default export, or the module itself if that is a Plugin.
 * Whether the result is a Plugin is the host's to check (host.use).
 */
export async function importPlugin(spec: string, options: PluginLoadOptions): Promise<unknown> {
  const file = resolvePluginFile(spec, options);
  let mod: Record<string, unknown>;
  try {
    mod = await import(pathToFileURL(file).href);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new PluginError(spec, `failed to load ${file}: ${reason}`, { cause: err });
  }
  const def = mod.default as { default?: unknown } | undefined;
  if (isPlugin(def)) return def;
  if (isPlugin(mod)) return mod;
  // A CommonJS module compiled from `export default`.
  if (def && isPlugin(def.default)) return def.default;
  return def ?? mod;
}

/** Imports and applies each plugin in order, with its options, recording the spec as its source. */
export async function loadPlugins(
  specs: readonly PluginSpec[],
  options: PluginLoadOptions & { host: Pick<Host, "use"> },
): Promise<void> {
  for (const { spec, options: pluginOptions } of specs) {
    const plugin = await importPlugin(spec, options);
    await options.host.use(plugin, pluginOptions, spec);
  }
}

/** Applies a loaded config's plugins to the host. */
export function resolvePlugins(
  config: Pick<McpxConfig, "plugins" | "configDir">,
  host: Pick<Host, "use">,
  options: { fallbackDirs?: readonly string[] } = {},
): Promise<void> {
  return loadPlugins(config.plugins, { ...options, configDir: config.configDir, host });
}
