/**
 * `mcpx call` of a tool its upstream answers with a task (SEP-2663): the CLI declares the
 * extension, follows the task (tasks/get at the upstream's interval) and prints the tool's result,
 * as for a call answered at once; a failed task is the call's error. In-process, in front of a
 * scripted 2026-07-28 upstream whose every received frame is checked strictly.
 */
import type { JSONObject } from "@mcpx/core";
import { ScriptedServer, stdioScript } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { afterThisTest, configDir } from "../src/index.js";
import { run } from "./cli.helpers.js";

const TASKS = "io.modelcontextprotocol/tasks";

async function taskUpstream(final: JSONObject) {
  const seen: string[] = [];
  let polls = 0;
  const task = (status: string) => ({
    taskId: "up-9",
    status,
    createdAt: new Date().toISOString(),
    lastUpdatedAt: new Date().toISOString(),
    ttlMs: 60_000,
    pollIntervalMs: 50,
  });
  const server = new ScriptedServer({
    versions: ["2026-07-28"],
    tools: [{ name: "build", inputSchema: { type: "object", properties: { target: { type: "string" } } } }],
    capabilities: { tools: {}, extensions: { [TASKS]: {} } },
    handlers: {
      "tools/call": (req) => {
        const meta = (req.params?._meta ?? {}) as JSONObject;
        const caps = (meta["io.modelcontextprotocol/clientCapabilities"] ?? {}) as JSONObject;
        seen.push(`call declared=${Object.hasOwn((caps.extensions as JSONObject | undefined) ?? {}, TASKS)}`);
        return { resultType: "task", ...task("working") };
      },
      "tasks/get": (req) => {
        seen.push(`get ${String(req.params?.taskId)}`);
        polls++;
        return polls < 2
          ? { resultType: "complete", ...task("working") }
          : { resultType: "complete", ...task("completed"), ...final };
      },
    },
  });
  const script = await stdioScript(server);
  afterThisTest(() => script.close());
  return { server, seen, entry: { command: script.command, args: script.args } };
}

describe("mcpx call of a task", () => {
  it("cli-tasks/call-follows-the-task-to-its-result", async () => {
    const up = await taskUpstream({ result: { content: [{ type: "text", text: "built app" }] } });
    const dir = await configDir({ servers: { ci: up.entry } });
    const ran = await run(dir, ["call", "ci__build", "target=app"]);
    expect(ran.stderr).toBe("");
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe("built app\n");
    expect(up.seen).toEqual(["call declared=true", "get up-9", "get up-9"]);
    expect(up.server.failures).toEqual([]);
  });

  it("cli-tasks/failed-task-is-the-call-error", async () => {
    const up = await taskUpstream({ status: "failed", error: { code: -32603, message: "the runner died" } });
    const dir = await configDir({ servers: { ci: up.entry } });
    const ran = await run(dir, ["call", "ci__build", "target=app"]);
    expect(ran.code).not.toBe(0);
    expect(ran.stderr).toContain("the runner died");
    expect(up.server.failures).toEqual([]);
  });
});
