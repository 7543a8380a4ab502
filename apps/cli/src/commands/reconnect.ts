/**
 * `mcpx reconnect <name>`: the running daemon connects that upstream again now, with its backoff
 * started over (after fixing what made it fail, nobody wants to wait out 30 s of backoff). Exit 0
 * once it is connected, 3 when the attempt failed (its error said), 2 for a name the daemon lacks.
 */
import { ErrorCode } from "@mcpx/core";
import { DaemonAnswerError, DaemonClient } from "../daemon-client.js";
import { UnreachableError, UsageError } from "../errors.js";
import type { MainIO } from "../io.js";
import { type CommonOptions, printJson } from "../one-shot.js";
import { forTerminal } from "../render.js";
import { styleFor } from "../style.js";
import { didYouMean } from "../suggest.js";
import type { UpstreamRow } from "./status.js";

/** The upstream after the reconnect: a status row without the attempt count. */
type Reconnected = Omit<UpstreamRow, "attempts">;

export async function reconnectCommand(name: string, opts: CommonOptions, io: MainIO): Promise<number> {
  const daemon = await DaemonClient.reached(opts, io);
  let state: Reconnected;
  try {
    state = await daemon.post<Reconnected>(`upstreams/${encodeURIComponent(name)}/reconnect`, {});
  } catch (err) {
    if (!(err instanceof DaemonAnswerError) || err.code !== ErrorCode.InvalidParams) throw err;
    const status = await daemon.get<{ upstreams: { name: string }[] }>("status");
    throw new UsageError(
      `the daemon has no upstream ${name}`,
      didYouMean(
        name,
        status.upstreams.map((u) => u.name),
      ),
    );
  }
  if (opts.json) printJson(io, state);
  else if (state.status === "connected") {
    const era = state.revision ? ` ${state.revision} over ${state.transport}` : "";
    io.stdout(`${state.name}: ${styleFor(io).paint("green", "connected")}${era}\n`);
  }
  if (state.status === "connected") return 0;
  const hint = state.needsLogin ? `run \`mcpx auth login ${name}\`` : undefined;
  throw new UnreachableError(`${name} did not connect: ${forTerminal(state.error ?? state.status)}`, hint);
}
