import { definePlugin } from "@mcpx/core";
import { legacyRevision } from "@mcpx/legacy-era";
import listItemSchemas from "../schemas/list-items.json" with { type: "json" };

/** MCP 2025-06-18: MCP-Protocol-Version on every HTTP request after initialize; form elicitation; batches removed. */
export const revision = legacyRevision({
  version: "2025-06-18",
  features: {
    sessions: true,
    standaloneGet: true,
    resumption: true,
    versionHeader: true,
    elicitationModes: ["form"],
  },
  methods: { requests: { "elicitation/create": { from: "server" } } },
  server: { capabilities: ["completions"] },
  listItemSchemas,
});

export default definePlugin({
  name: "@mcpx/revision-2025-06-18",
  apiVersion: 1,
  apply(host) {
    host.registerRevision(revision);
  },
});
