/**
 * Loading a config: read, parse (with the line and column of a syntax error), expand `${env:NAME}`,
 * validate (every problem at once, each naming its key path), apply defaults.
 */
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import * as path from "node:path";
import { ConfigError, DEFAULT_UPSTREAM_SETTINGS, type UpstreamSettings } from "@mcpx/core";
import { expandSecrets } from "@mcpx/host";
import { expandEnv } from "./env.js";
import { JsonSyntaxError, parseJson } from "./json.js";
import { HOST_FORMAT_TYPES } from "./schema.js";
import type {
  McpxConfig,
  McpxConfigFile,
  PluginSpec,
  ServerConfig,
  ServerEntryFile,
  StoreConfig,
  TimeoutsFile,
} from "./types.js";
import { validateConfig } from "./validate.js";

export type Env = Readonly<Record<string, string | undefined>>;

export interface LoadOptions {
  /** Where `${env:NAME}` is looked up; process.env by default. */
  env?: Env;
}

export interface ParseOptions extends LoadOptions {
  /** The file the text came from: names it in errors, and relative paths are resolved from its directory. */
  path?: string;
}

export const DEFAULT_LISTEN = Object.freeze({
  host: "127.0.0.1",
  port: 7333,
  path: "/mcp",
  maxBodyBytes: 4 * 1024 * 1024,
  headersTimeout: 5_000,
  requestTimeout: 30_000,
  maxConnections: 1000,
  sessions: Object.freeze({ max: 1000, perClient: 100, idleTimeout: 1_800_000, handshakeTimeout: 10_000 }),
});
export const DEFAULT_RELOAD = Object.freeze({ watch: true, debounce: 200, grace: 10_000 });

/**
 * Where era records live when the config names no `stateDir` (XDG Base Directory): $XDG_STATE_HOME/mcpx,
 * or ~/.local/state/mcpx when XDG_STATE_HOME is unset, empty or relative (the spec says to ignore a
 * relative one). `env` is where the variables are read (process.env by default).
 */
export function defaultStateDir(env: Env = process.env): string {
  const xdg = env.XDG_STATE_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, "mcpx");
  const home = env.HOME && path.isAbsolute(env.HOME) ? env.HOME : homedir();
  return path.join(home, ".local", "state", "mcpx");
}

/** Reads and loads a config file. Throws ConfigError, whose message starts with the file's path. */
export async function loadConfig(file: string, options: LoadOptions = {}): Promise<McpxConfig> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (err as Error).message;
    throw configError(file, [`cannot read the config file: ${reason}`], err);
  }
  return parseConfig(text, { ...options, path: file });
}

/** Loads a config from its text or its parsed value. */
export function parseConfig(input: string | object, options: ParseOptions = {}): McpxConfig {
  const label = options.path ?? "(config)";
  let data: unknown = input;
  if (typeof input === "string") {
    try {
      data = parseJson(input);
    } catch (err) {
      const where = err instanceof JsonSyntaxError ? `at line ${err.line}, column ${err.column}: ` : "";
      const what =
        err instanceof JsonSyntaxError ? err.message.slice(err.message.indexOf(": ") + 2) : String(err);
      throw configError(label, [`invalid JSON ${where}${what}`], err);
    }
  }

  const expansion = expandEnv(data, options.env ?? process.env);
  const envProblems = expansion.problems.map((p) => `${p.path}: ${p.message}`);
  // A reference that failed is left as written; what the schema then says about it is noise.
  const failedAt = expansion.problems.map((p) => p.path);
  const schemaProblems = validateConfig(expansion.value).filter(
    (line) =>
      !failedAt.some(
        (at) => line.startsWith(`${at}: `) || line.startsWith(`${at}.`) || line.startsWith(`${at}[`),
      ),
  );
  const problems = [...envProblems, ...schemaProblems];
  if (problems.length > 0) throw configError(label, problems);

  const configPath = options.path === undefined ? undefined : path.resolve(options.path);
  const configDir = configPath === undefined ? process.cwd() : path.dirname(configPath);
  return normalise(
    expansion.value as McpxConfigFile,
    configPath,
    configDir,
    expansion.expanded,
    options.env ?? process.env,
  );
}

function configError(label: string, problems: string[], cause?: unknown): ConfigError {
  const summary = problems.length === 1 ? problems[0] : `${problems.length} problems: ${problems.join("; ")}`;
  return new ConfigError(`${label}: ${summary}`, problems, cause === undefined ? undefined : { cause });
}

/** The global upstream settings: `upstream.*` over the defaults. */
export function upstreamSettings(upstream: McpxConfigFile["upstream"] = {}): UpstreamSettings {
  const d = DEFAULT_UPSTREAM_SETTINGS;
  return withTimeouts(
    {
      ...d,
      versionAttempts: upstream.versionAttempts ?? d.versionAttempts,
      listenReopenDelay: upstream.listenReopenDelay ?? d.listenReopenDelay,
      sseReconnectDelay: upstream.sseReconnectDelay ?? d.sseReconnectDelay,
      sseReconnectAttempts: upstream.sseReconnectAttempts ?? d.sseReconnectAttempts,
      maxInputRounds: upstream.maxInputRounds ?? d.maxInputRounds,
      maxFrameBytes: upstream.maxFrameBytes ?? d.maxFrameBytes,
      maxNameLength: upstream.maxNameLength ?? d.maxNameLength,
    },
    upstream.timeouts,
  );
}

/** Settings with a `timeouts` object (global or one server's) applied. */
export function withTimeouts(base: UpstreamSettings, timeouts: TimeoutsFile = {}): UpstreamSettings {
  return {
    ...base,
    requestTimeout: timeouts.request ?? base.requestTimeout,
    maxTotalTimeout: timeouts.maxTotal ?? base.maxTotalTimeout,
    handshakeTimeout: timeouts.handshake ?? base.handshakeTimeout,
    probeTimeout: timeouts.probe ?? base.probeTimeout,
    closeGrace: timeouts.closeGrace ?? base.closeGrace,
    ready: timeouts.ready ?? base.ready,
  };
}

function normalise(
  file: McpxConfigFile,
  configPath: string | undefined,
  configDir: string,
  expanded: string[],
  env: Env,
): McpxConfig {
  const upstream = upstreamSettings(file.upstream);
  const secrets = new Set(expanded);
  const servers: Record<string, ServerConfig> = {};
  for (const [name, entry] of Object.entries(file.servers ?? file.mcpServers ?? {})) {
    servers[name] = normaliseServer(name, entry, upstream, configDir);
    if (entry.auth) collectStrings(entry.auth, secrets, ["type"]);
    if (entry.env) collectStrings(entry.env, secrets);
  }
  if (file.listen?.token) secrets.add(file.listen.token);
  if (file.store) storeSecrets(file.store, secrets);
  secrets.delete("");

  return {
    path: configPath,
    configDir,
    listen: {
      ...DEFAULT_LISTEN,
      ...file.listen,
      sessions: { ...DEFAULT_LISTEN.sessions, ...file.listen?.sessions },
    },
    upstream,
    servers,
    plugins: (file.plugins ?? []).map(normalisePlugin),
    roots: file.roots ?? [],
    ...(file.store === undefined ? {} : { store: file.store }),
    stateDir: file.stateDir === undefined ? defaultStateDir(env) : path.resolve(configDir, file.stateDir),
    replica: { ttl: 15_000, ...file.replica },
    console: file.console ?? true,
    log: { level: file.log?.level ?? "info", json: file.log?.json ?? false },
    reload: { ...DEFAULT_RELOAD, ...file.reload },
    readiness: { require: file.readiness?.require ?? "all" },
    telemetry: file.telemetry ?? {},
    // Each in every form a server may echo it in (JSON-escaped, percent-encoded), worked out once here.
    secrets: expandSecrets(secrets),
  };
}

function normaliseServer(
  name: string,
  entry: ServerEntryFile,
  upstream: UpstreamSettings,
  configDir: string,
): ServerConfig {
  const transport = entry.transport ?? (entry.type === undefined ? undefined : HOST_FORMAT_TYPES[entry.type]);
  const base = {
    name,
    namespace: entry.namespace ?? name,
    namespacing: entry.namespacing ?? true,
    disabled: entry.disabled ?? false,
    ...(entry.revision === undefined ? {} : { revision: entry.revision }),
    ...(transport === undefined ? {} : { transport }),
    ...(entry.auth === undefined ? {} : { auth: entry.auth }),
    tools: entry.tools ?? {},
    settings: withTimeouts(upstream, entry.timeouts),
  };
  if (entry.command !== undefined) {
    return {
      ...base,
      kind: "command",
      command: entry.command,
      args: entry.args ?? [],
      ...(entry.cwd === undefined ? {} : { cwd: path.resolve(configDir, entry.cwd) }),
      env: entry.env ?? {},
    };
  }
  return { ...base, kind: "url", url: entry.url as string };
}

function normalisePlugin(item: NonNullable<McpxConfigFile["plugins"]>[number]): PluginSpec {
  if (typeof item === "string") return { spec: item };
  const [spec, options] = item;
  return options === undefined ? { spec } : { spec, options };
}

/**
 * Every string of the store's options (but its type), and the password of any URL among them on
 * its own: an error of the store's client may quote it without the rest of the URL.
 */
function storeSecrets(store: StoreConfig, into: Set<string>): void {
  const strings = new Set<string>();
  collectStrings(store, strings, ["type"]);
  for (const text of strings) {
    into.add(text);
    if (!URL.canParse(text)) continue;
    const { password } = new URL(text);
    if (password === "") continue;
    into.add(password);
    into.add(decodeURIComponent(password));
  }
}

function collectStrings(value: unknown, into: Set<string>, skipKeys: readonly string[] = []): void {
  if (typeof value === "string") into.add(value);
  else if (Array.isArray(value)) for (const v of value) collectStrings(v, into);
  else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) if (!skipKeys.includes(k)) collectStrings(v, into);
  }
}
