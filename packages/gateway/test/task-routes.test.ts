import type { RequestOptions, UpstreamClient } from "@mcpx/client";
import { ErrorCode, type JSONObject, McpError } from "@mcpx/core";
import { describe, expect, it } from "vitest";
import type { CallContext, Peer } from "../src/server/peer.js";
import { TaskRelay } from "../src/task-relay.js";
import { TaskRoutes } from "../src/task-routes.js";

const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };

function caller(capabilities: JSONObject, authContext = "alice"): CallContext {
  const peer: Peer = { id: "p", revision: undefined, capabilities, authContext, notify: () => false };
  return { peer, signal: new AbortController().signal, notify: () => {} };
}

/** An upstream connection that records what it was asked and answers from `answers`. */
function upstream(answers: Record<string, JSONObject>) {
  const seen: { method: string; params: JSONObject; opts: RequestOptions }[] = [];
  const client = {
    request: async (method: string, params: JSONObject, opts: RequestOptions) => {
      seen.push({ method, params, opts });
      return answers[method] ?? {};
    },
  } as unknown as UpstreamClient;
  return { client, seen };
}

describe("task routes", () => {
  it("tasks/routes-map-ids-to-their-owner", () => {
    const routes = new TaskRoutes();
    const a = routes.add("one", "t-1", "alice", 60_000);
    const b = routes.add("two", "t-1", "alice", 60_000);
    expect(a).not.toBe(b);
    expect(a).not.toContain("t-1");
    expect(routes.get(a, "alice")).toMatchObject({ server: "one", upstreamId: "t-1" });
    expect(routes.get(b, "alice")).toMatchObject({ server: "two", upstreamId: "t-1" });
  });

  it("tasks/routes-bound-to-the-caller", () => {
    const routes = new TaskRoutes();
    const id = routes.add("one", "t-1", "alice", 60_000);
    expect(routes.get(id, "bob")).toBeUndefined();
    expect(routes.get(id, "alice")?.upstreamId).toBe("t-1");
  });

  it("tasks/routes-expire-with-the-task-ttl", () => {
    let now = 1_000;
    const routes = new TaskRoutes({ now: () => now, maxTtlMs: 10_000 });
    const short = routes.add("one", "t-1", "alice", 500);
    const unlimited = routes.add("one", "t-2", "alice", null);
    now += 600;
    expect(routes.get(short, "alice")).toBeUndefined();
    expect(routes.get(unlimited, "alice")?.upstreamId).toBe("t-2");
    now += 10_000;
    expect(routes.get(unlimited, "alice")).toBeUndefined();
  });

  it("tasks/routes-bounded", () => {
    const routes = new TaskRoutes({ maxRoutes: 2 });
    const first = routes.add("one", "t-1", "alice", 60_000);
    routes.add("one", "t-2", "alice", 60_000);
    routes.add("one", "t-3", "alice", 60_000);
    expect(routes.size).toBe(2);
    expect(routes.get(first, "alice")).toBeUndefined();
  });
});

describe("task relay", () => {
  it("tasks/relay-refuses-undeclared-requests", async () => {
    const relay = new TaskRelay(() => undefined);
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      const err = await relay.handle(method, { taskId: "x" }, caller({})).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(McpError);
      expect((err as McpError).code).toBe(ErrorCode.MissingRequiredClientCapability);
      expect((err as McpError).data).toEqual({
        requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } },
      });
    }
  });

  it("tasks/relay-unknown-task-is-invalid-params", async () => {
    const relay = new TaskRelay(() => undefined);
    const err = await relay.handle("tasks/get", { taskId: "nope" }, caller(TASKS)).catch((e: unknown) => e);
    expect((err as McpError).code).toBe(ErrorCode.InvalidParams);
    // tasks/update is acknowledged whatever the id (SEP-2663).
    expect(await relay.handle("tasks/update", { taskId: "nope", inputResponses: {} }, caller(TASKS))).toEqual(
      {},
    );
  });

  it("tasks/relay-follows-the-owner", async () => {
    const { client, seen } = upstream({
      "tasks/get": { resultType: "complete", taskId: "up-7", status: "working", createdAt: "x" },
    });
    const relay = new TaskRelay((server) => (server === "one" ? client : undefined));
    const ctx = caller(TASKS);
    const created = relay.created(
      "one",
      { resultType: "task", taskId: "up-7", status: "working", ttlMs: 60_000 },
      ctx,
    );
    const id = created.taskId as string;
    expect(id).not.toBe("up-7");

    const got = await relay.handle("tasks/get", { taskId: id }, ctx);
    expect(got).toMatchObject({ taskId: id, status: "working" });
    await relay.handle("tasks/update", { taskId: id, inputResponses: { k: { action: "accept" } } }, ctx);
    expect(await relay.handle("tasks/cancel", { taskId: id }, ctx)).toEqual({});
    expect(seen.map((s) => [s.method, s.params])).toEqual([
      ["tasks/get", { taskId: "up-7" }],
      ["tasks/update", { taskId: "up-7", inputResponses: { k: { action: "accept" } } }],
      ["tasks/cancel", { taskId: "up-7" }],
    ]);
    expect(seen.every((s) => s.opts.tasks === true)).toBe(true);

    // Another caller does not reach the task.
    const other = await relay
      .handle("tasks/get", { taskId: id }, caller(TASKS, "bob"))
      .catch((e: unknown) => e);
    expect((other as McpError).code).toBe(ErrorCode.InvalidParams);
  });

  it("tasks/relay-leaves-complete-results-alone", () => {
    const relay = new TaskRelay(() => undefined);
    const result = { resultType: "complete", content: [] };
    expect(relay.created("one", result, caller(TASKS))).toBe(result);
  });

  it("tasks/relay-only-for-declaring-modern-or-in-process-callers", () => {
    const relay = new TaskRelay(() => undefined);
    expect(relay.accepts(caller(TASKS))).toBe(true);
    expect(relay.accepts(caller({}))).toBe(false);
    const legacy = caller(TASKS);
    legacy.peer.revision = { features: { initialize: true } } as unknown as Peer["revision"];
    expect(relay.accepts(legacy)).toBe(false);
  });
});
