import { definePlugin } from "@mcpx/core";
import { legacyRevision } from "@mcpx/legacy-era";
import listItemSchemas from "../schemas/list-items.json" with { type: "json" };

/**
 * MCP 2025-03-26: Streamable HTTP with sessions, the standalone GET stream and resumption of a broken
 * SSE stream (GET with Last-Event-ID); JSON-RPC batches may be received.
 */
export const revision = legacyRevision({
  version: "2025-03-26",
  features: { sessions: true, standaloneGet: true, resumption: true, batches: true },
  server: { capabilities: ["completions"] },
  listItemSchemas,
});

export default definePlugin({
  name: "@mcpx/revision-2025-03-26",
  apiVersion: 1,
  apply(host) {
    host.registerRevision(revision);
  },
});
