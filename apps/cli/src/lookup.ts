/**
 * Finding what a command names before asking for it: a server of the config, or a tool or prompt
 * of the connected upstreams. What is not there is a usage error with the nearest names suggested;
 * what is on an upstream that is not connected is an unreachable one, naming why.
 */
import type { McpxConfig } from "@mcpx/config";
import type { JSONObject } from "@mcpx/core";
import type { Runtime } from "@mcpx/daemon";
import { SEPARATOR, URI_SCHEME } from "@mcpx/gateway";
import { UnreachableError, UsageError } from "./errors.js";
import type { Pick } from "./one-shot.js";
import { didYouMean } from "./suggest.js";

/** A server the config lists, or a usage error suggesting the nearest. */
export function checkServer(config: McpxConfig, name: string): void {
  if (Object.hasOwn(config.servers, name)) return;
  const names = Object.keys(config.servers);
  throw new UsageError(
    `no server named ${name} in ${config.path ?? "the command line"}`,
    didYouMean(name, names) ??
      (names.length ? `the servers are ${names.join(", ")}` : "the config lists none"),
  );
}

/**
 * The servers a namespaced name may belong to: its namespace's (and those with namespacing off,
 * which keep their own names); every server when no namespace claims it.
 */
export function serversFor(name: string): Pick {
  return (config) => {
    const at = name.indexOf(SEPARATOR);
    const servers = Object.values(config.servers);
    const owner =
      at > 0 ? servers.find((s) => s.namespacing && s.namespace === name.slice(0, at)) : undefined;
    if (!owner) return undefined;
    return servers.filter((s) => s === owner || !s.namespacing).map((s) => s.name);
  };
}

/** The servers an mcpx:// URI may belong to, the same way. */
export function serversForUri(uri: string): Pick {
  return (config) => {
    const m = new RegExp(`^${URI_SCHEME}([^/]+)/`).exec(uri);
    const servers = Object.values(config.servers);
    const owner = m ? servers.find((s) => s.namespacing && s.namespace === m[1]) : undefined;
    if (!owner) return undefined;
    return servers.filter((s) => s === owner || !s.namespacing).map((s) => s.name);
  };
}

/** A tool or prompt as the catalog exposes it; UsageError or UnreachableError when it is not there. */
export async function findItem(rt: Runtime, kind: "tools" | "prompts", name: string): Promise<JSONObject> {
  const { gateway } = rt;
  const items = await gateway.catalog.list(kind);
  const item = items.find((t) => t.name === name);
  if (item) return item;
  const what = kind === "tools" ? "tool" : "prompt";
  const owner = gateway.namespaces.parseName(name)?.server;
  if (owner !== undefined && rt.config.servers[owner]?.disabled) {
    throw new UsageError(
      `${what} ${name} belongs to ${owner}, which the config disables`,
      'remove its "disabled"',
    );
  }
  const down = gateway.pool
    .states()
    .filter((s) => s.status !== "connected" && (owner === undefined || s.name === owner));
  const why = down.map((s) => `${s.name} is not connected${s.error ? `: ${s.error}` : ""}`).join("; ");
  const near = didYouMean(
    name,
    items.map((t) => String(t.name)),
  );
  // Its own upstream is down, or nothing near was found while some are: the name may well be right.
  if ((owner !== undefined && down.length > 0) || (!near && down.length > 0)) {
    throw new UnreachableError(`cannot reach the upstream of ${what} ${name}: ${why}`);
  }
  throw new UsageError(
    `unknown ${what} ${name}`,
    near ?? `mcpx ${kind} list shows the ${kind}${items.length === 0 ? " (there are none)" : ""}`,
  );
}
