/**
 * What a reload changes: the upstreams added, removed and changed (anything of the server's own
 * resolved entry, its auth and the `upstream.*` settings it inherits included), and the top-level
 * keys that only take effect when mcpx restarts. Only enabled servers count: disabling one removes
 * it, enabling one adds it. Changes are named by key, never by value (a value may be a secret).
 */
import type { McpxConfig, ServerConfig } from "./types.js";

export interface ServerChange {
  name: string;
  /** The keys of the resolved entry that differ (`auth`, `args`, `settings`, …). */
  keys: string[];
}

export interface ConfigDiff {
  added: string[];
  removed: string[];
  changed: ServerChange[];
  unchanged: string[];
  /** Top-level keys whose new value is not applied until mcpx restarts. */
  restartOnly: string[];
}

/**
 * Keys read once at start: the listening socket and its bounds, the console, where state lives,
 * the state store, the plugins applied, the logger and telemetry (its exporters are made once).
 * Everything else is applied live.
 */
export const RESTART_ONLY_KEYS = [
  "listen",
  "console",
  "stateDir",
  "store",
  "plugins",
  "log",
  "replica",
  "telemetry",
] as const;

export function diffConfig(old: McpxConfig, next: McpxConfig): ConfigDiff {
  const before = enabled(old);
  const after = enabled(next);
  const diff: ConfigDiff = { added: [], removed: [], changed: [], unchanged: [], restartOnly: [] };
  for (const name of before.keys()) if (!after.has(name)) diff.removed.push(name);
  for (const [name, server] of after) {
    const prior = before.get(name);
    if (!prior) {
      diff.added.push(name);
      continue;
    }
    const keys = changedKeys(prior, server);
    if (keys.length > 0) diff.changed.push({ name, keys });
    else diff.unchanged.push(name);
  }
  for (const key of RESTART_ONLY_KEYS) {
    if (!same(old[key], next[key])) diff.restartOnly.push(key);
  }
  return diff;
}

/** Whether a reload would change anything at all. */
export function isEmptyDiff(diff: ConfigDiff): boolean {
  return (
    diff.added.length === 0 &&
    diff.removed.length === 0 &&
    diff.changed.length === 0 &&
    diff.restartOnly.length === 0
  );
}

function enabled(config: McpxConfig): Map<string, ServerConfig> {
  return new Map(Object.entries(config.servers).filter(([, s]) => !s.disabled));
}

function changedKeys(a: ServerConfig, b: ServerConfig): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys]
    .filter(
      (k) =>
        !same((a as unknown as Record<string, unknown>)[k], (b as unknown as Record<string, unknown>)[k]),
    )
    .sort();
}

/** Deep equality of JSON values, key order aside. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => same(v, b[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra).filter((k) => ra[k] !== undefined);
  const kb = Object.keys(rb).filter((k) => rb[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(rb, k) && same(ra[k], rb[k]));
}
