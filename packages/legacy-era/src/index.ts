export { legacyCapabilities } from "./capabilities.js";
export { LEGACY_BASE } from "./features.js";
export { initializeHandshake } from "./handshake.js";
export { LEGACY_NOTIFICATIONS, LEGACY_REQUESTS, legacyMethods, type MethodAdditions } from "./methods.js";
export { type LegacyRevisionSpec, legacyRevision } from "./revision.js";
export { LEGACY_SERVER_CAPABILITIES, type LegacyServerSpec, legacyServer } from "./server.js";
