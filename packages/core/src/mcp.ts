/**
 * The MCP shapes mcpx reads and writes, typed as far as mcpx relies on them and open for the rest
 * (a revision may add fields; mcpx passes what it does not know through untouched).
 */
import type { JSONObject, RequestId } from "./jsonrpc.js";

/** Keys of `_meta` that 2026-07-28 defines. */
export const MetaKey = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  logLevel: "io.modelcontextprotocol/logLevel",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
  relatedTask: "io.modelcontextprotocol/related-task",
} as const;

export interface Implementation {
  name: string;
  version: string;
  title?: string;
  [key: string]: unknown;
}

export interface ClientCapabilities {
  roots?: { listChanged?: boolean };
  sampling?: JSONObject;
  elicitation?: { form?: JSONObject; url?: JSONObject };
  experimental?: Record<string, JSONObject>;
  extensions?: Record<string, JSONObject>;
  [key: string]: unknown;
}

export interface ServerCapabilities {
  tools?: { listChanged?: boolean };
  prompts?: { listChanged?: boolean };
  resources?: { listChanged?: boolean; subscribe?: boolean };
  logging?: JSONObject;
  completions?: JSONObject;
  experimental?: Record<string, JSONObject>;
  extensions?: Record<string, JSONObject>;
  [key: string]: unknown;
}

export type LoggingLevel =
  | "debug"
  | "info"
  | "notice"
  | "warning"
  | "error"
  | "critical"
  | "alert"
  | "emergency";

/** The logging levels, least severe first (RFC 5424's order), so an index compares severities. */
export const LOGGING_LEVELS: readonly LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

/** Methods whose complete results carry caching hints (ttlMs, cacheScope) in 2026-07-28. */
export const CACHEABLE_METHODS: ReadonlySet<string> = new Set([
  "server/discover",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
]);

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JSONObject;
  outputSchema?: JSONObject;
  annotations?: JSONObject;
  [key: string]: unknown;
}

export interface Prompt {
  name: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
  [key: string]: unknown;
}

export interface Resource {
  uri: string;
  name: string;
  mimeType?: string;
  [key: string]: unknown;
}

export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  [key: string]: unknown;
}

export type ResultType = "complete" | "input_required";

/** A result as it arrives: any object, `resultType` absent (legacy) or a string. */
export type Result = JSONObject & { resultType?: unknown; _meta?: JSONObject };

export interface InputRequest {
  method: "elicitation/create" | "sampling/createMessage" | "roots/list" | (string & {});
  params?: JSONObject;
}

export interface InputRequiredResult {
  resultType: "input_required";
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
}

export type ElicitationMode = "form" | "url";

export interface ElicitRequestParams {
  mode?: ElicitationMode;
  message: string;
  /** form mode */
  requestedSchema?: JSONObject;
  /** url mode */
  url?: string;
  elicitationId?: string;
  [key: string]: unknown;
}

export interface ElicitResult {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface Root {
  uri: string;
  name?: string;
}

export interface ProgressNotificationParams {
  progressToken: string | number;
  progress: number;
  total?: number;
  message?: string;
}

export interface CancelledNotificationParams {
  requestId: RequestId;
  reason?: string;
}
