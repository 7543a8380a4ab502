import { type JSONObject, TASKS_EXTENSION } from "@mcpx/core";
import type { CallContext, Peer } from "@mcpx/gateway";
import type { MainIO } from "./io.js";
import { forTerminal } from "./render.js";

/** What a command that watches its call gives it (interactive-call.ts). */
export interface CallWatch {
  /** Cancels the call (Ctrl-C). */
  signal: AbortSignal;
  /** Receives each notifications/progress; absent: progress is not asked for. */
  onProgress?: (params: JSONObject) => void;
}

/**
 * The CLI as the gateway's caller. With a watch, its signal cancels and its onProgress draws; without
 * one, progress goes to stderr as lines and Ctrl-C cancels.
 */
export function cliContext(io: MainIO, watch?: CallWatch): CallContext {
  const peer: Peer = {
    id: "cli",
    // In process: it speaks no revision, and is asked nothing.
    revision: undefined,
    // It takes tasks (SEP-2663): a call answered with one is followed to its result (commands/call.ts).
    capabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    authContext: "cli",
    notify: () => false,
  };
  if (watch) {
    const { onProgress } = watch;
    return {
      peer,
      signal: watch.signal,
      ...(onProgress ? { progressToken: "cli" } : {}),
      notify: (method, params) => {
        if (method === "notifications/progress") onProgress?.(params);
      },
    };
  }
  const abort = new AbortController();
  process.once("SIGINT", () => abort.abort("interrupted"));
  return {
    peer,
    signal: abort.signal,
    progressToken: "cli",
    notify: (method, params) => {
      if (method !== "notifications/progress") return;
      const total = typeof params.total === "number" ? `/${params.total}` : "";
      const message = typeof params.message === "string" ? ` ${forTerminal(params.message)}` : "";
      io.stderr(`progress ${String(params.progress)}${total}${message}\n`);
    },
  };
}
