/**
 * The MCP revisions the strict validators know: those the installed revision plugins provide, read
 * from the registry of a host with mcpx's built-in revision plugins applied, each mapped to the
 * schema file the testkit has for it (schemas/<version>.json, a copy of the spec's schema.json).
 * No list of dates is written here: a new revision plugin among the dependencies is a new revision,
 * and strictly validated once its schema file is added.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Plugin, type RegistryView, silentLogger } from "@mcpx/core";
import { createHost } from "@mcpx/host";
import revision20241105 from "@mcpx/revision-2024-11-05";
import revision20250326 from "@mcpx/revision-2025-03-26";
import revision20250618 from "@mcpx/revision-2025-06-18";
import revision20251125 from "@mcpx/revision-2025-11-25";
import revision20260728 from "@mcpx/revision-2026-07-28";

/** The revision plugins mcpx applies by default (as apps/daemon's builtins.ts does). */
const BUILT_IN_REVISION_PLUGINS: readonly Plugin<unknown>[] = [
  revision20241105,
  revision20250326,
  revision20250618,
  revision20251125,
  revision20260728,
] as readonly Plugin<unknown>[];

/** A revision the registry holds, and the testkit's schema file for it, if it has one. */
export interface StrictRevision {
  readonly version: string;
  /** Absolute path of schemas/<version>.json; undefined when the testkit has none. */
  readonly schemaFile: string | undefined;
}

/** The schema file of a version, where the testkit has one. */
export function schemaFileOf(version: string): string | undefined {
  // The schemas ship beside src/ and dist/ (both one level below the package root), as data.
  const file = fileURLToPath(new URL(`../schemas/${version}.json`, import.meta.url));
  return /^\d{4}-\d{2}-\d{2}$/.test(version) && existsSync(file) ? file : undefined;
}

/** Every revision a registry holds, oldest first, each with its schema file where there is one. */
export function strictRevisions(registry: Pick<RegistryView, "revisions">): StrictRevision[] {
  return registry
    .revisions()
    .map((r) => ({ version: r.version, schemaFile: schemaFileOf(r.version) }))
    .reverse();
}

const host = createHost({ log: silentLogger });
for (const plugin of BUILT_IN_REVISION_PLUGINS) await host.use(plugin);

/** The installed revisions, oldest first. */
export const INSTALLED: readonly StrictRevision[] = Object.freeze(strictRevisions(host.registry));

/** The versions the strict validators check, oldest first: every installed one with a schema file. */
export const REVISIONS: readonly string[] = Object.freeze(
  INSTALLED.filter((r) => r.schemaFile !== undefined).map((r) => r.version),
);

/** Whether a version can be validated strictly as itself. */
export function isRevision(value: string): boolean {
  return REVISIONS.includes(value);
}
