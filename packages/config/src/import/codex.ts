/**
 * Codex's `~/.codex/config.toml` (and a project's `.codex/config.toml`): a `[mcp_servers.<name>]` table
 * each, with `command`/`args`/`env`/`env_vars`/`cwd`, or `url` with `bearer_token_env_var`,
 * `http_headers` and `env_http_headers` (header → variable); `enabled`, `startup_timeout_sec` (or
 * `_ms`), `tool_timeout_sec`, `enabled_tools`, `disabled_tools`. Codex reads variables by name
 * (`env_vars`, `*_env_var`), which become `${env:NAME}` references.
 */
import * as path from "node:path";
import { ENV_FILE_LEFT_OUT, OAUTH_LEFT_OUT } from "./notes.js";
import {
  type HostDefinition,
  isObject,
  type Json,
  type ReadContext,
  stringMap,
  strings,
  text,
} from "./read.js";
import type { KeyPath } from "./report.js";
import type { HostServer } from "./types.js";

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const LEFT_OUT: Record<string, string> = {
  oauth: OAUTH_LEFT_OUT,
  scopes: OAUTH_LEFT_OUT,
  oauth_resource: OAUTH_LEFT_OUT,
  required: "Codex's own (it refuses to start without the server); left out",
  env_file: ENV_FILE_LEFT_OUT,
};

const READ = new Set([
  "command",
  "args",
  "env",
  "env_vars",
  "cwd",
  "url",
  "bearer_token_env_var",
  "bearer_token",
  "http_headers",
  "env_http_headers",
  "enabled",
  "startup_timeout_sec",
  "startup_timeout_ms",
  "tool_timeout_sec",
  "enabled_tools",
  "disabled_tools",
  ...Object.keys(LEFT_OUT),
]);

export const codex: HostDefinition = {
  format: "codex",
  label: "Codex",
  bareEnv: false,
  read(doc, ctx) {
    if (!isObject(doc) || !isObject(doc.mcp_servers)) return undefined;
    ctx.report.serversAt = ["mcp_servers"];
    const out: HostServer[] = [];
    for (const [key, raw] of Object.entries(doc.mcp_servers)) {
      const at = ["mcp_servers", key];
      if (!isObject(raw)) ctx.report.warn(at, "is not a table; not imported");
      else out.push(readServer(key, raw, at, ctx));
    }
    return out;
  },
};

function readServer(key: string, raw: Json, at: KeyPath, ctx: ReadContext): HostServer {
  const server: HostServer = { key, at: [...at] };
  const command = text(raw.command, [...at, "command"], ctx);
  if (command !== undefined) server.command = command;
  if (raw.args !== undefined) server.args = strings(raw.args, [...at, "args"], ctx);
  const env: Record<string, string> = raw.env === undefined ? {} : stringMap(raw.env, [...at, "env"], ctx);
  for (const name of envNames(raw.env_vars, [...at, "env_vars"], ctx)) env[name] ??= `\${env:${name}}`;
  if (Object.keys(env).length > 0) server.env = env;
  const cwd = text(raw.cwd, [...at, "cwd"], ctx);
  if (cwd !== undefined)
    server.cwd = ctx.baseDir && !cwd.includes("${") ? path.resolve(ctx.baseDir, cwd) : cwd;

  const url = text(raw.url, [...at, "url"], ctx);
  if (url !== undefined) server.url = url;
  const headers: Record<string, string> =
    raw.http_headers === undefined ? {} : stringMap(raw.http_headers, [...at, "http_headers"], ctx);
  if (raw.env_http_headers !== undefined) {
    const byEnv = stringMap(raw.env_http_headers, [...at, "env_http_headers"], ctx);
    for (const [header, name] of Object.entries(byEnv)) {
      if (ENV_NAME.test(name)) headers[header] = `\${env:${name}}`;
      else
        ctx.report.warn([...at, "env_http_headers", header], "is not an environment variable name; left out");
    }
  }
  const bearerEnv = raw.bearer_token_env_var;
  if (typeof bearerEnv === "string" && ENV_NAME.test(bearerEnv)) {
    headers.Authorization = `Bearer \${env:${bearerEnv}}`;
  } else if (bearerEnv !== undefined) {
    ctx.report.warn([...at, "bearer_token_env_var"], "is not an environment variable name; left out");
  } else if (typeof raw.bearer_token === "string") {
    // Codex refuses an inline token; whoever wrote one meant it, so it is kept (and warned about).
    headers.Authorization = `Bearer ${raw.bearer_token}`;
  }
  if (Object.keys(headers).length > 0) server.headers = headers;

  if (raw.enabled !== undefined) {
    if (typeof raw.enabled === "boolean") server.disabled = !raw.enabled;
    else ctx.report.warn([...at, "enabled"], "is not true or false; left out");
  }
  const handshake =
    seconds(raw.startup_timeout_sec, [...at, "startup_timeout_sec"], ctx) ??
    millis(raw.startup_timeout_ms, [...at, "startup_timeout_ms"], ctx);
  const request = seconds(raw.tool_timeout_sec, [...at, "tool_timeout_sec"], ctx);
  if (handshake !== undefined || request !== undefined) {
    server.timeouts = {
      ...(handshake === undefined ? {} : { handshake }),
      ...(request === undefined ? {} : { request }),
    };
  }
  const include =
    raw.enabled_tools === undefined ? [] : strings(raw.enabled_tools, [...at, "enabled_tools"], ctx);
  const exclude =
    raw.disabled_tools === undefined ? [] : strings(raw.disabled_tools, [...at, "disabled_tools"], ctx);
  if (include.length || exclude.length) {
    server.tools = { ...(include.length ? { include } : {}), ...(exclude.length ? { exclude } : {}) };
  }
  for (const [k, why] of Object.entries(LEFT_OUT)) if (raw[k] !== undefined) ctx.report.warn([...at, k], why);
  ctx.report.unknownKeys(raw, READ, at, "Codex");
  return server;
}

/** `env_vars`: names (or `{ name }` tables) of variables Codex passes on from its own environment. */
function envNames(value: unknown, at: KeyPath, ctx: ReadContext): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    ctx.report.warn(at, "is not an array; left out");
    return [];
  }
  const out: string[] = [];
  value.forEach((v, i) => {
    const name = isObject(v) ? v.name : v;
    if (typeof name === "string" && ENV_NAME.test(name)) out.push(name);
    else ctx.report.warn([...at, i], "is not an environment variable name; left out");
  });
  return out;
}

/** Codex's seconds (fractions allowed) as mcpx's milliseconds. */
function seconds(value: unknown, at: KeyPath, ctx: ReadContext): number | undefined {
  return value === undefined ? undefined : millis(typeof value === "number" ? value * 1000 : value, at, ctx);
}

function millis(value: unknown, at: KeyPath, ctx: ReadContext): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    ctx.report.warn(at, "is not a positive number; left out");
    return undefined;
  }
  return Math.max(1, Math.round(value));
}
