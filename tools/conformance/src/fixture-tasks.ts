/**
 * The tasks extension (SEP-2663, io.modelcontextprotocol/tasks) in the conformance fixture: the
 * tools the suite's tasks-* scenarios call, and the task surface (tasks/get, tasks/update,
 * tasks/cancel) that mcpx relays. The official SDK 2.4.0 has no runtime for the extension (its
 * tools/call validates every answer as a CallToolResult), so the task path is served in front of
 * it, on the stdio wire (`withTasks`): a task tool called by a request that declared the extension
 * gets a CreateTaskResult from here; called without it, an optional one falls through to the SDK
 * (synchronous) and a required one is refused with -32021. `registerTasks` lists the tools with the
 * SDK and declares the extension in server/discover.
 */
import type { InputRequest, McpServer } from "@modelcontextprotocol/server";
import type { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";

const TASKS = "io.modelcontextprotocol/tasks";
const CAPS_KEY = "io.modelcontextprotocol/clientCapabilities";
const TTL_MS = 60_000;
const POLL_MS = 100;

type Json = Record<string, unknown>;
type Status = "working" | "input_required" | "completed" | "failed" | "cancelled";

interface FixtureTask {
  taskId: string;
  status: Status;
  createdAt: string;
  lastUpdatedAt: string;
  result?: Json;
  error?: { code: number; message: string };
  /** Outstanding questions by key; answered ones are removed. */
  pending: Map<string, InputRequest>;
  answers: Map<string, Json>;
  /** Runs when every pending question is answered. */
  onAnswered?: () => void;
  timer?: NodeJS.Timeout;
}

/** The tasks of this process (one stdio connection: mcpx's). */
const tasks = new Map<string, FixtureTask>();
let seq = 0;

const text = (t: string, isError = false): Json => ({
  content: [{ type: "text", text: t }],
  ...(isError ? { isError: true } : {}),
});

function touch(task: FixtureTask, status: Status): void {
  if (isTerminal(task.status)) return;
  task.status = status;
  task.lastUpdatedAt = new Date().toISOString();
}

const isTerminal = (s: Status) => s === "completed" || s === "failed" || s === "cancelled";

function complete(task: FixtureTask, result: Json): void {
  if (isTerminal(task.status)) return;
  task.result = result;
  touch(task, "completed");
}

function newTask(): FixtureTask {
  const now = new Date().toISOString();
  const task: FixtureTask = {
    taskId: `fixture-task-${++seq}-${Math.random().toString(36).slice(2, 10)}`,
    status: "working",
    createdAt: now,
    lastUpdatedAt: now,
    pending: new Map(),
    answers: new Map(),
  };
  tasks.set(task.taskId, task);
  return task;
}

function ask(task: FixtureTask, questions: Record<string, InputRequest>, then: () => void): void {
  for (const [key, q] of Object.entries(questions)) task.pending.set(key, q);
  task.onAnswered = then;
  touch(task, "input_required");
}

const created = (task: FixtureTask): Json => ({
  resultType: "task",
  taskId: task.taskId,
  status: task.status,
  createdAt: task.createdAt,
  lastUpdatedAt: task.lastUpdatedAt,
  ttlMs: TTL_MS,
  pollIntervalMs: POLL_MS,
});

function detailed(task: FixtureTask): Json {
  const out: Json = { ...created(task), resultType: "complete" };
  if (task.status === "input_required") {
    out.inputRequests = Object.fromEntries(task.pending);
  }
  if (task.status === "completed") out.result = task.result;
  if (task.status === "failed") out.error = task.error;
  return out;
}

const confirmQuestion = (message: string): InputRequest =>
  ({
    method: "elicitation/create",
    params: {
      mode: "form",
      message,
      requestedSchema: {
        type: "object",
        properties: { confirm: { type: "boolean" } },
        required: ["confirm"],
      },
    },
  }) as InputRequest;

const nameQuestion = (message: string): InputRequest =>
  ({
    method: "elicitation/create",
    params: {
      mode: "form",
      message,
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    },
  }) as InputRequest;

/** An answer's content, when it accepted. */
function accepted(answer: Json | undefined): Json | undefined {
  return answer?.action === "accept" && typeof answer.content === "object" && answer.content !== null
    ? (answer.content as Json)
    : undefined;
}

// ---- the tools -----------------------------------------------------------------------------------

interface TaskTool {
  /** "required": refused without the extension; "optional": synchronous without it (the SDK's). */
  support: "optional" | "required";
  /** Starts the work of a task (called with the task created, status working). */
  start?: (task: FixtureTask, args: Json) => void;
  /** A round of a call before its task exists (multi round-trip): an answer ends the call. */
  rounds?: (params: Json) => Json | undefined;
}

const TOOLS: Record<string, TaskTool> = {
  slow_compute: {
    support: "optional",
    start(task, args) {
      const seconds = typeof args.seconds === "number" ? args.seconds : 1;
      const label = typeof args.label === "string" ? args.label : "compute";
      task.timer = setTimeout(
        () => complete(task, text(`${label}: computed after ${seconds}s`)),
        seconds * 1000,
      );
    },
  },
  failing_job: {
    support: "required",
    start(task) {
      task.timer = setTimeout(() => complete(task, text("failing_job: the job failed", true)), 300);
    },
  },
  protocol_error_job: {
    support: "required",
    start(task) {
      task.timer = setTimeout(() => {
        if (isTerminal(task.status)) return;
        task.error = { code: -32603, message: "protocol_error_job: internal failure" };
        touch(task, "failed");
      }, 300);
    },
  },
  confirm_delete: {
    support: "required",
    start(task, args) {
      const file = typeof args.filename === "string" ? args.filename : "the file";
      ask(task, { [`confirm-${task.taskId}`]: confirmQuestion(`Delete ${file}?`) }, () => {
        const yes = accepted(task.answers.get(`confirm-${task.taskId}`))?.confirm === true;
        complete(task, text(yes ? `Deleted ${file}` : `Kept ${file}`));
      });
    },
  },
  multi_input: {
    support: "required",
    start(task) {
      ask(
        task,
        {
          [`name-${task.taskId}`]: nameQuestion("Your name?"),
          [`confirm-${task.taskId}`]: confirmQuestion("Go ahead?"),
        },
        () => complete(task, text(`multi_input: ${task.answers.size} answers`)),
      );
    },
  },
  test_tool_with_task: {
    support: "required",
    // Round 1 asks for user_name (input_required); the retry that answers it gets the task.
    rounds(params) {
      const given = (params.inputResponses as Record<string, Json> | undefined)?.user_name;
      if (accepted(given)) return undefined;
      return {
        resultType: "input_required",
        inputRequests: { user_name: nameQuestion("What is your name?") },
      };
    },
    start(task, _args) {
      // The name the call was answered with, set by the caller before start.
      const name = String(task.answers.get("user_name")?.name ?? "");
      task.timer = setTimeout(() => complete(task, text(`Hello, ${name}! (from a task)`)), 200);
    },
  },
};

/** Lists the task tools (and greet) with the SDK, and declares the extension in server/discover. */
export function registerTasks(server: McpServer): void {
  server.server.registerCapabilities({ extensions: { [TASKS]: {} } });
  server.registerTool(
    "greet",
    { description: "Greets by name (synchronous only)", inputSchema: z.object({ name: z.string() }) },
    async ({ name }) => ({ content: [{ type: "text", text: `Hello, ${name}!` }] }),
  );
  server.registerTool(
    "slow_compute",
    {
      description: "Sleeps `seconds` then answers; a task where the caller takes tasks",
      inputSchema: z.object({ seconds: z.number().optional(), label: z.string().optional() }),
    },
    async ({ seconds, label }) => {
      await new Promise((resolve) => setTimeout(resolve, (seconds ?? 0) * 1000));
      return { content: [{ type: "text", text: `${label ?? "compute"}: computed after ${seconds ?? 0}s` }] };
    },
  );
  for (const [name, description] of [
    ["failing_job", "A task that ends with a tool error (tasks only)"],
    ["protocol_error_job", "A task that fails with a protocol error (tasks only)"],
    ["confirm_delete", "A task that asks for a confirmation (tasks only)"],
    ["multi_input", "A task that asks two questions at once (tasks only)"],
    ["test_tool_with_task", "Asks for a name, then runs as a task (tasks only)"],
  ] as const) {
    server.registerTool(
      name,
      { description, inputSchema: z.object({}).passthrough() },
      // Never reached: withTasks answers these before the SDK sees them.
      async () => ({ content: [{ type: "text", text: `${name} runs as a task only` }], isError: true }),
    );
  }
}

// ---- the wire ------------------------------------------------------------------------------------

function declares(params: Json | undefined): boolean {
  const caps = (params?._meta as Json | undefined)?.[CAPS_KEY] as Json | undefined;
  const ext = caps?.extensions as Json | undefined;
  return typeof ext === "object" && ext !== null && Object.hasOwn(ext, TASKS);
}

const MISSING = {
  code: -32021,
  message: `this request needs the ${TASKS} extension`,
  data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
};

/** The answer to a request this layer serves; undefined: the SDK's. */
function serve(method: string, params: Json | undefined): { result?: Json; error?: Json } | undefined {
  if (method === "tasks/result" || method === "tasks/list") {
    return { error: { code: -32601, message: `Method not found: ${method}` } };
  }
  if (method === "tasks/get" || method === "tasks/update" || method === "tasks/cancel") {
    if (!declares(params)) return { error: MISSING };
    const task = tasks.get(String(params?.taskId));
    if (method === "tasks/update") {
      if (task?.status === "input_required") {
        for (const [key, answer] of Object.entries((params?.inputResponses as Json | undefined) ?? {})) {
          if (!task.pending.has(key) || typeof answer !== "object" || answer === null) continue;
          task.pending.delete(key);
          task.answers.set(key, answer as Json);
        }
        if (task.pending.size === 0) {
          touch(task, "working");
          setTimeout(() => task.onAnswered?.(), 50);
        }
      }
      return { result: { resultType: "complete" } };
    }
    if (!task) return { error: { code: -32602, message: `unknown taskId ${String(params?.taskId)}` } };
    if (method === "tasks/cancel") {
      if (!isTerminal(task.status)) {
        clearTimeout(task.timer);
        touch(task, "cancelled");
      }
      return { result: { resultType: "complete" } };
    }
    return { result: detailed(task) };
  }
  if (method !== "tools/call") return undefined;
  const name = String(params?.name);
  const tool = Object.hasOwn(TOOLS, name) ? TOOLS[name] : undefined;
  if (!tool) return undefined;
  if (!declares(params)) return tool.support === "optional" ? undefined : { error: MISSING };
  const round = tool.rounds?.(params ?? {});
  if (round) return { result: round };
  const task = newTask();
  const given = (params?.inputResponses as Record<string, Json> | undefined)?.user_name;
  const name2 = accepted(given)?.name;
  if (name2 !== undefined) task.answers.set("user_name", { name: name2 });
  tool.start?.(task, (params?.arguments as Json | undefined) ?? {});
  return { result: created(task) };
}

/** The stdio wire with the task surface served in front of the SDK's server. */
export function withTasks(wire: StdioServerTransport): StdioServerTransport {
  let inner: ((message: unknown, extra?: unknown) => void) | undefined;
  const handler = (message: unknown, extra?: unknown) => {
    const m = message as { id?: string | number; method?: unknown; params?: Json };
    if (m.id !== undefined && typeof m.method === "string") {
      const answer = serve(m.method, m.params);
      if (answer) {
        void wire.send({ jsonrpc: "2.0", id: m.id, ...answer } as never);
        return;
      }
    }
    inner?.(message, extra);
  };
  // serveStdio sets onmessage after this: its handler goes behind this layer's.
  Object.defineProperty(wire, "onmessage", {
    configurable: true,
    get: () => (inner ? handler : undefined),
    set: (fn) => {
      inner = fn;
    },
  });
  return wire;
}
