/** Lifecycle events: what the gateway publishes on its event stream and `mcpx events` prints. */
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
  | { type: "server.warning"; upstream: string; message: string; tool?: string; reason?: string }
  | { type: "era.resolved"; upstream: string; era: EraRecord; cached: boolean }
  | { type: "list.changed"; upstream: string; list: "tools" | "prompts" | "resources" }
  | { type: "elicitation.pending"; upstream: string; id: string; mode: string; message: string }
  | { type: "elicitation.settled"; upstream: string; id: string; action: string }
  | { type: "request.timedOut"; upstream: string; method: string; afterMs: number };

export type LifecycleEventType = LifecycleEvent["type"];
