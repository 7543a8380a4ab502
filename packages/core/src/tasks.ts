/**
 * The tasks extension (SEP-2663, `io.modelcontextprotocol/tasks`), on the 2026-07-28 wire: a server
 * may answer a tools/call of a client that declared the extension on that request with a
 * CreateTaskResult (`resultType: "task"`, a flat Result & Task), and the client polls tasks/get,
 * answers input requests with tasks/update and cancels with tasks/cancel. tasks/result and
 * tasks/list are gone (-32601). Only the shapes and names live here; the relay is the gateway's,
 * following a task the client's.
 */
import type { JSONObject } from "./jsonrpc.js";
import type { ClientCapabilities } from "./mcp.js";
import type { MethodSpec } from "./method-table.js";

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

export type TaskStatus = "working" | "input_required" | "completed" | "cancelled" | "failed";

export const TERMINAL_TASK_STATUSES: readonly TaskStatus[] = Object.freeze([
  "completed",
  "failed",
  "cancelled",
]);

/** A task's metadata as CreateTaskResult and tasks/get carry it (integer milliseconds). */
export interface Task {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  /** How long the server keeps the task after its creation; null: no limit. */
  ttlMs: number | null;
  /** The polling interval the server suggests. */
  pollIntervalMs?: number;
  [key: string]: unknown;
}

/** tasks/get's answer: the task with what its status brings (inputRequests, result or error). */
export interface DetailedTask extends Task {
  inputRequests?: Record<string, JSONObject>;
  result?: JSONObject;
  error?: { code: number; message: string; data?: unknown };
}

/** The requests of the extension, sent by the client, each naming the task it acts on. */
export const TASK_METHODS: Readonly<Record<string, MethodSpec>> = Object.freeze({
  "tasks/get": Object.freeze({ from: "client", names: "taskId" }),
  "tasks/update": Object.freeze({ from: "client", names: "taskId" }),
  "tasks/cancel": Object.freeze({ from: "client", names: "taskId" }),
});

/** Whether a request declared the extension (in its per-request client capabilities). */
export function declaresTasks(capabilities: ClientCapabilities | undefined): boolean {
  const ext = capabilities?.extensions;
  return typeof ext === "object" && ext !== null && Object.hasOwn(ext, TASKS_EXTENSION);
}

/** The capabilities with the extension declared (a copy; the given ones are left alone). */
export function withTasksDeclared(capabilities: ClientCapabilities): ClientCapabilities {
  if (declaresTasks(capabilities)) return capabilities;
  return { ...capabilities, extensions: { ...capabilities.extensions, [TASKS_EXTENSION]: {} } };
}

/** Whether a result is a CreateTaskResult (it carries a task handle, not the call's answer). */
export function isCreateTaskResult(result: JSONObject): result is JSONObject & Task {
  return result.resultType === "task" && typeof result.taskId === "string";
}

export function isTerminalTaskStatus(status: unknown): boolean {
  return TERMINAL_TASK_STATUSES.includes(status as TaskStatus);
}

/** What a -32021 for an undeclared extension carries (SEP-2575 §Missing Required Capabilities). */
export const TASKS_REQUIRED_DATA: JSONObject = Object.freeze({
  requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
}) as JSONObject;
