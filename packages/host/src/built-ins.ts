/**
 * mcpx's own features that a typed hook exists for are taps of that hook, as webpack applies its
 * built-ins as plugins: a third party's tap on the same hook sees exactly what they see.
 *
 * Here, the lifecycle events that restate a typed hook: whoever calls `serverWarning`,
 * `eraResolved` or `requestTimedOut` calls only that, and the event stream (the gateway's
 * `lifecycle` tap, `mcpx events`) gets its event from these taps.
 */
import type { HostHooks } from "@mcpx/core";

/** Where the built-in taps run among a hook's taps: after the plugins' (tapable's default stage 0). */
export const BUILT_IN_STAGE = 100;

export function tapBuiltins(hooks: HostHooks): void {
  const { lifecycle } = hooks;
  hooks.serverWarning.tap({ name: "mcpx:warning-events", stage: BUILT_IN_STAGE }, (warning) =>
    lifecycle.call({ type: "server.warning", ...warning }),
  );
  hooks.eraResolved.tap({ name: "mcpx:era-events", stage: BUILT_IN_STAGE }, (upstream, era, cached) =>
    lifecycle.call({ type: "era.resolved", upstream, era, cached }),
  );
  hooks.requestTimedOut.tap({ name: "mcpx:timeout-events", stage: BUILT_IN_STAGE }, (request) =>
    lifecycle.call({
      type: "request.timedOut",
      upstream: request.upstream,
      method: request.method,
      afterMs: request.afterMs,
    }),
  );
}
