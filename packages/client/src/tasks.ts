/**
 * Following a task (tasks extension, SEP-2663) to its result: tasks/get at the interval the server
 * suggests (pollIntervalMs, bounded), its input requests answered with tasks/update (each key once),
 * until a terminal status. completed gives the call's result; failed throws the task's JSON-RPC
 * error as mcpx's error class for its code; cancelled throws RequestCancelledError. A task still not
 * terminal when its ttlMs has passed since createdAt is given up with RequestTimeoutError (the
 * server may have dropped it). Aborting `signal` cancels the task (tasks/cancel, best effort).
 */
import {
  type DetailedTask,
  errorFromWire,
  InvalidResultError,
  isTerminalTaskStatus,
  type JSONObject,
  type JSONRPCErrorObject,
  RequestCancelledError,
  RequestTimeoutError,
  type Result,
  type Task,
} from "@mcpx/core";

/** Where a task's requests go: one connection (UpstreamClient.taskPoller), or the gateway's relay. */
export interface TaskPoller {
  get(taskId: string, signal?: AbortSignal): Promise<Result>;
  update(taskId: string, inputResponses: Record<string, JSONObject>, signal?: AbortSignal): Promise<unknown>;
  cancel(taskId: string): Promise<unknown>;
}

export interface FollowTaskOptions {
  signal?: AbortSignal;
  /** Answers a task's input requests, by key. Without it an input_required task is an error. */
  answer?: (
    inputRequests: Record<string, JSONObject>,
    task: DetailedTask,
  ) => Promise<Record<string, JSONObject>>;
  /** Told every status the task is seen in (the CreateTaskResult's first). */
  onStatus?: (task: DetailedTask) => void;
  /** The interval when the server suggests none (default 1000 ms). */
  defaultPollIntervalMs?: number;
  /** The server's interval is kept within these (default 50 ms and 30 s). */
  minPollIntervalMs?: number;
  maxPollIntervalMs?: number;
  /** For tests: the clock and the wait. */
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const DEFAULT_POLL_INTERVAL_MS = 1000;

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The task a tasks/get answered, checked enough to act on. */
function asTask(result: Result, taskId: string): DetailedTask {
  if (typeof result.status !== "string") {
    throw new InvalidResultError(`tasks/get for task ${taskId} returned no status`, { taskId });
  }
  return result as unknown as DetailedTask;
}

/** Follows `created` (a CreateTaskResult) to its result. */
export async function followTask(
  poller: TaskPoller,
  created: Task,
  opts: FollowTaskOptions = {},
): Promise<Result> {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? wait;
  const min = opts.minPollIntervalMs ?? 50;
  const max = opts.maxPollIntervalMs ?? 30_000;
  const taskId = created.taskId;
  const createdAt = Date.parse(created.createdAt);
  const started = now();
  // The TTL runs from the task's creation on the server; a clock that disagrees counts from now.
  const from = Number.isFinite(createdAt) && createdAt <= started ? createdAt : started;
  const ttl = typeof created.ttlMs === "number" && created.ttlMs > 0 ? created.ttlMs : undefined;
  const answered = new Set<string>();
  let task: DetailedTask = created as DetailedTask;
  opts.onStatus?.(task);
  try {
    for (;;) {
      if (isTerminalTaskStatus(task.status)) break;
      if (task.status === "input_required") {
        await answerInputs(poller, task, answered, opts);
      } else {
        const suggested = typeof task.pollIntervalMs === "number" ? task.pollIntervalMs : undefined;
        const interval = Math.min(
          max,
          Math.max(min, suggested ?? opts.defaultPollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS),
        );
        await sleep(interval, opts.signal);
      }
      if (ttl !== undefined && now() - from > ttl) {
        throw new RequestTimeoutError(`task ${taskId} did not finish within its ttlMs of ${ttl} ms`, {
          taskId,
          ttlMs: ttl,
        });
      }
      task = asTask(await poller.get(taskId, opts.signal), taskId);
      opts.onStatus?.(task);
    }
  } catch (err) {
    if (opts.signal?.aborted) {
      // The caller gave up: the server is told, and the caller gets the cancellation.
      await poller.cancel(taskId).catch(() => undefined);
      throw new RequestCancelledError(`task ${taskId} cancelled`, { taskId });
    }
    throw err;
  }
  return outcome(task);
}

/** The open questions (not answered before) to the answerer, and its answers to the server. */
async function answerInputs(
  poller: TaskPoller,
  task: DetailedTask,
  answered: Set<string>,
  opts: FollowTaskOptions,
): Promise<void> {
  const open: Record<string, JSONObject> = {};
  for (const [key, request] of Object.entries(task.inputRequests ?? {})) {
    if (!answered.has(key)) Object.defineProperty(open, key, { value: request, enumerable: true });
  }
  if (Object.keys(open).length === 0) {
    // Answered already; the server has not caught up (the ack is eventually consistent).
    await (opts.sleep ?? wait)(opts.minPollIntervalMs ?? 50, opts.signal);
    return;
  }
  if (!opts.answer) {
    throw new InvalidResultError(`task ${task.taskId} asks for input, and nothing here can answer it`, {
      taskId: task.taskId,
    });
  }
  const responses = await opts.answer(open, task);
  for (const key of Object.keys(responses)) answered.add(key);
  await poller.update(task.taskId, responses, opts.signal);
}

function outcome(task: DetailedTask): Result {
  if (task.status === "completed") {
    if (typeof task.result !== "object" || task.result === null) {
      throw new InvalidResultError(`task ${task.taskId} completed without a result`, { taskId: task.taskId });
    }
    return task.result;
  }
  if (task.status === "failed") {
    const e = task.error as Partial<JSONRPCErrorObject> | undefined;
    if (typeof e?.code !== "number" || typeof e.message !== "string") {
      throw new InvalidResultError(`task ${task.taskId} failed without an error`, { taskId: task.taskId });
    }
    throw errorFromWire(e as JSONRPCErrorObject);
  }
  throw new RequestCancelledError(`task ${task.taskId} was cancelled`, { taskId: task.taskId });
}
