/**
 * A server's `revision` and `transport` pins, checked against what the plugins installed once they
 * are in, as auth types are. The schema takes any date and any transport name, so the pin of a
 * third-party revision or transport plugin loads; the registry is the only list of what exists.
 */
import { ConfigError, formatKeyPath, type RegistryView } from "@mcpx/core";
import { HOST_FORMAT_TYPES } from "./schema.js";
import type { ServerConfig } from "./types.js";

/** What the check reads of the registry: the revisions and transports installed. */
export type PinRegistry = Pick<RegistryView, "revision" | "revisions" | "transport" | "transports">;

/**
 * Every problem with the servers' pins, each naming its key: a revision or transport no installed
 * plugin provides (listing the installed ones, and the nearest as a suggestion), or a transport pinned
 * on an entry it cannot reach (a command for a URL transport, a URL for a command one).
 */
export function pinProblems(servers: Iterable<ServerConfig>, registry: PinRegistry): string[] {
  const problems: string[] = [];
  for (const server of servers) {
    const at = (key: string) => formatKeyPath(["servers", server.name, key]);
    const { revision, transport } = server;
    if (revision !== undefined && !registry.revision(revision)) {
      const installed = registry.revisions().map((r) => r.version);
      problems.push(`${at("revision")}: ${unknown(revision, "revision", installed)}`);
    }
    if (transport === undefined) continue;
    const factory = registry.transport(transport);
    if (!factory) {
      const installed = registry.transports().map((t) => t.kind);
      problems.push(`${at("transport")}: ${unknown(transport, "transport", installed)}`);
    } else if (factory.reaches !== undefined && factory.reaches !== server.kind) {
      const has = server.kind === "command" ? "command" : "url";
      problems.push(
        `${at("transport")}: ${JSON.stringify(transport)} needs "${factory.reaches}", not "${has}"`,
      );
    }
  }
  return problems;
}

/** pinProblems as one ConfigError (every problem in it), for a config named `label`; nothing when none. */
export function checkPins(servers: Iterable<ServerConfig>, registry: PinRegistry, label = "(config)"): void {
  const problems = pinProblems(servers, registry);
  if (problems.length === 0) return;
  const summary = problems.length === 1 ? problems[0] : `${problems.length} problems: ${problems.join("; ")}`;
  throw new ConfigError(`${label}: ${summary}`, problems);
}

function unknown(pin: string, what: "revision" | "transport", installed: readonly string[]): string {
  const sorted = [...installed].sort();
  const near = suggestion(pin, sorted);
  const hint = near === undefined ? "" : ` (did you mean ${JSON.stringify(near)}?)`;
  const list = sorted.length > 0 ? `installed: ${sorted.join(", ")}` : `no ${what} plugin is installed`;
  return `${JSON.stringify(pin)} is not a ${what} any installed plugin provides${hint}; ${list}`;
}

/**
 * The installed name meant, if one is near: what the host format's `type` of that name stands for
 * ("sse" for "http+sse"), the same name in another case, else the nearest within two edits (a
 * mistyped digit of a date, "streamable_http").
 */
function suggestion(pin: string, installed: readonly string[]): string | undefined {
  const mapped: string | undefined = HOST_FORMAT_TYPES[pin as keyof typeof HOST_FORMAT_TYPES];
  if (mapped !== undefined && installed.includes(mapped)) return mapped;
  const lower = pin.toLowerCase();
  const sameCase = installed.find((name) => name.toLowerCase() === lower);
  if (sameCase !== undefined) return sameCase;
  let best: string | undefined;
  let bestDistance = 3;
  for (const name of installed) {
    const d = editDistance(lower, name.toLowerCase());
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

/** Levenshtein distance: the inserts, deletes and substitutions from a to b. */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost));
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}
