/**
 * The tasks extension (SEP-2663) through a real daemon in front of a scripted 2026-07-28 upstream
 * that answers a tools/call with a task: mcpx declares the extension, relays the task under an id
 * of its own, and tasks/get, tasks/update and tasks/cancel reach the upstream under the upstream's
 * id; a request that did not declare the extension gets no task and its tasks/* are refused.
 */
import { type JSONObject, SKILLS_EXTENSION } from "@mcpx/core";
import type { Handler, ScriptedServer } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { daemonCase } from "../src/index.js";
import { mirrored, modernBody, post } from "./gateway-http.helpers.js";

const TASKS = "io.modelcontextprotocol/tasks";
const tool = (name: string) => ({ name, inputSchema: { type: "object", properties: {} } });

/** An upstream with one task: `work` creates it; it asks one question, then completes. */
function taskUpstream() {
  const state = { status: "working", answered: undefined as JSONObject | undefined, cancelled: false };
  const declared = (req: { params?: JSONObject }) =>
    Object.hasOwn(
      ((
        (req.params?._meta as JSONObject | undefined)?.["io.modelcontextprotocol/clientCapabilities"] as
          | JSONObject
          | undefined
      )?.extensions as JSONObject | undefined) ?? {},
      TASKS,
    );
  const task = () => ({
    taskId: "up-1",
    status: state.status,
    createdAt: "2026-01-01T00:00:00Z",
    lastUpdatedAt: "2026-01-01T00:00:00Z",
    ttlMs: 60_000,
    pollIntervalMs: 50,
  });
  const handlers: Record<string, Handler> = {
    "tools/call": (req) => {
      if (!declared(req)) return { resultType: "complete", content: [{ type: "text", text: "sync" }] };
      state.status = "input_required";
      return { resultType: "task", ...task() };
    },
    "tasks/get": (req) => {
      if (req.params?.taskId !== "up-1") throw Object.assign(new Error("unknown task"), { code: -32602 });
      const out: JSONObject = { resultType: "complete", ...task() };
      if (state.status === "input_required") {
        out.inputRequests = {
          ok: {
            method: "elicitation/create",
            params: {
              mode: "form",
              message: "Go?",
              requestedSchema: { type: "object", properties: { go: { type: "boolean" } } },
            },
          },
        };
      }
      if (state.status === "completed")
        out.result = { content: [{ type: "text", text: JSON.stringify(state.answered) }] };
      return out;
    },
    "tasks/update": (req) => {
      state.answered = (req.params?.inputResponses as JSONObject | undefined)?.ok as JSONObject;
      state.status = "completed";
      return { resultType: "complete" };
    },
    "tasks/cancel": () => {
      state.cancelled = true;
      return { resultType: "complete" };
    },
  };
  return { state, handlers };
}

function noFailures(scripted: Record<string, ScriptedServer>): void {
  for (const [name, s] of Object.entries(scripted)) expect(s.failures, name).toEqual([]);
}

describe("tasks relayed by the gateway", () => {
  it("tasks/relay-follows-the-task", async () => {
    const up = taskUpstream();
    const d = await daemonCase([
      {
        name: "m",
        versions: ["2026-07-28"],
        tools: [tool("work")],
        capabilities: { tools: {}, extensions: { [TASKS]: {} } },
        handlers: up.handlers,
      },
    ]);
    const ask = async (method: string, params: JSONObject, name?: string, declare = true) => {
      const body = modernBody(method, {
        ...params,
        _meta: {
          "io.modelcontextprotocol/clientCapabilities": declare ? { extensions: { [TASKS]: {} } } : {},
        },
      });
      return (await (await post(d.url, body, mirrored(method, name))).json()) as {
        result?: JSONObject;
        error?: { code: number; data?: JSONObject };
      };
    };

    // mcpx declares the extension, an upstream offering it, beside the skills it serves itself
    const discovered = await ask("server/discover", {});
    const capabilities = (discovered.result?.capabilities ?? {}) as JSONObject;
    expect(capabilities.extensions).toEqual({ [TASKS]: {}, [SKILLS_EXTENSION]: { directoryRead: true } });

    // without the extension: no task, and the tasks/* requests are refused with -32021
    expect(
      (await ask("tools/call", { name: "m__work", arguments: {} }, "m__work", false)).result,
    ).toMatchObject({
      resultType: "complete",
    });
    const refused = await ask("tasks/get", { taskId: "up-1" }, "up-1", false);
    expect(refused.error?.code).toBe(-32021);
    expect(refused.error?.data).toEqual({ requiredCapabilities: { extensions: { [TASKS]: {} } } });

    // with it: a task under mcpx's id
    const created = (await ask("tools/call", { name: "m__work", arguments: {} }, "m__work"))
      .result as JSONObject;
    expect(created.resultType).toBe("task");
    const id = created.taskId as string;
    expect(id).not.toBe("up-1");

    const waiting = (await ask("tasks/get", { taskId: id }, id)).result as JSONObject;
    expect(waiting).toMatchObject({ resultType: "complete", taskId: id, status: "input_required" });
    expect(Object.keys(waiting.inputRequests as JSONObject)).toEqual(["ok"]);

    const ack = (
      await ask(
        "tasks/update",
        { taskId: id, inputResponses: { ok: { action: "accept", content: { go: true } } } },
        id,
      )
    ).result;
    expect(ack).toMatchObject({ resultType: "complete" });
    expect(ack).not.toHaveProperty("taskId");

    const done = (await ask("tasks/get", { taskId: id }, id)).result as JSONObject;
    expect(done).toMatchObject({ taskId: id, status: "completed" });
    expect(done.result).toEqual({
      content: [{ type: "text", text: JSON.stringify({ action: "accept", content: { go: true } }) }],
    });

    expect((await ask("tasks/cancel", { taskId: id }, id)).result).toMatchObject({ resultType: "complete" });
    expect(up.state.cancelled).toBe(true);

    // an id mcpx never gave, and the removed methods
    expect((await ask("tasks/get", { taskId: "up-1" }, "up-1")).error?.code).toBe(-32602);
    expect((await ask("tasks/result", { taskId: id })).error?.code).toBe(-32601);
    expect((await ask("tasks/list", {})).error?.code).toBe(-32601);
    noFailures(d.scripted);
  });

  it("tasks/mcp-name-mirrors-the-task-id", async () => {
    const up = taskUpstream();
    const d = await daemonCase([
      {
        name: "m",
        versions: ["2026-07-28"],
        tools: [tool("work")],
        capabilities: { tools: {}, extensions: { [TASKS]: {} } },
        handlers: up.handlers,
      },
    ]);
    const meta = { "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS]: {} } } };
    const body = modernBody("tasks/get", { taskId: "abc", _meta: meta });
    const res = await post(d.url, body, mirrored("tasks/get", "not-abc"));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32020);
    noFailures(d.scripted);
  });
});
