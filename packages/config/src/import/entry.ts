/**
 * One host server as an mcpx entry: `command`/`args`/`cwd`/`env` or `url` with its transport pin,
 * the host's headers as an `auth` (`Authorization: Bearer …` alone → `bearer`, else `header`), and a
 * warning for every literal credential kept and every key that has no place in mcpx.
 */
import { ConfigError } from "@mcpx/core";
import type { AuthConfig, ServerEntryFile } from "../types.js";
import { type KeyPath, Report } from "./report.js";
import { envNameFor, isLiteralSecret } from "./secrets.js";
import type { HostServer, ImportWarning } from "./types.js";

const BEARER = /^Bearer\s+(\S+)$/i;

/** The entry, or undefined (with a warning saying why) when mcpx cannot run this server. */
export function toEntry(server: HostServer, report: Report): ServerEntryFile | undefined {
  const at = server.at;
  let entry: ServerEntryFile;
  if (server.command !== undefined && server.command !== "") {
    if (server.url !== undefined)
      report.warn([...at, "url"], 'a server has "command" or "url", not both; the url is left out');
    entry = { command: server.command };
    if (server.args?.length) entry.args = server.args;
    if (server.cwd !== undefined) entry.cwd = server.cwd;
    if (server.env && Object.keys(server.env).length > 0) {
      entry.env = server.env;
      for (const [name, value] of Object.entries(server.env)) {
        literalSecret(report, [...at, "env", name], name, value, envFor(server.key, name));
      }
    }
    if (server.headers && Object.keys(server.headers).length > 0) {
      report.warn(
        [...at, "headers"],
        "a command server has no HTTP headers; left out (give it credentials in env)",
      );
    }
  } else if (server.url !== undefined && server.url !== "") {
    // A URL read from the environment is checked when mcpx loads the config.
    if (!/^(https?:\/\/|\$\{env:)/i.test(server.url)) {
      report.warn(
        [...at, "url"],
        "mcpx reaches servers over http:// or https:// only; this server is not imported",
      );
      return undefined;
    }
    entry = { url: server.url };
    if (server.transport !== undefined) entry.transport = server.transport;
    if (server.env && Object.keys(server.env).length > 0) {
      report.warn([...at, "env"], "a URL server has no environment; left out");
    }
    const auth = headersToAuth(server, report);
    if (auth) entry.auth = auth;
  } else {
    report.warn(at, 'has neither "command" nor "url"; not imported');
    return undefined;
  }
  if (server.tools && (server.tools.include?.length || server.tools.exclude?.length))
    entry.tools = server.tools;
  if (server.timeouts && Object.keys(server.timeouts).length > 0) entry.timeouts = server.timeouts;
  if (server.disabled) entry.disabled = true;
  return entry;
}

function headersToAuth(server: HostServer, report: Report): AuthConfig | undefined {
  const headers = server.headers ?? {};
  const names = Object.keys(headers);
  if (names.length === 0) return undefined;
  for (const name of names) {
    const value = headers[name]!;
    const env = envNameFor(server.key, name.toLowerCase() === "authorization" ? "token" : name);
    literalSecret(report, [...server.at, "headers", name], name, value, env);
  }
  const only = names.length === 1 ? names[0]! : undefined;
  const bearer = only?.toLowerCase() === "authorization" ? BEARER.exec(headers[only]!) : null;
  if (bearer) return { type: "bearer", token: bearer[1]! };
  return { type: "header", headers: { ...headers } };
}

/** An env variable keeps its name when it is already one (GITHUB_TOKEN); else server and name. */
function envFor(server: string, name: string): string {
  return /^[A-Z_][A-Z0-9_]*$/.test(name) ? name : envNameFor(server, name);
}

function literalSecret(report: Report, at: KeyPath, name: string, value: string, env: string): void {
  if (!isLiteralSecret(name, value)) return;
  const reference = /^Bearer\s/i.test(value) ? `Bearer \${env:${env}}` : `\${env:${env}}`;
  report.warn(
    at,
    `a literal secret, kept as written in the mcpx config; write "${reference}" instead and set ${env} where mcpx runs`,
  );
}

/** What `mcpx config add` is given for one server. */
export interface ServerParts {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
  /** The variable holding a bearer token: `Authorization: Bearer ${env:VAR}`. */
  bearerEnv?: string;
  namespace?: string;
}

/**
 * A new server's entry, with the same rules as an import: headers as `auth`, a warning for each
 * literal credential. Throws ConfigError when it cannot be a server (a URL that is not http(s)).
 */
export function newServerEntry(
  name: string,
  parts: ServerParts,
): { entry: ServerEntryFile; warnings: ImportWarning[] } {
  const report = new Report();
  report.serversAt = ["servers"];
  const headers = { ...parts.headers };
  if (parts.bearerEnv !== undefined) headers.Authorization = `Bearer \${env:${parts.bearerEnv}}`;
  const server: HostServer = {
    key: name,
    at: ["servers", name],
    ...(parts.command === undefined ? {} : { command: parts.command, args: parts.args ?? [] }),
    ...(parts.env === undefined ? {} : { env: parts.env }),
    ...(parts.url === undefined ? {} : { url: parts.url }),
    ...(Object.keys(headers).length ? { headers } : {}),
  };
  const entry = toEntry(server, report);
  if (entry === undefined) {
    const problems = report.warnings.map((w) => `${w.at}: ${w.message}`);
    throw new ConfigError(problems.join("; "), problems);
  }
  if (parts.namespace !== undefined) entry.namespace = parts.namespace;
  return { entry, warnings: report.warnings };
}
