/** Server names that are not valid mcpx namespaces, made valid (schema.ts NAMESPACE_PATTERN). */
import { NAMESPACE_PATTERN } from "../schema.js";
import type { ServerEntryFile } from "../types.js";

const VALID = new RegExp(NAMESPACE_PATTERN);

export function isNamespace(name: string): boolean {
  return VALID.test(name);
}

/**
 * The nearest valid namespace: each run of other characters becomes `-`, `__` becomes `_` (it
 * separates a namespace from a tool name), and no `_` or `-` is left at either end.
 */
export function toNamespace(name: string): string {
  const out = name
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9_-]+/g, "-")
    .replace(/_{2,}/g, "_")
    .replace(/-{2,}/g, "-")
    .replace(/^[-_]+|[-_]+$/g, "");
  return out === "" ? "server" : out;
}

/** `base`, or `base-2`, `base-3`… whichever is not taken yet. */
export function unique(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

/**
 * Gives every entry a namespace that is valid and not in `taken` (which it fills): an entry whose
 * name is a free valid namespace is left as it is; any other keeps its name and gets `namespace`
 * (the name made valid, then `-2`, `-3`… until free), and `warn` says so.
 */
export function settleNamespaces(
  servers: Record<string, ServerEntryFile>,
  taken: Set<string>,
  warn: (name: string, message: string) => void,
): void {
  for (const [name, entry] of Object.entries(servers)) {
    const own = entry.namespace ?? name;
    if (isNamespace(own) && !taken.has(own)) {
      taken.add(own);
      continue;
    }
    const namespace = unique(toNamespace(own), taken);
    taken.add(namespace);
    entry.namespace = namespace;
    warn(
      name,
      isNamespace(own)
        ? `namespace "${own}" is already used by another server; this one gets "${namespace}"`
        : `"${own}" is not a valid mcpx namespace (letters, digits, _ and -, never "__", not ending in "_"); its namespace is "${namespace}"`,
    );
  }
}

/**
 * The namespace each namespaced server of a config uses; disabled ones too (validate.ts skips them),
 * so that enabling one later does not clash.
 */
export function namespacesOf(servers: Record<string, ServerEntryFile>): Set<string> {
  const out = new Set<string>();
  for (const [name, entry] of Object.entries(servers)) {
    if (entry.namespacing === false) continue;
    out.add(entry.namespace ?? name);
  }
  return out;
}
