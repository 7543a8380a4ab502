import { definePlugin } from "@mcpx/core";
import { legacyRevision } from "@mcpx/legacy-era";
import listItemSchemas from "../schemas/list-items.json" with { type: "json" };

/** MCP 2025-11-25: SSE streams primed for polling after an early close (SEP-1699); form and url elicitation with notifications/elicitation/complete. */
export const revision = legacyRevision({
  version: "2025-11-25",
  features: {
    sessions: true,
    standaloneGet: true,
    versionHeader: true,
    resumption: true,
    primedStreams: true,
    elicitationModes: ["form", "url"],
    elicitationComplete: true,
  },
  methods: {
    requests: {
      "elicitation/create": { from: "server" },
      "tasks/get": { from: "both" },
      "tasks/result": { from: "both" },
      "tasks/list": { from: "both" },
      "tasks/cancel": { from: "both" },
    },
    notifications: {
      "notifications/elicitation/complete": { from: "server" },
      "notifications/tasks/status": { from: "both" },
    },
  },
  server: { capabilities: ["completions", "tasks"], samplingTools: true },
  listItemSchemas,
});

export default definePlugin({
  name: "@mcpx/revision-2025-11-25",
  apiVersion: 1,
  apply(host) {
    host.registerRevision(revision);
  },
});
