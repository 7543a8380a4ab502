/**
 * The listing and calling commands without a daemon: load the config as the daemon would, connect
 * every upstream (concurrently; a dead one does not hold up the rest), run, and disconnect.
 */
import * as path from "node:path";
import { loadRuntime, type Runtime } from "@mcpx/daemon";
import type { MainIO } from "./io.js";

export interface CommonOptions {
  config: string;
  json?: boolean;
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
    // Upstream chatter is not what a listing command is for.
    logLevel: "error",
    oneShot: true,
  });
  rt.gateway.start();
  try {
    await rt.gateway.pool.settled();
    return await run(rt);
  } finally {
    await rt.gateway.stop();
  }
}

export function printJson(io: MainIO, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}
