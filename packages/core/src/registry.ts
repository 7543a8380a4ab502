/**
 * What plugins registered, as everyone but the host sees it: the read methods only. The host
 * (@mcpx/host) holds the mutable registry; a plugin registers through its PluginHost
 * (`registerRevision`, …), which records the plugin's name, and gets this view, a frozen object
 * that is not the registry (no cast reaches an `add` method).
 */
import type { AuthScheme } from "./auth.js";
import type { ControlRoute } from "./control.js";
import type { ElicitationHandler, SamplingHandler } from "./handlers.js";
import type { Era, Revision } from "./revision.js";
import type { StoreFactory } from "./store.js";
import type { TelemetryFactory } from "./telemetry.js";
import type { TransportFactory, TransportKind, UpstreamTarget } from "./transport.js";

export interface RegistryView {
  revision(version: string): Revision | undefined;
  /** Every registered revision (of this era), newest first. */
  revisions(era?: Era): Revision[];
  transport(kind: TransportKind): TransportFactory | undefined;
  transports(): TransportFactory[];
  /** The first registered transport that can reach the target. */
  transportFor(target: UpstreamTarget): TransportFactory | undefined;
  authScheme(type: string): AuthScheme | undefined;
  authSchemes(): AuthScheme[];
  /** In the order they were registered (the order they are asked in). */
  elicitationHandlers(): readonly ElicitationHandler[];
  samplingHandlers(): readonly SamplingHandler[];
  controlRoutes(): readonly ControlRoute[];
  store(type: string): StoreFactory | undefined;
  stores(): StoreFactory[];
  /** The telemetry plugin's factory, if one is applied. */
  telemetry(): TelemetryFactory | undefined;
}
