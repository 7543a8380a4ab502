/**
 * A call as a person at a terminal runs it: progress drawn while it runs, Ctrl-C to cancel it.
 *
 * Progress is asked for (a progressToken sent) only when the bar will be drawn: stderr and stdout
 * terminals, and not --json. The first SIGINT aborts the call's signal, and the client cancels the
 * request the way the upstream's revision prescribes (notifications/cancelled for legacy revisions,
 * closing the response stream for 2026-07-28 over HTTP); a second one exits at once. Upstreams run
 * in process groups of their own (transport-stdio), so the terminal's Ctrl-C reaches mcpx alone and
 * a stdio upstream is told, not killed.
 */
import type { JSONObject } from "@mcpx/core";
import type { CallContext } from "@mcpx/gateway";
import { cliContext } from "./cli-peer.js";
import type { MainIO } from "./io.js";
import { ProgressBar } from "./progress.js";

/** 128 + SIGINT: how a shell reports a command that Ctrl-C ended. */
export const EXIT_INTERRUPTED = 130;

export const INTERRUPTED = Symbol("interrupted");

/** Carriage return, then erase the whole line (ECMA-48 EL 2). */
const ERASE_LINE = "\r\u001b[2K";

export async function interactiveCall(
  io: MainIO,
  opts: { json?: boolean },
  run: (ctx: CallContext) => Promise<JSONObject>,
): Promise<JSONObject | typeof INTERRUPTED> {
  const abort = new AbortController();
  const onSigint = () => {
    if (abort.signal.aborted) process.exit(EXIT_INTERRUPTED);
    abort.abort("interrupted");
  };
  process.on("SIGINT", onSigint);
  const terminal = io.terminal;
  const bar = terminal && io.isTTY && !opts.json ? new ProgressBar(terminal.output) : undefined;
  if (terminal && bar) terminal.status = bar;
  try {
    return await run(
      cliContext(io, { signal: abort.signal, ...(bar ? { onProgress: (p) => bar.update(p) } : {}) }),
    );
  } catch (err) {
    if (!abort.signal.aborted) throw err;
    // The terminal echoed ^C where the cursor was: the line is cleared for what is said next.
    terminal?.output.write(ERASE_LINE);
    return INTERRUPTED;
  } finally {
    bar?.end();
    if (terminal && terminal.status === bar) terminal.status = undefined;
    process.off("SIGINT", onSigint);
  }
}
