import type { CallContext, Peer } from "@mcpx/gateway";
import type { MainIO } from "./io.js";
import { forTerminal } from "./render.js";

/** The CLI as the gateway's caller: progress goes to stderr, Ctrl-C cancels. */
export function cliContext(io: MainIO): CallContext {
  const peer: Peer = {
    id: "cli",
    era: "legacy",
    version: "2025-11-25",
    capabilities: {},
    authContext: "cli",
    notify: () => false,
  };
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
