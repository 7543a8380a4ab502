/**
 * `mcpx config check [file]`: loads the config and applies its plugins exactly as the daemon would,
 * and checks each server's revision and transport pins and its auth against what they installed (an
 * unknown revision, transport or auth type names the server and lists the installed ones; OAuth is
 * not available yet), then prints what it found (exit 0) or every problem, one per line (exit 2).
 * With --connect it also starts each server and reports its revision, transport and tool count, or
 * the exact failure (exit 3 when one is unreachable). Never prints an env value, an auth value, a
 * URL's query string or credentials, or anything that came from ${env:...}.
 */
import * as path from "node:path";
import { checkAuth } from "@mcpx/client";
import { loadConfig, type McpxConfig, pinProblems, type ServerConfig } from "@mcpx/config";
import { AuthError, ConfigError, PluginError } from "@mcpx/core";
import { applyPlugins, loadRuntime } from "@mcpx/daemon";
import { toolFilter } from "@mcpx/gateway";
import { createHost, createLogger, type Host, redact } from "@mcpx/host";
import { EXIT_UNREACHABLE } from "../errors.js";
import type { MainIO } from "../io.js";
import { publicUrl } from "./config-output.js";

export interface CheckOptions {
  file: string;
  json?: boolean;
  /** Also start each server and report its revision, transport and tool count, or its failure. */
  connect?: boolean;
}

interface ServerSummary {
  name: string;
  kind: "command" | "url";
  command?: string;
  url?: string;
  namespace: string | null;
  revision?: string;
  transport?: string;
  auth?: string;
  env?: string[];
  disabled?: true;
  /** With --connect: what connecting found. */
  connect?: Connected;
}

interface PluginSummary {
  name: string;
  version?: string;
  source?: string;
}

export async function configCheck(options: CheckOptions, io: MainIO): Promise<number> {
  const file = path.resolve(io.cwd ?? process.cwd(), options.file);
  const shown = options.file;
  let config: McpxConfig | undefined;
  try {
    config = await loadConfig(file, io.env ? { env: io.env } : {});
    const secrets = config.secrets;
    const host = createHost({
      log: createLogger({
        level: config.log.level,
        json: config.log.json,
        write: (line) => io.stderr(`${line}\n`),
        secrets: () => secrets,
      }),
    });
    // Every built-in, as `mcpx plugins list` shows them (the daemon imports only those it uses).
    await applyPlugins(config, host, [], { all: true });
    checkAuths(config, host);
    const connected = options.connect ? await connectEach(config, io) : undefined;
    report(io, options, shown, config, host.plugins, connected);
    // Exit 3 when a server could not be reached: the config is fine, the servers are not.
    return connected && [...connected.values()].some((c) => c.status !== "connected") ? EXIT_UNREACHABLE : 0;
  } catch (err) {
    if (!(err instanceof ConfigError || err instanceof PluginError)) throw err;
    let problems = err instanceof ConfigError ? err.problems : [err.message];
    if (err instanceof ConfigError && (err.cause as NodeJS.ErrnoException | undefined)?.code === "ENOENT") {
      // Which file was looked for, whatever directory the command ran in, and how to make one.
      problems = [`no config file at ${file} (create one with \`mcpx config init\`)`];
    }
    const safe = problems.map((p) => (config ? redact(p, config.secrets) : p));
    if (options.json) {
      io.stdout(`${JSON.stringify({ ok: false, config: file, problems: safe }, null, 2)}\n`);
    } else {
      for (const p of safe) io.stderr(`${shown}: ${p}\n`);
    }
    return 2;
  }
}

/**
 * Every server's revision and transport pins and its auth, against what the plugins installed; all
 * the problems at once.
 */
function checkAuths(config: McpxConfig, host: Host): void {
  const problems: string[] = pinProblems(Object.values(config.servers), host.registry);
  for (const server of Object.values(config.servers)) {
    try {
      checkAuth(host.registry, server);
    } catch (err) {
      if (err instanceof ConfigError) problems.push(...err.problems);
      else if (err instanceof AuthError) problems.push(err.message);
      else throw err;
    }
  }
  if (problems.length > 0) throw new ConfigError(problems.join("; "), problems);
}

function report(
  io: MainIO,
  options: CheckOptions,
  shown: string,
  config: McpxConfig,
  plugins: readonly PluginSummary[],
  connected?: ReadonlyMap<string, Connected>,
): void {
  const servers = Object.values(config.servers).map((server) => {
    const summary = summarise(server);
    const found = connected?.get(server.name);
    if (found) summary.connect = found;
    return summary;
  });
  if (options.json) {
    const out = { ok: true, config: config.path, servers, plugins };
    io.stdout(`${redact(JSON.stringify(out, null, 2), config.secrets)}\n`);
    return;
  }
  const lines = [`${shown}: ok`, `servers (${servers.length}):`];
  for (const s of servers) {
    const facts = [
      s.kind === "command" ? `command: ${s.command}` : `url: ${s.url}`,
      `namespace: ${s.namespace ?? "(none)"}`,
    ];
    if (s.revision) facts.push(`revision: ${s.revision}`);
    if (s.transport) facts.push(`transport: ${s.transport}`);
    if (s.auth) facts.push(`auth: ${s.auth}`);
    if (s.env) facts.push(`env: ${s.env.join(", ")}`);
    if (s.disabled) facts.push("disabled");
    if (s.connect) facts.push(connectedLine(s.connect));
    lines.push(`  ${s.name}`, ...facts.map((f) => `    ${f}`));
  }
  lines.push(`plugins (${plugins.length}):`);
  for (const p of plugins) {
    lines.push(`  ${p.name}${p.version ? `@${p.version}` : ""}${p.source ? `  from ${p.source}` : ""}`);
  }
  io.stdout(`${redact(lines.join("\n"), config.secrets)}\n`);
}

interface Connected {
  status: string;
  revision?: string;
  transport?: string;
  tools?: number;
  error?: string;
}

/**
 * Starts every server that is not disabled, as `mcpx serve` would (concurrently, no retries), and
 * notes what each negotiated and how many tools it shows (its tools.include/exclude applied), or
 * exactly why it failed (redacted like every upstream error).
 */
async function connectEach(config: McpxConfig, io: MainIO): Promise<Map<string, Connected>> {
  const rt = await loadRuntime({
    configFile: config.path ?? "(config)",
    config,
    ...(io.env ? { env: io.env } : {}),
    writeLog: (line) => io.stderr(`${line}\n`),
    logLevel: "error",
    oneShot: true,
  });
  const out = new Map<string, Connected>();
  rt.gateway.start();
  try {
    await rt.gateway.pool.settled();
    for (const state of rt.gateway.pool.states()) {
      const found: Connected = { status: state.status };
      if (state.revision) found.revision = state.revision;
      if (state.transport) found.transport = state.transport;
      if (state.error) found.error = state.error;
      const client = rt.gateway.pool.client(state.name);
      const server = config.servers[state.name];
      if (client && server && state.status === "connected") {
        try {
          const shown = toolFilter(server.tools);
          found.tools = client.negotiated.serverCapabilities.tools
            ? (await client.listTools()).filter((t) => shown(String(t.name))).length
            : 0;
        } catch (err) {
          found.status = "failed";
          found.error = `listing its tools failed: ${redact((err as Error).message, config.secrets)}`;
        }
      }
      out.set(state.name, found);
    }
  } finally {
    await rt.gateway.stop();
  }
  return out;
}

function connectedLine(c: Connected): string {
  if (c.status !== "connected") return `${c.status}: ${c.error ?? "no connection"}`;
  return `connected: ${c.revision} over ${c.transport}, ${c.tools ?? 0} tool${c.tools === 1 ? "" : "s"}`;
}

function summarise(server: ServerConfig): ServerSummary {
  const namespace = server.namespacing ? server.namespace : null;
  const out: ServerSummary =
    server.kind === "command"
      ? { name: server.name, kind: "command", command: commandLine(server.command, server.args), namespace }
      : { name: server.name, kind: "url", url: publicUrl(server.url), namespace };
  if (server.revision) out.revision = server.revision;
  if (server.transport) out.transport = server.transport;
  if (server.auth) out.auth = server.auth.type;
  if (server.kind === "command" && Object.keys(server.env).length > 0) out.env = Object.keys(server.env);
  if (server.disabled) out.disabled = true;
  return out;
}

function commandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(" ");
}
