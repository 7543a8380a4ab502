/** Lifecycle events: what the gateway publishes on its event stream and `mcpx events` prints. */
import type { ServerWarning } from "./hooks.js";
import type { TransportKind } from "./transport.js";

export interface EraRecord {
  revision: string;
  transport: TransportKind;
  /** ISO time of the probe that found it. */
  probedAt: string;
}

export type LifecycleEvent =
  | { type: "upstream.connecting"; upstream: string; attempt: number }
  | { type: "upstream.connected"; upstream: string; revision: string; transport: TransportKind }
  | { type: "upstream.disconnected"; upstream: string; reason: string }
  | { type: "upstream.failed"; upstream: string; error: string; retryInMs?: number }
  | ({ type: "server.warning" } & ServerWarning)
  | { type: "era.resolved"; upstream: string; era: EraRecord; cached: boolean }
  | { type: "list.changed"; upstream: string; list: "tools" | "prompts" | "resources" }
  | { type: "elicitation.pending"; upstream: string; id: string; mode: string; message: string }
  | { type: "elicitation.settled"; upstream: string; id: string; action: string }
  | { type: "request.timedOut"; upstream: string; method: string; afterMs: number }
  /**
   * A legacy HTTP session closed by mcpx: never initialized in time, idle too long, or evicted (the
   * least recently used idle one) to make room under a bound. `session` is the peer id, never the
   * session id (a credential); `client` the address it came from.
   */
  | {
      type: "session.evicted";
      session: string;
      client: string;
      reason: "handshake-timeout" | "idle-timeout" | "lru";
      bound?: "max" | "perClient";
    }
  /** A new legacy session refused (503): the bound was reached and every session under it was in use. */
  | { type: "session.refused"; client: string; bound: "max" | "perClient"; limit: number }
  /**
   * A new config applied without a restart (`trigger`: signal, file, control): the upstreams it
   * added, removed and changed (by name), and the keys it changed that wait for a restart.
   */
  | {
      type: "config.reloaded";
      trigger: string;
      added: string[];
      removed: string[];
      changed: string[];
      restartOnly: string[];
    }
  /** A new config refused (the old one keeps running): every problem, each naming its key. */
  | { type: "config.rejected"; trigger: string; errors: string[] };

export type LifecycleEventType = LifecycleEvent["type"];
