/** `mcpx serve`, `mcpx stdio` and `mcpx events` (`mcpx status` is status.ts). */
import * as path from "node:path";
import { serve, serveStdio } from "@mcpx/daemon";
import { DaemonAnswerError, DaemonClient } from "../daemon-client.js";
import { EXIT_CONFIG } from "../errors.js";
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
  // As daemons do (nginx, sshd): SIGHUP reloads the config; what it says is logged and published.
  const reload = () => {
    serving.reload("signal").catch((err: Error) => io.stderr(`mcpx: reload failed: ${err.message}\n`));
  };
  process.on("SIGHUP", reload);
  try {
    await untilSignal(SERVE_STOP_SIGNALS);
  } finally {
    process.off("SIGHUP", reload);
  }
  await serving.stop();
  return 0;
}

/**
 * The signals that end `mcpx stdio` gracefully. SIGHUP too: the upstreams run in process groups of
 * their own, so a closing terminal's hangup reaches mcpx alone, and mcpx must end them itself.
 * `mcpx serve` takes SIGHUP to reload instead.
 */
const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
const SERVE_STOP_SIGNALS = ["SIGINT", "SIGTERM"] as const;

/** Resolves at the first of `signals` (or when `done` settles), removing its handlers. */
function untilSignal(signals: readonly NodeJS.Signals[], done?: Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      for (const s of signals) process.off(s, stop);
      resolve();
    };
    for (const s of signals) process.on(s, stop);
    done?.then(stop, stop);
  });
}

interface ReloadAnswer {
  added: string[];
  removed: string[];
  changed: { name: string; keys: string[] }[];
  restartOnly: string[];
}

/** `mcpx reload`: the running daemon loads its config file again (exit 2 when it refuses it). */
export async function reloadCommand(opts: CommonOptions, io: MainIO): Promise<number> {
  const daemon = await DaemonClient.reached(opts, io);
  let answer: ReloadAnswer;
  try {
    answer = await daemon.post<ReloadAnswer>("reload", {});
  } catch (err) {
    const errors = (err as DaemonAnswerError).data as { errors?: unknown } | undefined;
    if (!(err instanceof DaemonAnswerError) || !Array.isArray(errors?.errors)) throw err;
    if (opts.json) io.stdout(`${JSON.stringify({ reloaded: false, errors: errors.errors })}\n`);
    else {
      io.stderr("mcpx: the daemon refused the new config and keeps running the old one:\n");
      for (const e of errors.errors) io.stderr(`  ${forTerminal(String(e))}\n`);
    }
    return EXIT_CONFIG;
  }
  if (opts.json) {
    io.stdout(`${JSON.stringify({ reloaded: true, ...answer })}\n`);
    return 0;
  }
  const line = (label: string, names: string[]) => {
    if (names.length > 0) io.stdout(`${label}: ${forTerminal(names.join(", "))}\n`);
  };
  io.stdout("reloaded\n");
  line("added", answer.added);
  line("removed", answer.removed);
  line(
    "changed",
    answer.changed.map((c) => `${c.name} (${c.keys.join(", ")})`),
  );
  line("restart needed for", answer.restartOnly);
  return 0;
}

export async function stdioCommand(opts: ServeCommandOptions, io: MainIO): Promise<number> {
  const serving = await serveStdio({
    configFile: path.resolve(io.cwd ?? process.cwd(), opts.config),
    ...(io.env ? { env: io.env } : {}),
    ...(opts.stateDir ? { stateDir: path.resolve(io.cwd ?? process.cwd(), opts.stateDir) } : {}),
  });
  // Hosts end mcpx by closing its input (done) or with a signal: either way every upstream goes.
  await untilSignal(STOP_SIGNALS, serving.done);
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
