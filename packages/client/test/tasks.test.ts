/**
 * Following a task (SEP-2663) to its result, against a poller that plays the server: the interval
 * the server suggests is honoured (within bounds), each input request is answered once, a failed
 * task throws its error's class, a task past its ttlMs is given up, and a caller's abort cancels it.
 */
import {
  ErrorCode,
  InvalidResultError,
  type JSONObject,
  McpError,
  RequestCancelledError,
  RequestTimeoutError,
  type Result,
  type Task,
} from "@mcpx/core";
import { describe, expect, it } from "vitest";
import { resultKind } from "../src/results.js";
import { followTask, type TaskPoller } from "../src/tasks.js";

const created: Task = {
  taskId: "t-1",
  status: "working",
  createdAt: new Date(0).toISOString(),
  lastUpdatedAt: new Date(0).toISOString(),
  ttlMs: 60_000,
  pollIntervalMs: 200,
};

/** A server whose tasks/get answers come from `answers`, in turn (the last repeats). */
function server(answers: JSONObject[]) {
  const calls: { method: string; params: unknown }[] = [];
  let i = 0;
  const poller: TaskPoller = {
    get: async (taskId) => {
      calls.push({ method: "tasks/get", params: taskId });
      const next = answers[Math.min(i++, answers.length - 1)] as JSONObject;
      return { resultType: "complete", ...created, ...next } as Result;
    },
    update: async (taskId, inputResponses) => {
      calls.push({ method: "tasks/update", params: { taskId, inputResponses } });
      return {};
    },
    cancel: async (taskId) => {
      calls.push({ method: "tasks/cancel", params: taskId });
      return {};
    },
  };
  return { poller, calls };
}

/** A clock that the sleeps move, so no test waits. */
function clock(start = 0) {
  let now = start;
  const slept: number[] = [];
  return {
    now: () => now,
    sleep: async (ms: number, signal?: AbortSignal) => {
      if (signal?.aborted) throw signal.reason;
      slept.push(ms);
      now += ms;
    },
    slept,
  };
}

describe("followTask", () => {
  it("tasks/follow-polls-to-the-result", async () => {
    const { poller, calls } = server([
      { status: "working", pollIntervalMs: 500 },
      { status: "completed", result: { content: [{ type: "text", text: "done" }] } },
    ]);
    const c = clock();
    const seen: string[] = [];
    const result = await followTask(poller, created, {
      now: c.now,
      sleep: c.sleep,
      onStatus: (t) => seen.push(t.status),
    });
    expect(result).toEqual({ content: [{ type: "text", text: "done" }] });
    // The interval the server suggested each time (the CreateTaskResult's, then the poll's).
    expect(c.slept).toEqual([200, 500]);
    expect(seen).toEqual(["working", "working", "completed"]);
    expect(calls.map((x) => x.method)).toEqual(["tasks/get", "tasks/get"]);
  });

  it("tasks/follow-bounds-the-poll-interval", async () => {
    const { poller } = server([
      { status: "working", pollIntervalMs: 1 },
      { status: "completed", result: {} },
    ]);
    const c = clock();
    await followTask(
      poller,
      { ...created, pollIntervalMs: 10 * 60_000, ttlMs: null },
      {
        now: c.now,
        sleep: c.sleep,
        minPollIntervalMs: 50,
        maxPollIntervalMs: 5_000,
      },
    );
    expect(c.slept).toEqual([5_000, 50]);
  });

  it("tasks/follow-answers-each-input-request-once", async () => {
    const question = {
      method: "elicitation/create",
      params: { message: "Go?", requestedSchema: { type: "object" } },
    };
    const { poller, calls } = server([
      { status: "input_required", inputRequests: { a: question } },
      // The server has not caught up with the answer yet: the same key again.
      { status: "input_required", inputRequests: { a: question } },
      { status: "input_required", inputRequests: { a: question, b: question } },
      { status: "completed", result: { content: [] } },
    ]);
    const c = clock();
    const asked: string[][] = [];
    await followTask(poller, created, {
      now: c.now,
      sleep: c.sleep,
      answer: async (requests) => {
        asked.push(Object.keys(requests));
        return Object.fromEntries(Object.keys(requests).map((k) => [k, { action: "accept", content: {} }]));
      },
    });
    expect(asked).toEqual([["a"], ["b"]]);
    expect(calls.filter((x) => x.method === "tasks/update").map((x) => x.params)).toEqual([
      { taskId: "t-1", inputResponses: { a: { action: "accept", content: {} } } },
      { taskId: "t-1", inputResponses: { b: { action: "accept", content: {} } } },
    ]);
  });

  it("tasks/follow-input-without-an-answerer-is-an-error", async () => {
    const { poller } = server([{ status: "input_required", inputRequests: { a: { method: "roots/list" } } }]);
    const c = clock();
    await expect(followTask(poller, created, { now: c.now, sleep: c.sleep })).rejects.toBeInstanceOf(
      InvalidResultError,
    );
  });

  it("tasks/follow-failed-throws-the-task-error", async () => {
    const { poller } = server([{ status: "failed", error: { code: -32602, message: "bad input" } }]);
    const c = clock();
    const err = await followTask(poller, created, { now: c.now, sleep: c.sleep }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((err as McpError).message).toBe("bad input");
  });

  it("tasks/follow-cancelled-task-throws", async () => {
    const { poller } = server([{ status: "cancelled" }]);
    const c = clock();
    await expect(followTask(poller, created, { now: c.now, sleep: c.sleep })).rejects.toBeInstanceOf(
      RequestCancelledError,
    );
  });

  it("tasks/follow-gives-up-after-the-ttl", async () => {
    const { poller, calls } = server([{ status: "working" }]);
    const c = clock();
    const err = await followTask(poller, { ...created, ttlMs: 1_000 }, { now: c.now, sleep: c.sleep }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RequestTimeoutError);
    // 200 ms apart: five polls up to the ttl (the last at 1000 ms), none after it.
    expect(calls.length).toBe(5);
  });

  it("tasks/follow-abort-cancels-the-task", async () => {
    const { poller, calls } = server([{ status: "working" }]);
    const abort = new AbortController();
    const c = clock();
    let polls = 0;
    const counting: TaskPoller = {
      ...poller,
      get: async (id, signal) => {
        if (++polls === 2) abort.abort(new Error("user"));
        return poller.get(id, signal);
      },
    };
    const err = await followTask(counting, created, {
      now: c.now,
      sleep: c.sleep,
      signal: abort.signal,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestCancelledError);
    expect(calls.at(-1)).toEqual({ method: "tasks/cancel", params: "t-1" });
  });
});

describe("resultKind", () => {
  it("tasks/task-result-only-where-declared", () => {
    const task = { resultType: "task", taskId: "t", status: "working" };
    expect(resultKind("tools/call", task, true)).toBe("task");
    expect(() => resultKind("tools/call", task)).toThrow(InvalidResultError);
    expect(() => resultKind("tools/call", { resultType: "task" }, true)).toThrow(InvalidResultError);
  });
});
