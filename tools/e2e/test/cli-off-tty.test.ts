/**
 * `mcpx call` piped (no terminal anywhere): the built CLI run with its stdin, stdout and stderr
 * pipes, in front of a scripted upstream whose tool reports progress when asked for it and then
 * asks a question. Off a terminal nothing is drawn and nothing asked: no progress is requested, stderr
 * stays empty, and the question is answered as a one-shot command always answered it (cancel: nobody
 * is attached to the broker), with stdin left open and unread.
 */
import { spawn } from "node:child_process";
import type { JSONObject } from "@mcpx/core";
import { ScriptedServer, stdioScript } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { afterThisTest, configDir } from "../src/index.js";
import { BIN } from "./cli-tty.helpers.js";

function run(dir: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, stdio: ["pipe", "pipe", "pipe"] });
    afterThisTest(async () => {
      child.kill();
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString("utf8");
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("mcpx call off a terminal", () => {
  it("cli/no-progress-and-no-prompt-off-a-tty", async () => {
    const server = new ScriptedServer({
      versions: ["2025-11-25"],
      tools: [{ name: "ask", inputSchema: { type: "object", properties: {} } }],
      handlers: {
        "tools/call": async (req, ctx) => {
          const token = (req.params?._meta as JSONObject | undefined)?.progressToken;
          if (token !== undefined) {
            ctx.push({
              jsonrpc: "2.0",
              method: "notifications/progress",
              params: { progressToken: token as string, progress: 1, total: 2, message: "asking" },
            });
          }
          const answer = await ctx.server.request(
            "elicitation/create",
            {
              mode: "form",
              message: "Who are you?",
              requestedSchema: { type: "object", properties: { name: { type: "string" } } },
            },
            { push: ctx.push },
          );
          return { content: [{ type: "text", text: JSON.stringify(answer.result) }] };
        },
      },
    });
    const script = await stdioScript(server);
    afterThisTest(() => script.close());
    const dir = await configDir({
      servers: { up: { command: script.command, args: script.args } },
      stateDir: ".state",
    });

    const { code, stdout, stderr } = await run(dir, ["call", "up__ask"]);
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: '{"action":"cancel"}\n', stderr: "" });
    // progress was not asked for: nothing would draw it
    const call = server.frames("tools/call")[0];
    expect((call?.params?._meta as JSONObject | undefined)?.progressToken).toBeUndefined();
    expect(server.failures).toEqual([]);
  });
});
