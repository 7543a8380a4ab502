/** Plausible, valid frames a client sends in each revision, by method. Used by strict/valid-frames-*. */
export type Frames = Record<string, unknown>;

const clientInfo = { name: "mcpx", version: "0.1.0" };

export function legacyFrames(revision: string): Frames {
  return {
    initialize: {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: revision,
        capabilities: { roots: { listChanged: true }, sampling: {} },
        clientInfo,
      },
    },
    "notifications/initialized": { jsonrpc: "2.0", method: "notifications/initialized" },
    "tools/list": { jsonrpc: "2.0", id: 2, method: "tools/list", params: { cursor: "page-2" } },
    "tools/call": {
      jsonrpc: "2.0",
      id: "call-3",
      method: "tools/call",
      params: { name: "echo", arguments: { text: "hi", nested: { task: 1 } }, _meta: { progressToken: 3 } },
    },
    ping: { jsonrpc: "2.0", id: 4, method: "ping" },
    "resources/read": {
      jsonrpc: "2.0",
      id: 5,
      method: "resources/read",
      params: { uri: "file:///tmp/a.txt" },
    },
    "prompts/get": {
      jsonrpc: "2.0",
      id: 6,
      method: "prompts/get",
      params: { name: "greet", arguments: { who: "world" } },
    },
    "logging/setLevel": { jsonrpc: "2.0", id: 7, method: "logging/setLevel", params: { level: "info" } },
    "notifications/cancelled": {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: "call-3", reason: "user cancelled" },
    },
  };
}

/** The `_meta` every 2026-07-28 request carries (protocolVersion and clientCapabilities are required). */
export function modernMeta(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": clientInfo,
    ...extra,
  };
}

export function modernFrames(): Frames {
  return {
    "server/discover": { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: modernMeta() } },
    "subscriptions/listen": {
      jsonrpc: "2.0",
      id: 2,
      method: "subscriptions/listen",
      params: { _meta: modernMeta(), notifications: { toolsListChanged: true } },
    },
    "tools/list": {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/list",
      params: { _meta: modernMeta(), cursor: "p2" },
    },
    "tools/call": {
      jsonrpc: "2.0",
      id: "call-4",
      method: "tools/call",
      params: {
        _meta: modernMeta({ "io.modelcontextprotocol/logLevel": "info", progressToken: "p4" }),
        name: "echo",
        arguments: { text: "hi" },
      },
    },
    "resources/read": {
      jsonrpc: "2.0",
      id: 5,
      method: "resources/read",
      params: { _meta: modernMeta(), uri: "file:///tmp/a.txt" },
    },
    "prompts/get": {
      jsonrpc: "2.0",
      id: 6,
      method: "prompts/get",
      params: { _meta: modernMeta(), name: "greet", arguments: { who: "world" } },
    },
    "notifications/cancelled": {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: "call-4", reason: "user cancelled" },
    },
  };
}

/** Methods each revision lacks among those the frames above use. */
export const MISSING: Readonly<Record<string, readonly string[]>> = {
  "2024-11-05": ["server/discover", "subscriptions/listen"],
  "2025-03-26": ["server/discover", "subscriptions/listen"],
  "2025-06-18": ["server/discover", "subscriptions/listen"],
  "2025-11-25": ["server/discover", "subscriptions/listen"],
  "2026-07-28": ["initialize", "notifications/initialized", "ping", "logging/setLevel"],
};
