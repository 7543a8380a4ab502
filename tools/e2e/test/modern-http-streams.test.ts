/**
 * 2026-07-28 over Streamable HTTP: response streams and what ends them. Cancelling closes the stream
 * and POSTs nothing; a stream that ends without its response fails the request at once (-32000);
 * subscriptions/listen streams replaced and reopened; an input_required round over HTTP. Against
 * scripted modern servers that check every frame strictly and every mirrored header.
 */
import {
  ConnectionClosedError,
  type ElicitationHandler,
  MetaKey,
  RequestCancelledError,
  RequestTimeoutError,
} from "@mcpx/core";
import { endListen, type HttpRecord, type HttpScript, listenNotify, NO_ANSWER } from "@mcpx/testkit";
import { describe, expect } from "vitest";
import { delay, handlers, httpCase, metaOf, requirement, settings, TOOLS } from "../src/index.js";
import { allPosts, listenSse, M, methodOf, REGION_TOOL, until } from "./modern-http.helpers.js";

const postsOf = (script: HttpScript, method: string) =>
  allPosts(script).filter((r) => methodOf(r) === method);

/** Nothing but requests was POSTed: no notifications/cancelled, no notification of any kind. */
function onlyRequestsPosted(script: HttpScript): void {
  for (const r of allPosts(script)) {
    expect(
      r.frames.every((f) => f.id !== undefined && f.method !== undefined),
      methodOf(r),
    ).toBe(true);
  }
  expect(postsOf(script, "notifications/cancelled")).toEqual([]);
}

describe("2026-07-28 cancellation over Streamable HTTP", () => {
  requirement(["2026-07-28/cancellation/close-stream"], async () => {
    for (const answer of ["sse", "json"] as const) {
      const c = await httpCase(
        {
          versions: M,
          tools: TOOLS,
          handlers: { "tools/call": (req) => (req.params?.name === "add" ? NO_ANSWER : { content: [] }) },
        },
        { answer },
      );
      const client = await c.connect({ settings: settings({ requestTimeout: 300 }) });
      const callPost = (n: number) =>
        c.script.waitForRequest(
          (r) => methodOf(r) === "tools/call" && postsOf(c.script, "tools/call").indexOf(r) === n,
        );

      // by the caller's AbortSignal: the POST (its response stream, or the POST still awaiting its
      // headers when the server answers JSON) is closed
      const abort = new AbortController();
      const aborted = client
        .callTool("add", { a: 1, b: 2 }, { signal: abort.signal, timeout: 10_000 })
        .catch((e) => e);
      const first = await callPost(0);
      abort.abort("user gave up");
      expect(await aborted).toBeInstanceOf(RequestCancelledError);
      await until(() => first.closedByClient === true);

      // by timeout: the same
      const started = Date.now();
      const timedOut = await client.callTool("add", { a: 3, b: 4 }).catch((e) => e);
      expect(timedOut).toBeInstanceOf(RequestTimeoutError);
      expect(Date.now() - started).toBeLessThan(2000);
      const second = await callPost(1);
      await until(() => second.closedByClient === true);
      if (answer === "sse") {
        expect(first.stream?.closedByClient, answer).toBe(true);
        expect(second.stream?.closedByClient, answer).toBe(true);
      }

      // the connection carries on; and nothing was POSTed to cancel
      expect(await client.callTool("echo", { text: "still here" })).toMatchObject({ content: [] });
      await delay(100);
      expect(postsOf(c.script, "tools/call")).toHaveLength(3);
      onlyRequestsPosted(c.script);
      expect(c.server.frames("notifications/cancelled")).toEqual([]);
      expect(c.server.failures).toEqual([]);
    }
  });
});

describe("2026-07-28 a response stream that ends without its response", () => {
  requirement(["2026-07-28/stream/closed-without-response"], async () => {
    const c = await httpCase(
      {
        versions: M,
        tools: TOOLS,
        handlers: {
          "tools/call": (req, ctx) => {
            if (req.params?.name !== "add") return { content: [{ type: "text", text: "ok" }] };
            const token = (req.params?._meta as { progressToken?: number } | undefined)?.progressToken;
            if (token !== undefined) {
              ctx.push({
                jsonrpc: "2.0",
                method: "notifications/progress",
                params: { progressToken: token, progress: 1 },
              });
            }
            return NO_ANSWER;
          },
        },
      },
      { answer: "sse" }, // with event ids: 2026-07-28 has no resumption all the same
    );
    const client = await c.connect({ settings: settings({ requestTimeout: 10_000 }) });
    const end = async (n: number, how: "finish" | "cut") => {
      const rec = await c.script.waitForRequest(
        (r) => methodOf(r) === "tools/call" && postsOf(c.script, "tools/call").indexOf(r) === n,
      );
      await until(() => rec.stream !== undefined);
      await delay(50);
      if (how === "finish") rec.stream?.finish();
      else rec.stream?.cut();
      return rec;
    };

    // after a notification of its own (with an event id)
    const progress: number[] = [];
    let started = Date.now();
    const pending = client
      .callTool("add", { a: 1 }, { onProgress: (p) => progress.push(p.progress) })
      .catch((e) => e);
    const rec = await end(0, "finish");
    const err = await pending;
    expect(err).toBeInstanceOf(ConnectionClosedError);
    expect(err.code).toBe(-32000);
    expect(err.message).toMatch(/closed before the response/);
    expect(Date.now() - started).toBeLessThan(2000); // not its 10 s deadline
    expect(progress).toEqual([1]);
    expect(rec.stream?.events.map((e) => e.id)).toEqual([expect.stringMatching(/_1$/)]);

    // with nothing on it at all
    started = Date.now();
    const empty = client.callTool("add", { a: 2 }).catch((e) => e);
    await end(1, "cut");
    const err2 = await empty;
    expect(err2).toBeInstanceOf(ConnectionClosedError);
    expect(err2.code).toBe(-32000);
    expect(Date.now() - started).toBeLessThan(2000);

    // no resumption (no GET with Last-Event-ID), no cancel POSTed, and the connection carries on
    expect(await client.callTool("echo", { text: "x" })).toMatchObject({
      content: [{ type: "text", text: "ok" }],
    });
    expect(c.script.requests.filter((r) => r.httpMethod !== "POST")).toEqual([]);
    onlyRequestsPosted(c.script);
    expect(c.server.failures).toEqual([]);
  });
});

describe("2026-07-28 subscriptions/listen over HTTP", () => {
  const listenPosts = (script: HttpScript) => postsOf(script, "subscriptions/listen");

  requirement(["2026-07-28/subscriptions/replace-on-subscribe"], async () => {
    const c = await httpCase(
      { versions: M, capabilities: { tools: { listChanged: true }, resources: { subscribe: true } } },
      { answer: listenSse },
    );
    const client = await c.connect();
    await until(() => c.server.listens.length === 1);
    const [first] = listenPosts(c.script) as [HttpRecord];
    expect(first.frames[0]?.params?.notifications).toEqual({ toolsListChanged: true });
    expect(first.closedByClient).toBeUndefined();
    await client.subscribeResource("file:///x");
    await until(() => c.server.listens.length === 2);
    // the old stream is closed (that is the cancellation over HTTP) …
    await until(() => first.closedByClient === true);
    expect(first.stream?.closedByClient).toBe(true);
    // … and a new one asks for the URI too
    const second = listenPosts(c.script)[1];
    expect(second?.frames[0]?.id).not.toBe(first.frames[0]?.id);
    expect(second?.frames[0]?.params?.notifications).toEqual({
      toolsListChanged: true,
      resourceSubscriptions: ["file:///x"],
    });
    expect(second?.headers["mcp-method"]).toBe("subscriptions/listen");
    expect(client.listenId).toBe(second?.frames[0]?.id);
    expect(second?.closedByClient).toBeUndefined();
    // the new stream delivers; nothing was POSTed to cancel the old one
    const seen: string[] = [];
    client.onNotification("notifications/resources/updated", (p) => seen.push(String(p.uri)));
    listenNotify(c.server.listens[1]!, "notifications/resources/updated", { uri: "file:///x" });
    await until(() => seen.length === 1);
    expect(seen).toEqual(["file:///x"]);
    await delay(50);
    onlyRequestsPosted(c.script);
    expect(c.server.failures).toEqual([]);
  });

  requirement(["2026-07-28/subscriptions/reopen"], async () => {
    const c = await httpCase(
      { versions: M, capabilities: { tools: { listChanged: true } } },
      { answer: listenSse },
    );
    const client = await c.connect({ settings: settings({ listenReopenDelay: 300 }) });
    await until(() => c.server.listens.length === 1);
    const first = listenPosts(c.script)[0];
    // the server ends the stream gracefully: the listen's response, then the stream closes
    let ended = Date.now();
    endListen(c.server.listens[0]!, "response");
    first?.stream?.finish();
    await until(() => c.server.listens.length === 2);
    expect(Date.now() - ended).toBeGreaterThanOrEqual(280);
    const second = listenPosts(c.script)[1];
    expect(second?.frames[0]?.params?.notifications).toEqual({ toolsListChanged: true });
    expect(client.listenId).toBe(second?.frames[0]?.id);
    // a stream that merely drops (no response) is reopened the same way
    ended = Date.now();
    second?.stream?.cut();
    await until(() => c.server.listens.length === 3);
    expect(Date.now() - ended).toBeGreaterThanOrEqual(280);
    expect(client.listenId).toBe(c.server.listens[2]?.id);
    await delay(350);
    expect(c.server.listens).toHaveLength(3);
    onlyRequestsPosted(c.script);
    expect(c.server.failures).toEqual([]);
  });

  requirement(["2026-07-28/subscriptions/both-end-styles"], async () => {
    const c = await httpCase(
      { versions: M, capabilities: { tools: { listChanged: true } } },
      { answer: listenSse },
    );
    const client = await c.connect({ settings: settings({ listenReopenDelay: 50 }) });
    await until(() => c.server.listens.length === 1);
    const first = listenPosts(c.script)[0];
    // the server ends it with notifications/cancelled naming the listen id, and leaves the stream
    // open: mcpx takes it as ended, lets go of that stream, and opens a new one
    endListen(c.server.listens[0]!, "cancelled");
    await until(() => c.server.listens.length === 2);
    await until(() => first?.closedByClient === true);
    expect(client.listenId).toBe(c.server.listens[1]?.id);
    await delay(100);
    expect(c.server.listens).toHaveLength(2);
    onlyRequestsPosted(c.script);
    expect(c.server.failures).toEqual([]);
  });
});

describe("2026-07-28 input_required over HTTP", () => {
  requirement(["2026-07-28/results/input-required-round"], async () => {
    const asked: string[] = [];
    const form: ElicitationHandler = {
      name: "t",
      modes: ["form"],
      handle: async (req) => {
        asked.push(req.message);
        return { action: "accept", content: { city: "Oslo" } };
      },
    };
    let round = 0;
    const c = await httpCase(
      {
        versions: M,
        tools: [REGION_TOOL],
        handlers: {
          "tools/call": () => {
            round++;
            if (round === 1) {
              return {
                resultType: "input_required",
                requestState: "state-1",
                inputRequests: {
                  where: {
                    method: "elicitation/create",
                    params: {
                      mode: "form",
                      message: "Which city?",
                      requestedSchema: {
                        type: "object",
                        properties: {
                          city: { type: "string" },
                          units: { type: "string", default: "metric" },
                        },
                      },
                    },
                  },
                  roots: { method: "roots/list" },
                },
              };
            }
            if (round === 2) return { resultType: "input_required", requestState: "state-2" };
            return { resultType: "complete", content: [{ type: "text", text: "done" }] };
          },
        },
      },
      { answer: (m) => (m === "tools/call" ? "sse" : "json") },
    );
    const client = await c.connect({
      handlers: handlers({ elicitation: [form], roots: () => [{ uri: "file:///w", name: "w" }] }),
    });
    expect(await client.callTool("where", { region: "eu", query: "q" })).toEqual({
      resultType: "complete",
      content: [{ type: "text", text: "done" }],
    });
    expect(asked).toEqual(["Which city?"]);
    const calls = postsOf(c.script, "tools/call");
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((r) => r.frames[0]?.id)).size).toBe(3);
    const { _meta: _m1, ...second } = calls[1]?.frames[0]?.params ?? {};
    expect(second).toEqual({
      name: "where",
      arguments: { region: "eu", query: "q" },
      inputResponses: {
        where: { action: "accept", content: { city: "Oslo", units: "metric" } },
        roots: { roots: [{ uri: "file:///w", name: "w" }] },
      },
      requestState: "state-1",
    });
    const { _meta: _m2, ...third } = calls[2]?.frames[0]?.params ?? {};
    expect(third).toEqual({
      name: "where",
      arguments: { region: "eu", query: "q" },
      inputResponses: {},
      requestState: "state-2",
    });
    // every round is a whole modern POST: the same mirrored headers, the capabilities declared
    for (const r of calls) {
      expect(r.headers).toMatchObject({
        "mcp-method": "tools/call",
        "mcp-name": "where",
        "mcp-param-region": "eu",
        "mcp-protocol-version": "2026-07-28",
      });
      expect(metaOf(r.frames[0])[MetaKey.clientCapabilities]).toEqual({
        roots: {},
        elicitation: { form: {} },
      });
    }
    // the annotations were listed once, before the first round
    expect(postsOf(c.script, "tools/list")).toHaveLength(1);
    onlyRequestsPosted(c.script);
    expect(c.server.failures).toEqual([]);
  });
});
