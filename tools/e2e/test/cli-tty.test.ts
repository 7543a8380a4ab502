/**
 * `mcpx call` on a terminal (tmux): the progress bar drawn from the upstream's progress and erased
 * when the call ends, Ctrl-C cancelling the call the way the upstream's revision prescribes (and the
 * upstream hearing it), and a question the upstream asks answered by keystrokes in the pane. The
 * upstreams are scripted in this process (stdio through the testkit's relay, Streamable HTTP on
 * 127.0.0.1) and check every frame they receive strictly; the pane runs the built CLI.
 */
import type { JSONObject } from "@mcpx/core";
import { type Handler, httpScript, NO_ANSWER, ScriptedServer, stdioScript } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { afterThisTest, configDir, until } from "../src/index.js";
import { gate, tmuxPane } from "./cli-tty.helpers.js";

const tool = (name: string) => ({ name, inputSchema: { type: "object", properties: {} } });

async function stdioUpstream(versions: string[], name: string, call: Handler) {
  const server = new ScriptedServer({ versions, tools: [tool(name)], handlers: { "tools/call": call } });
  const script = await stdioScript(server);
  afterThisTest(() => script.close());
  return { server, config: { command: script.command, args: script.args } };
}

async function httpUpstream(name: string, call: Handler) {
  const server = new ScriptedServer({
    versions: ["2026-07-28"],
    tools: [tool(name)],
    handlers: { "tools/call": call },
  });
  const script = await httpScript(server, { answer: "sse" });
  afterThisTest(() => script.close());
  return { server, script, config: { url: script.url } };
}

const progressToken = (req: { params?: JSONObject }) =>
  (req.params?._meta as { progressToken?: string | number } | undefined)?.progressToken;

describe("mcpx call on a terminal", () => {
  it("cli-tty/progress-bar-drawn-and-erased", async () => {
    const steps = [gate(), gate()];
    const { server, config } = await stdioUpstream(["2025-11-25"], "copy", async (req, ctx) => {
      const token = progressToken(req);
      const progress = (params: JSONObject) =>
        ctx.push({
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: token, ...params },
        });
      progress({ progress: 1, total: 4, message: "copying a.txt" });
      await steps[0]?.wait;
      // no total: a spinner and the count
      progress({ progress: 7, message: "files so far" });
      await steps[1]?.wait;
      return { content: [{ type: "text", text: "copied" }] };
    });
    const dir = await configDir({ servers: { files: config }, stateDir: ".state" });
    const pane = await tmuxPane(dir);

    pane.type("mcpx call files__copy");
    const withTotal = await pane.until(/ {2}25% 1\/4 copying a\.txt/);
    expect(withTotal).toMatch(/^[|/\\-] \[#{5}-{15}\] {2}25% 1\/4 copying a\.txt$/m);
    steps[0]?.release();
    const counting = await pane.until(/^[|/\\-] 7 files so far$/m);
    // drawn over itself: the first state is gone from the line
    expect(counting).not.toContain("copying a.txt");
    steps[1]?.release();

    const after = await pane.until(/^copied\n\$ $/m);
    // erased: the result stands on the line the bar was drawn on, and nothing of the bar is left
    expect(after).toContain("$ mcpx call files__copy\ncopied\n$ ");
    expect(after).not.toMatch(/files so far|copying|%/);
    expect(await pane.exitCode()).toBe(0);
    // progress was asked for
    expect(progressToken(server.frames("tools/call")[0] ?? {})).toBeDefined();
    expect(server.failures).toEqual([]);
  });

  it("cli-tty/ctrl-c-cancels-the-call-and-the-upstream-hears-it", async () => {
    const legacy = await stdioUpstream(["2025-11-25"], "wait", () => NO_ANSWER);
    const modern = await httpUpstream("wait", () => NO_ANSWER);
    const dir = await configDir({
      servers: { legacy: legacy.config, modern: modern.config },
      stateDir: ".state",
    });
    const pane = await tmuxPane(dir);

    // legacy over stdio: notifications/cancelled for that request id (the child runs in a process
    // group of its own, so the terminal's SIGINT reaches mcpx alone and the upstream is told)
    pane.type("mcpx call legacy__wait");
    const call = await legacy.server.waitForMethod("tools/call", 15_000);
    pane.keys("C-c");
    const cancelled = await legacy.server.waitForMethod("notifications/cancelled", 15_000);
    expect(cancelled.frame.params).toMatchObject({ requestId: call.frame.id, reason: "interrupted" });
    await pane.until(/^cancelled\n\$ $/m);
    expect(await pane.exitCode()).toBe(130);
    expect(legacy.server.failures).toEqual([]);

    // 2026-07-28 over HTTP: the request's stream is closed, and nothing is POSTed to cancel it
    pane.type("mcpx call modern__wait");
    const post = await modern.script.waitForRequest((r) => r.frames[0]?.method === "tools/call", 15_000);
    pane.keys("C-c");
    await until(() => post.closedByClient === true, 15_000);
    await pane.until(/^cancelled\n[\s\S]*^cancelled\n\$ $/m);
    expect(await pane.exitCode()).toBe(130);
    expect(
      modern.script.requests.filter((r) => r.frames.some((f) => f.method === "notifications/cancelled")),
    ).toEqual([]);
    expect(modern.server.failures).toEqual([]);
  });

  it("cli-tty/terminal-elicitation-answered-by-keystrokes", async () => {
    const form = {
      mode: "form",
      message: "Who are you?",
      requestedSchema: {
        type: "object",
        properties: {
          name: { type: "string", title: "Name", minLength: 2 },
          age: { type: "integer", title: "Age", minimum: 18, default: 36 },
          colour: {
            type: "string",
            title: "Colour",
            oneOf: [
              { const: "#FF0000", title: "Red" },
              { const: "#00FF00", title: "Green" },
            ],
          },
        },
        required: ["name"],
      },
    };
    const asked = gate();
    // legacy: an elicitation/create request while the call runs (its progress bar paused meanwhile)
    const legacy = await stdioUpstream(["2025-11-25"], "ask", async (req, ctx) => {
      ctx.push({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: progressToken(req), progress: 1, total: 2, message: "asking" },
      });
      await asked.wait;
      const answer = await ctx.server.request("elicitation/create", form, { push: ctx.push });
      return { content: [{ type: "text", text: JSON.stringify(answer.result) }] };
    });
    // 2026-07-28: an input_required result, answered on the retry
    const modern = await httpUpstream("ask", (req) => {
      const responses = req.params?.inputResponses as JSONObject | undefined;
      if (!responses) {
        return {
          resultType: "input_required",
          inputRequests: { who: { method: "elicitation/create", params: form } },
          requestState: "asked-once",
        };
      }
      return { resultType: "complete", content: [{ type: "text", text: JSON.stringify(responses.who) }] };
    });
    const dir = await configDir({
      servers: { legacy: legacy.config, modern: modern.config },
      stateDir: ".state",
    });
    const pane = await tmuxPane(dir);

    pane.type("mcpx call legacy__ask");
    await pane.until(/\] {2}50% 1\/2 asking/);
    asked.release();
    const prompted = await pane.until(/ {2}Name \(text, at least 2 characters, required\): $/m);
    expect(prompted).toContain("legacy asks (during tools/call):\n  Who are you?\n");
    // the bar made way for the question
    expect(prompted).not.toContain("asking");
    pane.type("A");
    await pane.until(/! name: must NOT have fewer than 2 characters\n {2}Name \(.*\): $/m);
    pane.type("Ada");
    await pane.until(/ {2}Age \(whole number, 18 or more\) \[36\]: $/m);
    pane.type("");
    await pane.until(/ {4}1\) Red {2}2\) Green\n {2}Colour \(1-2\): $/m);
    pane.type("2");
    await pane.until(/ {2}Your answer: Name: Ada, Age: 36, Colour: Green\n {2}Send it\? .*: $/m);
    pane.type("");
    const answered = await pane.until(/^\{"action":"accept".*\}\n\$ $/m);
    expect(answered).toContain(
      '{"action":"accept","content":{"name":"Ada","age":36,"colour":"#00FF00"}}\n$ ',
    );
    expect(await pane.exitCode()).toBe(0);

    pane.type("mcpx call modern__ask");
    await pane.until(/modern asks \(during tools\/call\):\n {2}Who are you\?\n {2}Name \(.*\): $/m);
    pane.type("Grace");
    await pane.until(/ {2}Age \(.*\) \[36\]: $/m);
    pane.type("85");
    await pane.until(/ {2}Colour \(1-2\): $/m);
    pane.type("red");
    await pane.until(/ {2}Send it\? .*: $/m);
    pane.type("y");
    await pane.until(
      /^\{"action":"accept","content":\{"name":"Grace","age":85,"colour":"#FF0000"\}\}\n\$ $/m,
    );
    expect(await pane.exitCode()).toBe(0);
    expect(legacy.server.failures).toEqual([]);
    expect(modern.server.failures).toEqual([]);
  });
});
