/** The config as written (McpxConfigFile) and as loaded (McpxConfig, defaults applied). */
import type { JSONObject, LogLevel, UpstreamSettings } from "@mcpx/core";

export interface TimeoutsFile {
  request?: number;
  maxTotal?: number;
  handshake?: number;
  probe?: number;
  closeGrace?: number;
  ready?: number;
}

export interface ServerEntryFile {
  command?: string;
  args?: string[];
  cwd?: string;
  env?: Record<string, string>;
  url?: string;
  auth?: AuthConfig;
  namespace?: string;
  namespacing?: boolean;
  /** A revision's date; whether an installed plugin provides it is checked once plugins load. */
  revision?: string;
  /** A transport's name; checked the same way. */
  transport?: string;
  type?: "stdio" | "http" | "sse" | "streamable-http";
  tools?: ToolFilter;
  timeouts?: TimeoutsFile;
  disabled?: boolean;
}

/** What mcpx.json may hold, exactly as written. */
export interface McpxConfigFile {
  $schema?: string;
  listen?: Partial<Omit<ListenConfig, "sessions">> & { sessions?: Partial<ListenSessions> };
  upstream?: {
    versionAttempts?: number;
    listenReopenDelay?: number;
    sseReconnectDelay?: number;
    sseReconnectAttempts?: number;
    maxInputRounds?: number;
    maxFrameBytes?: number;
    maxNameLength?: number;
    timeouts?: TimeoutsFile;
  };
  servers?: Record<string, ServerEntryFile>;
  mcpServers?: Record<string, ServerEntryFile>;
  plugins?: (string | [string] | [string, JSONObject])[];
  roots?: Root[];
  store?: StoreConfig;
  stateDir?: string;
  replica?: Partial<ReplicaConfig>;
  /** The web console at / of the listen address (default true). */
  console?: boolean;
  log?: { level?: LogLevel; json?: boolean };
  reload?: Partial<ReloadConfig>;
  readiness?: { require?: ReadinessRule };
  telemetry?: TelemetryConfig;
}

/** OpenTelemetry traces and metrics (off unless `enabled` or the OTEL_* environment turn them on). */
export interface TelemetryConfig {
  enabled?: boolean;
  serviceName?: string;
  traces?: { exporter?: "otlp" | "console" | "none"; endpoint?: string };
  metrics?: { exporter?: "otlp" | "prometheus" | "none"; endpoint?: string; intervalMs?: number };
  /** The share of root traces sampled, 0 to 1 (a client's sampled flag is followed). */
  sampleRatio?: number;
}

/**
 * The config's `store`: a store plugin's type and its options (checked against the factory's
 * optionsSchema once plugins load). Every string in it but `type` is a secret (a URL's password).
 */
export interface StoreConfig extends JSONObject {
  type: string;
}

/** This mcpx as one replica of several on a shared store. */
export interface ReplicaConfig {
  /** Its name in session records and errors (default <hostname>:<port>). */
  id?: string;
  /** Where the other replicas reach it, origin only (default http://<listen.host>:<port>). */
  url?: string;
  /** How long its liveness entry and session records outlive their last renewal (ms). */
  ttl: number;
}

/** How `mcpx serve` reloads its config (milliseconds for the durations). */
export interface ReloadConfig {
  /** Reload when the file changes. */
  watch: boolean;
  debounce: number;
  /** How long a removed or changed upstream's calls in flight get to finish. */
  grace: number;
}

/** Which enabled upstreams must be connected for /.mcpx/ready to answer 200. */
export type ReadinessRule = "all" | "any" | string[];

/** `{ type, ...the scheme's own keys }`. */
export interface AuthConfig extends JSONObject {
  type: string;
}

export interface ToolFilter {
  include?: string[];
  exclude?: string[];
}

export interface Root {
  uri: string;
  name?: string;
}

export interface ListenConfig {
  host: string;
  port: number;
  path: string;
  token?: string;
  allowedOrigins?: string[];
  maxBodyBytes: number;
  /** Milliseconds a client may take to send a request's headers, and the whole request. */
  headersTimeout: number;
  requestTimeout: number;
  /** HTTP connections held at once. */
  maxConnections: number;
  sessions: ListenSessions;
}

/** Bounds on legacy clients' sessions (milliseconds for the timeouts). */
export interface ListenSessions {
  max: number;
  perClient: number;
  idleTimeout: number;
  handshakeTimeout: number;
}

interface ServerConfigBase {
  /** The server's key in config. */
  name: string;
  /** Its namespace: `namespace`, or the key. */
  namespace: string;
  namespacing: boolean;
  disabled: boolean;
  /**
   * Pins that skip the probe (`type` of the host format is mapped onto `transport`), as written:
   * checked against the installed plugins by checkPins once they are in.
   */
  revision?: string;
  transport?: string;
  auth?: AuthConfig;
  tools: ToolFilter;
  /** The global upstream settings with this server's timeouts applied. */
  settings: UpstreamSettings;
}

export interface CommandServerConfig extends ServerConfigBase {
  kind: "command";
  command: string;
  args: string[];
  /** Absolute (resolved against the config file's directory), if set. */
  cwd?: string;
  env: Record<string, string>;
}

export interface UrlServerConfig extends ServerConfigBase {
  kind: "url";
  url: string;
}

export type ServerConfig = CommandServerConfig | UrlServerConfig;

/** A plugin to apply: a package name or a path (relative to the config file), and its options. */
export interface PluginSpec {
  spec: string;
  options?: JSONObject;
}

/** A loaded config: checked, `${env:NAME}` expanded, defaults applied. */
export interface McpxConfig {
  /** The file it came from, if any. */
  path: string | undefined;
  /** Where relative paths (plugins, stateDir, cwd) are resolved from. */
  configDir: string;
  listen: ListenConfig;
  /** The global upstream settings (`upstream.*` over the defaults). */
  upstream: UpstreamSettings;
  /** By name, whether the file said `servers` or `mcpServers`. */
  servers: Record<string, ServerConfig>;
  plugins: PluginSpec[];
  roots: Root[];
  /** The state store's type and options; absent: the embedded store. */
  store?: StoreConfig;
  /** Absolute. */
  stateDir: string;
  replica: ReplicaConfig;
  /** Whether `mcpx serve` serves the web console at / (default true). */
  console: boolean;
  log: { level: LogLevel; json: boolean };
  reload: ReloadConfig;
  readiness: { require: ReadinessRule };
  /** As written ({} when absent); resolveTelemetry says whether it is on and how. */
  telemetry: TelemetryConfig;
  /**
   * Values never to log or print: every `${env:...}` expansion, every string in an `auth` object
   * (but its `type`), every value of a server's `env`, every string of `store` (but its `type`, and a URL's
   * password on its own too) and `listen.token`; each in every form a
   * server may echo it in (core expandSecrets), longest first.
   */
  secrets: string[];
}
