/**
 * 2026-07-28 over Streamable HTTP: an `application/json` answer of several JSON lines (the suite's
 * reference server answers so, and keeps a subscriptions/listen open that way). Each line is read as
 * it arrives and delivered in order, the last one the response; a line that cannot be read is
 * skipped and named; a JSON value spread over several lines is still read whole.
 */
import { ConnectionClosedError, type JSONObject, MetaKey } from "@mcpx/core";
import type { Frame, HttpRecord } from "@mcpx/testkit";
import { describe, expect } from "vitest";
import { httpCase, requirement, TOOLS } from "../src/index.js";
import { M, methodOf, until } from "./modern-http.helpers.js";

const line = (msg: JSONObject) => `${JSON.stringify(msg)}\n`;
const note = (method: string, params: JSONObject) => line({ jsonrpc: "2.0", method, params });
const reply = (frames: Frame[], text: string) =>
  line({ jsonrpc: "2.0", id: frames[0]?.id as number, result: { content: [{ type: "text", text }] } });
const isCall = (r: HttpRecord) => methodOf(r) === "tools/call";

describe("2026-07-28 JSON lines under application/json", () => {
  requirement(["2026-07-28/answers/json-lines-body-read-in-order"], async () => {
    const c = await httpCase({
      versions: M,
      tools: TOOLS,
      capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
    });
    const client = await c.connect();

    // a call answered with a progress notification, a log line, then the response: in that order
    const order: string[] = [];
    client.onNotification("notifications/message", (p) => order.push(`message ${String(p.data)}`));
    c.script.rawAnswer(isCall, {
      status: 200,
      contentType: "application/json",
      body: (frames) => {
        const token = (frames[0]?.params?._meta as JSONObject | undefined)?.progressToken as string;
        return (
          note("notifications/progress", { progressToken: token, progress: 1, total: 2 }) +
          note("notifications/message", { level: "info", data: "half way" }) +
          reply(frames, "done")
        );
      },
    });
    const result = await client.callTool(
      "echo",
      { text: "x" },
      { onProgress: (p) => order.push(`progress ${p.progress}`) },
    );
    order.push("result");
    expect(result).toEqual({ content: [{ type: "text", text: "done" }] });
    expect(order).toEqual(["progress 1", "message half way", "result"]);

    // a listen answered with JSON lines that stay open: each line is delivered as it comes, while
    // the answer is still going (it never ends)
    const updated: string[] = [];
    client.onNotification("notifications/resources/updated", (p) => updated.push(String(p.uri)));
    const isNewListen = (r: HttpRecord) =>
      methodOf(r) === "subscriptions/listen" &&
      (r.frames[0]?.params?.notifications as JSONObject | undefined)?.resourceSubscriptions !== undefined;
    c.script.rawAnswer(isNewListen, {
      status: 200,
      contentType: "application/json",
      open: true,
      body: (frames) => {
        const tag = { [MetaKey.subscriptionId]: frames[0]?.id as number };
        return (
          note("notifications/subscriptions/acknowledged", {
            _meta: tag,
            notifications: { toolsListChanged: true, resourceSubscriptions: ["file:///a.txt"] },
          }) + note("notifications/resources/updated", { _meta: tag, uri: "file:///a.txt" })
        );
      },
    });
    await client.subscribeResource("file:///a.txt");
    await until(() => updated.length === 1);
    expect(updated).toEqual(["file:///a.txt"]);
    const listen = c.script.requests.find(isNewListen);
    expect(client.listenId).toBe(listen?.frames[0]?.id);
    expect(listen?.closedByClient).toBeUndefined();
    expect(c.server.failures).toEqual([]);
  });

  requirement(["2026-07-28/subscriptions/listen-id-sent-back-as-a-string-accepted"], async () => {
    // as the suite's reference server does: the listen's numeric id comes back as "5", on JSON lines
    const c = await httpCase({ versions: M, tools: TOOLS, capabilities: { prompts: { listChanged: true } } });
    const isListen = (r: HttpRecord) => methodOf(r) === "subscriptions/listen";
    c.script.rawAnswer(isListen, {
      status: 200,
      contentType: "application/json",
      open: true,
      body: (frames) => {
        const tag = { [MetaKey.subscriptionId]: String(frames[0]?.id) };
        return (
          note("notifications/subscriptions/acknowledged", {
            _meta: tag,
            notifications: { promptsListChanged: true },
          }) + note("notifications/prompts/list_changed", { _meta: tag })
        );
      },
    });
    const changed: string[] = [];
    const warnings: string[] = [];
    c.host.hooks.serverWarning.tap("test", (w) => warnings.push(w.message));
    const client = await c.connect();
    client.onNotification("notifications/prompts/list_changed", () => changed.push("prompts"));
    await until(() => c.script.requests.some(isListen));
    const listen = c.script.requests.find(isListen);
    expect(typeof listen?.frames[0]?.id).toBe("number");
    expect(client.listenId).toBe(listen?.frames[0]?.id);
    // taken as the listen's own: nothing declined, the change delivered (not dropped as another's)
    await until(() => changed.length === 1);
    expect(warnings).toEqual([]);
    expect(c.server.failures).toEqual([]);
  });

  requirement(["2026-07-28/answers/json-lines-malformed-line-named"], async () => {
    const c = await httpCase({ versions: M, tools: TOOLS });
    const client = await c.connect();

    // a bad line is skipped: the lines after it are read, the response among them
    const messages: string[] = [];
    client.onNotification("notifications/message", (p) => messages.push(String(p.data)));
    c.script.rawAnswer(isCall, {
      status: 200,
      contentType: "application/json",
      body: (frames) =>
        `${note("notifications/message", { level: "info", data: "before" })}{not json\n${note("notifications/message", { level: "info", data: "after" })}${reply(frames, "still answered")}`,
    });
    expect(await client.callTool("echo", { text: "x" })).toEqual({
      content: [{ type: "text", text: "still answered" }],
    });
    expect(messages).toEqual(["before", "after"]);

    // the response's own line broken: the request fails at once, naming the line and what was wrong
    c.script.rawAnswer(isCall, {
      status: 200,
      contentType: "application/json",
      body: (frames) =>
        `${note("notifications/message", { level: "info", data: "first" })}{"jsonrpc":"2.0","id":${String(frames[0]?.id)},"result":\n`,
    });
    const err = await client.callTool("echo", { text: "y" }).catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionClosedError);
    expect(err.message).toMatch(
      /without the response to request \S+ \(line 2 of a JSON body could not be read: /,
    );
    // the connection carries on
    expect(await client.listTools()).toHaveLength(TOOLS.length);
    expect(c.server.failures).toEqual([]);
  });

  requirement(["2026-07-28/answers/json-body-over-several-lines-read-whole"], async () => {
    const c = await httpCase({ versions: M, tools: TOOLS });
    const client = await c.connect();
    // pretty-printed: no line of it is JSON alone, so the body is one message
    c.script.rawAnswer(isCall, {
      status: 200,
      contentType: "application/json",
      body: (frames) =>
        JSON.stringify(
          { jsonrpc: "2.0", id: frames[0]?.id, result: { content: [{ type: "text", text: "pretty" }] } },
          null,
          2,
        ),
    });
    expect(await client.callTool("echo", { text: "x" })).toEqual({
      content: [{ type: "text", text: "pretty" }],
    });
    expect(c.server.failures).toEqual([]);
  });
});
