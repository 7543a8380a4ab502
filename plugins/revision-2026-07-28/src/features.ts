import type { RevisionFeatures } from "@mcpx/core";

/** 2026-07-28: no handshake, no sessions, no GET stream; servers ask through input_required. */
export const MODERN_FEATURES: RevisionFeatures = Object.freeze({
  initialize: false,
  ping: false,
  setLevel: false,
  versionHeader: true,
  sessions: false,
  standaloneGet: false,
  resumption: false,
  primedStreams: false,
  batches: false,
  serverRequests: false,
  inputRequired: true,
  elicitationModes: ["form", "url"] as const,
  elicitationComplete: false,
  emptyCursorContinues: true,
  paramHeaders: true,
  subscriptionsListen: true,
  resourceSubscribeRequests: false,
  // traceparent, tracestate and baggage in a request's _meta (basic/index.mdx, "OpenTelemetry trace context").
  traceContextMeta: true,
});
