export { legacyCapabilities } from "./capabilities.js";
export { LEGACY_BASE } from "./features.js";
export { initializeHandshake } from "./handshake.js";
export { type LegacyRevisionSpec, legacyRevision } from "./revision.js";
