import { definePlugin } from "@mcpx/core";
import { revision } from "./revision.js";

export { MODERN_FEATURES } from "./features.js";
export { discoverHandshake } from "./handshake.js";
export { checkMirroredHeaders, checkVersionHeader } from "./header-check.js";
export { modernHeaders } from "./headers.js";
export { requestMeta } from "./meta.js";
export { MODERN_METHODS } from "./methods.js";
export { checkParamHeader, declaredHeaders, headerValues, TOOL_HEADERS } from "./param-headers.js";
export { MODERN_SERVER } from "./server.js";
export { revision };

export default definePlugin({
  name: "@mcpx/revision-2026-07-28",
  apiVersion: 1,
  apply(host) {
    host.registerRevision(revision);
  },
});
