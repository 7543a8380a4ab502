/**
 * The listing and calling commands without a daemon: load the config as the daemon would, connect
 * every upstream (concurrently; a dead one does not hold up the rest), run, and disconnect.
 */
import * as path from "node:path";
import { type LogLevel, redact, redactError } from "@mcpx/core";
import { loadRuntime, type Runtime } from "@mcpx/daemon";
import type { MainIO } from "./io.js";

export interface CommonOptions {
  config: string;
  json?: boolean;
  /** Where era records are kept (`--state-dir`); the config's stateDir, or the XDG default, otherwise. */
  stateDir?: string;
  /** How much to log to stderr (`--log-level`); error by default. */
  logLevel?: LogLevel;
}

export async function withUpstreams<T>(
  opts: CommonOptions,
  io: MainIO,
  run: (rt: Runtime) => Promise<T>,
): Promise<T> {
  const rt = await loadRuntime({
    configFile: path.resolve(io.cwd ?? process.cwd(), opts.config),
    ...(io.env ? { env: io.env } : {}),
    writeLog: (line) => io.stderr(`${line}\n`),
    // Upstream chatter is not what a listing command is for, unless asked.
    logLevel: opts.logLevel ?? "error",
    ...(opts.stateDir ? { stateDir: path.resolve(io.cwd ?? process.cwd(), opts.stateDir) } : {}),
    oneShot: true,
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
}

export function printJson(io: MainIO, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}
