/**
 * The JSON hosts (Claude, Cursor, VS Code, Windsurf) share one shape: an object of servers, each with
 * `command`/`args`/`env`(/`cwd`) or a URL with `headers`, and a `type`. What differs is declared per
 * host (see claude.ts, cursor.ts, vscode.ts, windsurf.ts): where the servers are, which key holds the
 * URL, what each `type` means, the placeholder syntax, and the host's own extra keys.
 */
import * as path from "node:path";
import { isObject, type Json, type ReadContext, stringMap, strings, text } from "./read.js";
import type { KeyPath } from "./report.js";
import type { HostServer } from "./types.js";

/** A host key that needs more than the shared reading: it sets what it means on the server. */
export type ExtraKey = (value: unknown, server: HostServer, ctx: ReadContext, at: KeyPath) => void;

export interface JsonHost {
  /** For warnings: "Claude", "Cursor"… */
  name: string;
  /** The keys that may hold the URL, first found wins (Windsurf: `serverUrl`, then `url`). */
  urlKeys: readonly string[];
  /** Each `type` the host accepts and the transport it pins (null: no pin, the probe decides). */
  types: Readonly<Record<string, string | null>>;
  /** The host's own keys, read by a function each; a string is why mcpx leaves it out (a warning). */
  extra: Readonly<Record<string, ExtraKey | string>>;
}

const SHARED = ["command", "args", "env", "cwd", "headers", "type", "disabled"];

/** Every server in `servers` (the object at `at` in the host file). */
export function readServers(servers: Json, at: KeyPath, host: JsonHost, ctx: ReadContext): HostServer[] {
  ctx.report.serversAt = at;
  const known = new Set([...SHARED, ...host.urlKeys, ...Object.keys(host.extra)]);
  const out: HostServer[] = [];
  for (const [key, raw] of Object.entries(servers)) {
    const here = [...at, key];
    if (!isObject(raw)) {
      ctx.report.warn(here, "is not an object; not imported");
      continue;
    }
    out.push(readServer(key, raw, here, host, known, ctx));
  }
  return out;
}

function readServer(
  key: string,
  raw: Json,
  at: KeyPath,
  host: JsonHost,
  known: ReadonlySet<string>,
  ctx: ReadContext,
): HostServer {
  const server: HostServer = { key, at: [...at] };
  const str = (k: string) => text(raw[k], [...at, k], ctx);
  const command = str("command");
  if (command !== undefined) server.command = command;
  if (raw.args !== undefined) server.args = strings(raw.args, [...at, "args"], ctx);
  if (raw.env !== undefined) server.env = stringMap(raw.env, [...at, "env"], ctx);
  const cwd = str("cwd");
  if (cwd !== undefined)
    server.cwd = ctx.baseDir && !cwd.includes("${") ? path.resolve(ctx.baseDir, cwd) : cwd;
  const urlKey = host.urlKeys.find((k) => raw[k] !== undefined);
  if (urlKey !== undefined) {
    const url = str(urlKey);
    if (url !== undefined) server.url = url;
    for (const other of host.urlKeys) {
      if (other !== urlKey && raw[other] !== undefined) {
        ctx.report.warn([...at, other], `"${urlKey}" is used; this one is left out`);
      }
    }
  }
  if (raw.headers !== undefined) server.headers = stringMap(raw.headers, [...at, "headers"], ctx);
  if (raw.type !== undefined) {
    const type = raw.type;
    if (typeof type === "string" && Object.hasOwn(host.types, type)) {
      const pin = host.types[type];
      if (pin) server.transport = pin;
    } else {
      ctx.report.warn(
        [...at, "type"],
        `${JSON.stringify(type)} is not a ${host.name} server type mcpx knows (${Object.keys(host.types).join(", ")}); the transport is left to the probe`,
      );
    }
  }
  if (raw.disabled !== undefined) {
    if (typeof raw.disabled === "boolean") server.disabled = raw.disabled;
    else ctx.report.warn([...at, "disabled"], "is not true or false; left out");
  }
  for (const [k, how] of Object.entries(host.extra)) {
    if (raw[k] === undefined) continue;
    if (typeof how === "string") ctx.report.warn([...at, k], how);
    else how(raw[k], server, ctx, [...at, k]);
  }
  ctx.report.unknownKeys(raw, known, at, host.name);
  return server;
}
