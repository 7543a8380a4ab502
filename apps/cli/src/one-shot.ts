/**
 * The listing and calling commands without a daemon: load the config as the daemon would (or build
 * one for an ad-hoc --stdio/--url server), connect the upstreams the command needs (concurrently; a
 * dead one does not hold up the rest), run, and disconnect.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { loadConfig, type McpxConfig } from "@mcpx/config";
import type { LogLevel } from "@mcpx/core";
import { loadRuntime, type Runtime } from "@mcpx/daemon";
import { redact, redactError } from "@mcpx/host";
import { type AdHocOptions, adHocConfig } from "./adhoc.js";
import type { MainIO } from "./io.js";
import { terminalPlugins } from "./terminal.js";

export interface CommonOptions {
  config: string;
  json?: boolean;
  /** Where era records are kept (`--state-dir`); the config's stateDir, or the XDG default, otherwise. */
  stateDir?: string;
  /** How much to log to stderr (`--log-level`); error by default. */
  logLevel?: LogLevel;
}

export type UpstreamOptions = CommonOptions & AdHocOptions;

/** The config a command runs on: the ad-hoc server's, else the file's. */
export async function upstreamConfig(opts: UpstreamOptions, io: MainIO): Promise<McpxConfig> {
  return (
    adHocConfig(opts, io) ??
    (await loadConfig(path.resolve(io.cwd ?? process.cwd(), opts.config), io.env ? { env: io.env } : {}))
  );
}

/**
 * Which servers a command connects: `pick` sees the config and names them (undefined: all). A call
 * to `fs__read_file` starts fs alone, not every server the config lists.
 */
export type Pick = (config: McpxConfig) => readonly string[] | undefined;

export async function withUpstreams<T>(
  opts: UpstreamOptions,
  io: MainIO,
  run: (rt: Runtime) => Promise<T>,
  pick?: Pick,
): Promise<T> {
  let config = await upstreamConfig(opts, io);
  const names = pick?.(config);
  if (names) {
    config = {
      ...config,
      servers: Object.fromEntries(names.map((n) => [n, config.servers[n]])),
    } as McpxConfig;
  }
  // An ad-hoc server leaves no era record behind (its name may be another config's server's).
  const scratch =
    config.path === undefined && !opts.stateDir
      ? await mkdtemp(path.join(tmpdir(), "mcpx-adhoc-"))
      : undefined;
  try {
    const rt = await loadRuntime({
      configFile: config.path ?? "(command line)",
      config,
      ...(io.env ? { env: io.env } : {}),
      writeLog: (line) => io.stderr(`${line}\n`),
      // Upstream chatter is not what a listing command is for, unless asked.
      logLevel: opts.logLevel ?? "error",
      ...(opts.stateDir
        ? { stateDir: path.resolve(io.cwd ?? process.cwd(), opts.stateDir) }
        : scratch
          ? { stateDir: scratch }
          : {}),
      oneShot: true,
      // On a terminal, the upstreams' questions are asked there (before the broker, which has
      // nobody to ask in a one-shot command and would answer cancel).
      plugins: terminalPlugins(io.terminal),
    });
    rt.gateway.start();
    try {
      await rt.gateway.pool.settled();
      return await run(rt);
    } catch (err) {
      // An upstream's error may quote a credential (or name a URL that holds one): redacted as the
      // log is, before main prints it (message, data, every field). config.secrets has what auth
      // produced too; each upstream's client has already taken its own out.
      throw redactError(err, (text) => redact(text, rt.config.secrets));
    } finally {
      await rt.gateway.stop();
    }
  } finally {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
}

export function printJson(io: MainIO, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}
