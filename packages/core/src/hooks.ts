/**
 * The host's hooks, named for what happens. Plugins tap them with their own name:
 *   host.hooks.serverWarning.tap("my-plugin", (w) => ...)
 * See the core README for the table of hooks (kind, when, arguments).
 */
import { AsyncSeriesHook, SyncHook, SyncWaterfallHook } from "tapable";
import type { EraRecord, LifecycleEvent } from "./events.js";
import type { JSONRPCMessage } from "./jsonrpc.js";
import type { ElicitRequestParams } from "./mcp.js";
import type { TransportKind, UpstreamTarget } from "./transport.js";

export interface FrameContext {
  upstream: string;
  version: string | undefined;
  transport: TransportKind;
}

export interface ServerWarning {
  upstream: string;
  message: string;
  tool?: string;
  reason?: string;
  /** The list an item was left out of ("tools", "prompts", "resources", "resourceTemplates"). */
  list?: string;
  /** The item left out: its name, URI or URI template, shown safely (truncated, controls escaped). */
  item?: string;
}

export interface TimedOutRequest {
  upstream: string;
  method: string;
  afterMs: number;
  cancelled: "notify" | "close-stream" | "never";
}

export interface HostHooks {
  /** Before an upstream connects (async series: a plugin may adjust the target, e.g. add headers). */
  readonly upstreamConnecting: AsyncSeriesHook<[UpstreamTarget]>;
  /** The era of an upstream is known, from the probe or the cache. */
  readonly eraResolved: SyncHook<[string, EraRecord, boolean]>;
  /** Every frame mcpx sends to an upstream (waterfall: a tap may return a changed frame). */
  readonly outgoingFrame: SyncWaterfallHook<[JSONRPCMessage, FrameContext]>;
  /** Every frame an upstream sends. */
  readonly incomingFrame: SyncHook<[JSONRPCMessage, FrameContext]>;
  /** Something an upstream did that mcpx worked around (an invalid tool, a declined subscription). */
  readonly serverWarning: SyncHook<[ServerWarning]>;
  /** An upstream asked for elicitation. */
  readonly elicitation: SyncHook<[string, ElicitRequestParams]>;
  /** A request ran out of time. */
  readonly requestTimedOut: SyncHook<[TimedOutRequest]>;
  /** Every lifecycle event, in order; the gateway's event stream taps it. */
  readonly lifecycle: SyncHook<[LifecycleEvent]>;
}

export function createHooks(): HostHooks {
  return Object.freeze({
    upstreamConnecting: new AsyncSeriesHook<[UpstreamTarget]>(["target"]),
    eraResolved: new SyncHook<[string, EraRecord, boolean]>(["upstream", "era", "cached"]),
    outgoingFrame: new SyncWaterfallHook<[JSONRPCMessage, FrameContext]>(["frame", "context"]),
    incomingFrame: new SyncHook<[JSONRPCMessage, FrameContext]>(["frame", "context"]),
    serverWarning: new SyncHook<[ServerWarning]>(["warning"]),
    elicitation: new SyncHook<[string, ElicitRequestParams]>(["upstream", "request"]),
    requestTimedOut: new SyncHook<[TimedOutRequest]>(["request"]),
    lifecycle: new SyncHook<[LifecycleEvent]>(["event"]),
  });
}
