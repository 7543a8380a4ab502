/** `mcpx serve`, `mcpx stdio` and `mcpx events` (`mcpx status` is status.ts). */
import * as path from "node:path";
import { serve, serveStdio } from "@mcpx/daemon";
import { DaemonClient } from "../daemon-client.js";
import type { MainIO } from "../io.js";
import type { CommonOptions } from "../one-shot.js";
import { forTerminal } from "../render.js";

export interface ServeCommandOptions extends CommonOptions {
  host?: string;
  port?: string;
  stateDir?: string;
}

export async function serveCommand(opts: ServeCommandOptions, io: MainIO): Promise<number> {
  const serving = await serve({
    configFile: path.resolve(io.cwd ?? process.cwd(), opts.config),
    ...(io.env ? { env: io.env } : {}),
    ...(opts.host ? { host: opts.host } : {}),
    ...(opts.port !== undefined ? { port: Number(opts.port) } : {}),
    ...(opts.stateDir ? { stateDir: path.resolve(io.cwd ?? process.cwd(), opts.stateDir) } : {}),
  });
  const web = serving.consoleUrl ? ` (console: ${serving.consoleUrl})` : "";
  io.stdout(`mcpx listening at ${serving.url}${web}\n`);
  await untilSignal();
  await serving.stop();
  return 0;
}

/**
 * The signals that end mcpx gracefully. SIGHUP too: the upstreams run in process groups of their
 * own, so a closing terminal's hangup reaches mcpx alone, and mcpx must end them itself.
 */
const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** Resolves at the first of STOP_SIGNALS (or when `done` settles), removing its handlers. */
function untilSignal(done?: Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      for (const s of STOP_SIGNALS) process.off(s, stop);
      resolve();
    };
    for (const s of STOP_SIGNALS) process.on(s, stop);
    done?.then(stop, stop);
  });
}

export async function stdioCommand(opts: ServeCommandOptions, io: MainIO): Promise<number> {
  const serving = await serveStdio({
    configFile: path.resolve(io.cwd ?? process.cwd(), opts.config),
    ...(io.env ? { env: io.env } : {}),
    ...(opts.stateDir ? { stateDir: path.resolve(io.cwd ?? process.cwd(), opts.stateDir) } : {}),
  });
  // Hosts end mcpx by closing its input (done) or with a signal: either way every upstream goes.
  await untilSignal(serving.done);
  await serving.stop();
  return 0;
}

export async function eventsCommand(opts: CommonOptions & { follow?: boolean }, io: MainIO): Promise<number> {
  const daemon = await DaemonClient.reached(opts, io);
  const print = (e: Record<string, unknown>) => {
    if (opts.json) io.stdout(`${JSON.stringify(e)}\n`);
    else {
      const { seq: _s, time, type, ...rest } = e;
      // JSON escapes C0 controls but not C1 or bidi ones, which an upstream's text may carry.
      io.stdout(`${forTerminal(`${String(time)} ${String(type)} ${JSON.stringify(rest)}`)}\n`);
    }
  };
  if (!opts.follow) {
    for (const e of (await daemon.get<{ events: Record<string, unknown>[] }>("events")).events) print(e);
    return 0;
  }
  const abort = new AbortController();
  process.once("SIGINT", () => abort.abort());
  for await (const e of daemon.stream<Record<string, unknown>>("events?follow=1", abort.signal)) print(e);
  return 0;
}
