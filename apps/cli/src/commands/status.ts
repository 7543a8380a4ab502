/**
 * `mcpx status`: the running daemon's upstreams and clients, and whether it runs the config asked
 * about. A daemon started on another file answers on the same port all the same, and a user who
 * edits one config while the daemon runs another is left wondering why nothing changes: so a
 * different config path is said plainly and exits 2, unless --any accepts whichever daemon answers.
 * Only the config's `listen` is read (daemon-client.ts): no upstream secret is needed.
 */
import { realpath } from "node:fs/promises";
import { DaemonClient } from "../daemon-client.js";
import { OtherConfigError } from "../errors.js";
import type { MainIO } from "../io.js";
import { type CommonOptions, printJson } from "../one-shot.js";
import { forTerminal } from "../render.js";
import { styleFor } from "../style.js";

export interface StatusOptions extends CommonOptions {
  /** Any daemon that answers will do, whatever config it runs. */
  any?: boolean;
}

interface Status {
  version: string;
  url?: string;
  startedAt: string;
  /** The config file the daemon runs (absent from a daemon on an in-memory config). */
  config?: string;
  /** The state store's type (absent from a daemon older than stores). */
  store?: { type: string; shared: boolean };
  peers: number;
  upstreams: UpstreamRow[];
}

/** One upstream as the daemon reports it (status, and the answer to a reconnect). */
export interface UpstreamRow {
  name: string;
  status: string;
  revision?: string;
  transport?: string;
  error?: string;
  /** It failed for want of a user's login (`mcpx auth login <name>` mends it). */
  needsLogin?: boolean;
  attempts: number;
}

export async function statusCommand(opts: StatusOptions, io: MainIO): Promise<number> {
  const daemon = await DaemonClient.reached(opts, io);
  const status = await daemon.get<Status>("status");
  const asked = daemon.configPath;
  const same = status.config === undefined ? undefined : await samePath(status.config, asked);
  if (opts.json) printJson(io, { ...status, asked, sameConfig: same ?? null });
  else {
    const style = styleFor(io);
    const lines = [
      `mcpx ${status.version} at ${status.url ?? "?"} since ${status.startedAt}, ${status.peers} client(s)`,
      `config: ${status.config ?? "(not a file)"}${same === false ? style.paint("yellow", ` (not ${asked})`) : ""}`,
    ];
    // The embedded store goes without saying; a shared one is worth a line.
    if (status.store?.shared) {
      lines.push(`store: ${status.store.type}${status.store.shared ? " (shared between replicas)" : ""}`);
    }
    for (const u of status.upstreams) {
      if (u.needsLogin) {
        lines.push(`  ${u.name}: ${style.paint("yellow", "needs login")}: run \`mcpx auth login ${u.name}\``);
        continue;
      }
      const era = u.revision ? ` ${u.revision} over ${u.transport}` : "";
      const err = u.error ? ` (${forTerminal(u.error)})` : "";
      const state = style.paint(u.status === "connected" ? "green" : "red", u.status);
      lines.push(`  ${u.name}: ${state}${era}${err}`);
    }
    io.stdout(`${lines.join("\n")}\n`);
  }
  if (same === false && !opts.any) {
    throw new OtherConfigError(
      `the daemon at ${status.url ?? daemon.base} runs ${status.config}, not ${asked}`,
      `stop it and start mcpx serve --config ${asked}, run with --config ${status.config}, or pass --any`,
    );
  }
  return 0;
}

/** The same file: the same absolute path, or the same file once links are followed. */
async function samePath(a: string, b: string): Promise<boolean> {
  if (a === b) return true;
  try {
    return (await realpath(a)) === (await realpath(b));
  } catch {
    return false;
  }
}
