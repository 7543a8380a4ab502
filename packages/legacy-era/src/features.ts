import type { RevisionFeatures } from "@mcpx/core";

/** What every initialize-era revision has; each revision states only how it differs. */
export const LEGACY_BASE: RevisionFeatures = Object.freeze({
  initialize: true,
  ping: true,
  setLevel: true,
  versionHeader: false,
  sessions: false,
  standaloneGet: false,
  resumption: false,
  primedStreams: false,
  batches: false,
  serverRequests: true,
  inputRequired: false,
  elicitationModes: [],
  elicitationComplete: false,
  emptyCursorContinues: false,
  paramHeaders: false,
  subscriptionsListen: false,
  resourceSubscribeRequests: true,
});
