/** `mcpx serve`, `mcpx stdio`, `mcpx status` and `mcpx events`. */
import * as path from "node:path";
import { serve, serveStdio } from "@mcpx/daemon";
import { DaemonClient } from "../daemon-client.js";
import type { MainIO } from "../io.js";
import { type CommonOptions, printJson } from "../one-shot.js";
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
  io.stdout(`mcpx listening at ${serving.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  await serving.stop();
  return 0;
}

export async function stdioCommand(opts: ServeCommandOptions, io: MainIO): Promise<number> {
  const { done } = await serveStdio({
    configFile: path.resolve(io.cwd ?? process.cwd(), opts.config),
    ...(io.env ? { env: io.env } : {}),
    ...(opts.stateDir ? { stateDir: path.resolve(io.cwd ?? process.cwd(), opts.stateDir) } : {}),
  });
  await done;
  return 0;
}

interface Status {
  version: string;
  url?: string;
  startedAt: string;
  peers: number;
  upstreams: {
    name: string;
    status: string;
    revision?: string;
    transport?: string;
    error?: string;
    attempts: number;
  }[];
}

export async function statusCommand(opts: CommonOptions, io: MainIO): Promise<number> {
  const daemon = await DaemonClient.forConfig(opts, io);
  if (!(await daemon.reachable(2000))) {
    io.stderr(`mcpx: no daemon answers at ${daemon.base} (start one with mcpx serve)\n`);
    return 1;
  }
  const status = await daemon.get<Status>("status");
  if (opts.json) {
    printJson(io, status);
    return 0;
  }
  const lines = [
    `mcpx ${status.version} at ${status.url ?? "?"} since ${status.startedAt}, ${status.peers} client(s)`,
  ];
  for (const u of status.upstreams) {
    const era = u.revision ? ` ${u.revision} over ${u.transport}` : "";
    const err = u.error ? ` (${forTerminal(u.error)})` : "";
    lines.push(`  ${u.name}: ${u.status}${era}${err}`);
  }
  io.stdout(`${lines.join("\n")}\n`);
  return 0;
}

export async function eventsCommand(opts: CommonOptions & { follow?: boolean }, io: MainIO): Promise<number> {
  const daemon = await DaemonClient.forConfig(opts, io);
  if (!(await daemon.reachable(2000))) {
    io.stderr(`mcpx: no daemon answers at ${daemon.base} (start one with mcpx serve)\n`);
    return 1;
  }
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
