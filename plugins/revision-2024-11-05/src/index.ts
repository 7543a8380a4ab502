import { definePlugin } from "@mcpx/core";
import { legacyRevision } from "@mcpx/legacy-era";
import listItemSchemas from "../schemas/list-items.json" with { type: "json" };

/** MCP 2024-11-05: The first MCP revision: initialize, stdio and HTTP+SSE, no elicitation. */
export const revision = legacyRevision({
  version: "2024-11-05",
  features: {},
  listItemSchemas,
});

export default definePlugin({
  name: "@mcpx/revision-2024-11-05",
  apiVersion: 1,
  apply(host) {
    host.registerRevision(revision);
  },
});
