/**
 * Forwarding an upstream's questions to the downstream client whose call they belong to: a legacy
 * client (the official SDK v1, over mcpx's Streamable HTTP and HTTP+SSE, and a raw client over mcpx
 * stdio) receives elicitation/create or sampling/createMessage on its stream; a modern client (raw
 * fetch) receives input_required and its retry completes the upstream call. Against a real daemon
 * in front of scripted upstreams that ask the legacy way (a request) and the modern way
 * (input_required). Sampling goes only to a client that declared it; roots come from the config.
 */

import { PassThrough } from "node:stream";
import type { JSONObject } from "@mcpx/core";
import { silentLogger } from "@mcpx/core";
import { StdioServer } from "@mcpx/gateway";
import type { Handler, ScriptedServer } from "@mcpx/testkit";
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { afterThisTest, type DaemonCase, type DaemonUpstream, daemonCase } from "../src/index.js";
import { mirrored, modernBody, post } from "./gateway-http.helpers.js";

const tool = (name: string) => ({ name, inputSchema: { type: "object", properties: {} } });

const form = {
  mode: "form",
  message: "Who are you?",
  requestedSchema: {
    type: "object",
    properties: { name: { type: "string" }, age: { type: "integer", default: 36 } },
    required: ["name"],
  },
};
const form0618 = { message: form.message, requestedSchema: form.requestedSchema };
const signIn = {
  mode: "url",
  message: "Sign in",
  url: "https://auth.example.com/start",
  elicitationId: "sign-1",
};
const question = {
  messages: [{ role: "user", content: { type: "text", text: "What is 6 x 7?" } }],
  maxTokens: 20,
};

/** Legacy: the tool asks its client with a request during the call and returns what came back. */
function asks(method: string, params: JSONObject): Handler {
  return async (_req, ctx) => {
    const answer = await ctx.server.request(method, params, { push: ctx.push });
    return { content: [{ type: "text", text: JSON.stringify(answer.result ?? { error: answer.error }) }] };
  };
}

/** Modern: the tool answers input_required, then returns the answer its retry carried. */
function asksModern(method: string, params?: JSONObject): Handler {
  return (req) => {
    const responses = req.params?.inputResponses as JSONObject | undefined;
    if (!responses) {
      const inputRequest = params === undefined ? { method } : { method, params };
      return {
        resultType: "input_required",
        inputRequests: { q: inputRequest },
        requestState: "upstream-state",
      };
    }
    return { resultType: "complete", content: [{ type: "text", text: JSON.stringify(responses.q) }] };
  };
}

function upstreams(): DaemonUpstream[] {
  return [
    {
      name: "r0618",
      versions: ["2025-06-18"],
      tools: [tool("ask"), tool("think")],
      handlers: {
        "tools/call": (req, ctx) =>
          req.params?.name === "ask"
            ? asks("elicitation/create", form0618)(req, ctx)
            : asks("sampling/createMessage", question)(req, ctx),
      },
    },
    {
      name: "r1125",
      versions: ["2025-11-25"],
      tools: [tool("ask"), tool("sign_in")],
      handlers: {
        "tools/call": (req, ctx) =>
          req.params?.name === "ask"
            ? asks("elicitation/create", form)(req, ctx)
            : asks("elicitation/create", signIn)(req, ctx),
      },
    },
    {
      name: "r0728",
      versions: ["2026-07-28"],
      tools: [tool("ask"), tool("think")],
      handlers: {
        "tools/call": (req, ctx) =>
          req.params?.name === "ask"
            ? asksModern("elicitation/create", form)(req, ctx)
            : asksModern("sampling/createMessage", question)(req, ctx),
      },
    },
  ];
}

function text(result: unknown): unknown {
  const content = (result as { content?: { text: string }[] }).content;
  return JSON.parse(content?.[0]?.text ?? "null");
}

function noFailures(scripted: Record<string, ScriptedServer>): void {
  for (const [name, s] of Object.entries(scripted)) expect(s.failures, name).toEqual([]);
}

async function sdkClient(
  transport: StreamableHTTPClientTransport | SSEClientTransport,
  capabilities: JSONObject,
) {
  const client = new Client({ name: "sdk-v1", version: "1.0.0" }, { capabilities });
  await client.connect(transport);
  afterThisTest(() => client.close());
  return client;
}

function clientCaps(frame: { params?: JSONObject } | undefined): JSONObject {
  const meta = (frame?.params?._meta ?? {}) as JSONObject;
  return meta["io.modelcontextprotocol/clientCapabilities"] as JSONObject;
}

/** A legacy client on an in-process `mcpx stdio` over the daemon's gateway. */
function stdioLegacyClient(d: DaemonCase) {
  const input = new PassThrough();
  const output = new PassThrough();
  const server = new StdioServer(d.serving.runtime.gateway, { input, output, log: silentLogger });
  server.start();
  afterThisTest(() => server.close());
  const frames: JSONObject[] = [];
  let buffer = "";
  output.setEncoding("utf8");
  output.on("data", (chunk: string) => {
    buffer += chunk;
    for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
      frames.push(JSON.parse(buffer.slice(0, nl)) as JSONObject);
      buffer = buffer.slice(nl + 1);
    }
  });
  const next = async (match: (f: JSONObject) => boolean) => {
    for (let i = 0; i < 500; i++) {
      const found = frames.find(match);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error("stdio client: timed out");
  };
  return { send: (f: JSONObject) => input.write(`${JSON.stringify({ jsonrpc: "2.0", ...f })}\n`), next };
}

describe("forwarding to mcpx's own clients", () => {
  it("forwarding/legacy-client-elicitation", async () => {
    const d = await daemonCase(upstreams());
    const asked: JSONObject[] = [];
    const answer = (name: string) => (req: { params: JSONObject }) => {
      asked.push(req.params);
      return { action: "accept" as const, content: { name } };
    };
    // the official SDK v1 over Streamable HTTP, declaring elicitation (form)
    const client = await sdkClient(new StreamableHTTPClientTransport(new URL(d.url)), { elicitation: {} });
    client.setRequestHandler(ElicitRequestSchema, answer("Sdk"));
    for (const name of ["r0618__ask", "r1125__ask", "r0728__ask"]) {
      const result = await client.callTool({ name, arguments: {} });
      // the upstream got the client's answer, with the schema's default filled in by mcpx
      expect(text(result), name).toEqual({ action: "accept", content: { name: "Sdk", age: 36 } });
    }
    expect(asked).toEqual([
      { message: "Who are you?", requestedSchema: form.requestedSchema },
      { mode: "form", message: "Who are you?", requestedSchema: form.requestedSchema },
      { mode: "form", message: "Who are you?", requestedSchema: form.requestedSchema },
    ]);
    // the broker was never involved: nobody watched it, and it holds nothing
    expect((await d.get<{ settled: unknown[] }>("elicitations")).settled).toEqual([]);

    // the same over 2024-11-05 HTTP+SSE
    const sse = await sdkClient(new SSEClientTransport(new URL(d.url.replace(/\/mcp$/, "/sse"))), {
      elicitation: {},
    });
    sse.setRequestHandler(ElicitRequestSchema, answer("Sse"));
    expect(text(await sse.callTool({ name: "r1125__ask", arguments: {} }))).toEqual({
      action: "accept",
      content: { name: "Sse", age: 36 },
    });

    // and over mcpx stdio, a 2025-06-18 client: the request goes on its one channel
    const stdio = stdioLegacyClient(d);
    stdio.send({
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: { elicitation: {} },
        clientInfo: { name: "raw", version: "1" },
      },
    });
    await stdio.next((f) => f.id === 0);
    stdio.send({ method: "notifications/initialized" });
    stdio.send({ id: 1, method: "tools/call", params: { name: "r0728__ask", arguments: {} } });
    const request = await stdio.next((f) => f.method === "elicitation/create");
    // 2025-06-18 writes a form without `mode`
    expect(request.params).toEqual({ message: "Who are you?", requestedSchema: form.requestedSchema });
    stdio.send({ id: request.id, result: { action: "decline" } });
    const done = await stdio.next((f) => f.id === 1);
    expect(text(done.result)).toEqual({ action: "decline" });
    noFailures(d.scripted);
  });

  it("forwarding/url-elicitation-and-complete", async () => {
    const d = await daemonCase(upstreams());
    // a 2025-11-25 client over mcpx stdio that declared url mode
    const stdio = stdioLegacyClient(d);
    stdio.send({
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { elicitation: { form: {}, url: {} } },
        clientInfo: { name: "raw", version: "1" },
      },
    });
    await stdio.next((f) => f.id === 0);
    stdio.send({ method: "notifications/initialized" });
    stdio.send({ id: 1, method: "tools/call", params: { name: "r1125__sign_in", arguments: {} } });
    const request = await stdio.next((f) => f.method === "elicitation/create");
    expect(request.params).toEqual(signIn);
    stdio.send({ id: request.id, result: { action: "accept" } });
    expect(text((await stdio.next((f) => f.id === 1)).result)).toEqual({ action: "accept" });
    // the server's completion reaches the client it was forwarded to
    d.scripted.r1125?.notify("notifications/elicitation/complete", { elicitationId: "sign-1" });
    const complete = await stdio.next((f) => f.method === "notifications/elicitation/complete");
    expect(complete.params).toEqual({ elicitationId: "sign-1" });
    // a modern client gets the URL through input_required, without elicitationId (2026-07-28 has none)
    const body = (extra: JSONObject = {}) =>
      modernBody("tools/call", {
        name: "r1125__sign_in",
        arguments: {},
        ...extra,
        _meta: { "io.modelcontextprotocol/clientCapabilities": { elicitation: { url: {} } } },
      });
    const headers = mirrored("tools/call", "r1125__sign_in");
    const first = ((await (await post(d.url, body(), headers)).json()) as JSONObject).result as JSONObject;
    const { elicitationId: _id, ...modernUrl } = signIn;
    expect(first.inputRequests).toEqual({ q1: { method: "elicitation/create", params: modernUrl } });
    const retry = body({ inputResponses: { q1: { action: "accept" } }, requestState: first.requestState });
    const done = (await (await post(d.url, retry, headers)).json()) as JSONObject;
    expect(text(done.result)).toEqual({ action: "accept" });
    noFailures(d.scripted);
  });

  it("forwarding/modern-client-input-required", async () => {
    const d = await daemonCase(upstreams());
    const caps = { elicitation: { form: {} } };
    const call = async (name: string, extra: JSONObject = {}) => {
      const body = modernBody("tools/call", {
        name,
        arguments: {},
        ...extra,
        _meta: { "io.modelcontextprotocol/clientCapabilities": caps },
      });
      const res = await post(d.url, body, mirrored("tools/call", name));
      return (await res.json()) as { result?: JSONObject; error?: { code: number; message: string } };
    };
    for (const name of ["r1125__ask", "r0728__ask"]) {
      // the first request ends with mcpx's input_required: the upstream's question, mcpx's state;
      // under the key the upstream gave it (a modern upstream's "q"), else one of mcpx's ("q1")
      const q = name === "r0728__ask" ? "q" : "q1";
      const first = await call(name);
      expect(first.result, name).toMatchObject({
        resultType: "input_required",
        inputRequests: { [q]: { method: "elicitation/create", params: form } },
      });
      const state = String(first.result?.requestState);
      expect(state).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(state).not.toBe("upstream-state");
      // a state mcpx did not issue is refused, and nothing reaches the upstream
      const forged = await call(name, {
        inputResponses: { [q]: { action: "accept" } },
        requestState: "forged",
      });
      expect(forged.error).toMatchObject({ code: -32602 });
      // a malformed answer is refused too, and the call still waits for a good retry
      const malformed = await call(name, {
        inputResponses: { [q]: { action: "maybe" } },
        requestState: state,
      });
      expect(malformed.error).toMatchObject({ code: -32602 });
      // the retry carries the answer; the upstream call completes with it
      const retry = await call(name, {
        inputResponses: { [q]: { action: "accept", content: { name: "Modern" } } },
        requestState: state,
      });
      expect(retry.result?.resultType).toBe("complete");
      expect(text(retry.result), name).toEqual({ action: "accept", content: { name: "Modern", age: 36 } });
      // single use
      const replay = await call(name, {
        inputResponses: { [q]: { action: "decline" } },
        requestState: state,
      });
      expect(replay.error?.message).toContain("requestState is not one mcpx issued");
    }
    // the legacy upstream saw one call, answered in between; the modern one its own two rounds
    expect(d.scripted.r1125?.frames("tools/call")).toHaveLength(1);
    const modern = d.scripted.r0728?.frames("tools/call") ?? [];
    expect(modern).toHaveLength(2);
    expect(modern[1]?.params).toMatchObject({ requestState: "upstream-state" });
    // a retry that leaves the question unanswered is asked it again, under a new state
    const again = await call("r1125__ask");
    const state1 = String(again.result?.requestState);
    const unanswered = await call("r1125__ask", { inputResponses: {}, requestState: state1 });
    expect(unanswered.result).toMatchObject({
      resultType: "input_required",
      inputRequests: { q1: { method: "elicitation/create" } },
    });
    expect(unanswered.result?.requestState).not.toBe(state1);
    const finished = await call("r1125__ask", {
      inputResponses: { q1: { action: "cancel" } },
      requestState: unanswered.result?.requestState,
    });
    expect(text(finished.result)).toEqual({ action: "cancel" });
    // the official v2 client (2026-07-28) answers input_required with its own handler and retries
    const v2 = new ModernClient(
      { name: "sdk-v2", version: "2.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: { elicitation: { form: {} } } },
    );
    v2.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name: "V2" } }));
    await v2.connect(new ModernTransport(new URL(d.url)));
    afterThisTest(() => v2.close());
    for (const name of ["r1125__ask", "r0728__ask"]) {
      expect(text(await v2.callTool({ name, arguments: {} })), name).toEqual({
        action: "accept",
        content: { name: "V2", age: 36 },
      });
    }
    // a client that did not declare elicitation is not asked: the broker answers (nobody attached: cancel)
    const body = modernBody("tools/call", { name: "r1125__ask", arguments: {} });
    const plain = (await (
      await post(d.url, body, mirrored("tools/call", "r1125__ask"))
    ).json()) as JSONObject;
    expect(text(plain.result)).toEqual({ action: "cancel" });
    noFailures(d.scripted);
  });

  it("forwarding/max-total-withdraws-a-forwarded-question", async () => {
    // upstream.timeouts.maxTotal bounds a call also while its question waits on mcpx's own client:
    // the call fails at it, the client's question is withdrawn, and the upstream is told
    const d = await daemonCase(upstreams(), {
      upstream: { timeouts: { maxTotal: 800 } },
      requestTimeoutMs: 200,
    });
    const stdio = stdioLegacyClient(d);
    stdio.send({
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { elicitation: { form: {} } },
        clientInfo: { name: "raw", version: "1" },
      },
    });
    await stdio.next((f) => f.id === 0);
    stdio.send({ method: "notifications/initialized" });
    const questions = new Set<unknown>();
    for (const [id, name] of [
      [1, "r1125__ask"],
      [2, "r0728__ask"],
    ] as const) {
      stdio.send({ id, method: "tools/call", params: { name, arguments: {} } });
      // asked, and never answered
      const asked = await stdio.next((f) => f.method === "elicitation/create" && !questions.has(f.id));
      questions.add(asked.id);
      const withdrawn = await stdio.next(
        (f) => f.method === "notifications/cancelled" && (f.params as JSONObject)?.requestId === asked.id,
      );
      expect(withdrawn.params, name).toMatchObject({ reason: "withdrawn" });
      const failed = await stdio.next((f) => f.id === id);
      expect(String((failed.error as JSONObject)?.message), name).toMatch(/its maximum total of 800 ms/);
    }
    // the legacy upstream: its call cancelled, its question answered (cancel: nobody answered)
    const legacy = d.scripted.r1125!;
    const cancelled = await legacy.waitForMethod("notifications/cancelled");
    expect(cancelled.frame.params).toMatchObject({ requestId: legacy.frames("tools/call")[0]?.id });
    const answer = await legacy.waitFor((r) => r.frame.method === undefined && r.frame.id === "srv-1");
    expect(answer.frame.result).toEqual({ action: "cancel" });
    // the modern upstream: no retry was sent
    expect(d.scripted.r0728?.frames("tools/call")).toHaveLength(1);
    noFailures(d.scripted);
  });

  it("forwarding/sampling-forwarded", async () => {
    const d = await daemonCase(upstreams());
    const sampled: JSONObject[] = [];
    const client = await sdkClient(new StreamableHTTPClientTransport(new URL(d.url)), { sampling: {} });
    client.setRequestHandler(CreateMessageRequestSchema, (req) => {
      sampled.push(req.params as JSONObject);
      return { role: "assistant", content: { type: "text", text: "42" }, model: "sdk-model" };
    });
    const reply = { role: "assistant", content: { type: "text", text: "42" }, model: "sdk-model" };
    // a legacy upstream's sampling/createMessage, and a modern upstream's input request
    expect(text(await client.callTool({ name: "r0618__think", arguments: {} }))).toEqual(reply);
    expect(text(await client.callTool({ name: "r0728__think", arguments: {} }))).toEqual(reply);
    expect(sampled).toEqual([question, question]);
    // to the modern upstream mcpx declared sampling on this client's request, since it can sample
    const calls = d.scripted.r0728?.frames("tools/call") ?? [];
    expect(clientCaps(calls[0])).toMatchObject({ sampling: {} });
    // a modern client that declared sampling gets it through input_required
    const body = (extra: JSONObject = {}) =>
      modernBody("tools/call", {
        name: "r0618__think",
        arguments: {},
        ...extra,
        _meta: { "io.modelcontextprotocol/clientCapabilities": { sampling: {} } },
      });
    const first = (await (
      await post(d.url, body(), mirrored("tools/call", "r0618__think"))
    ).json()) as JSONObject;
    const result = first.result as JSONObject;
    expect(result).toMatchObject({
      resultType: "input_required",
      inputRequests: { q1: { method: "sampling/createMessage", params: question } },
    });
    const retry = body({
      inputResponses: { q1: { role: "assistant", content: { type: "text", text: "forty-two" }, model: "m" } },
      requestState: result.requestState,
    });
    const done = (await (
      await post(d.url, retry, mirrored("tools/call", "r0618__think"))
    ).json()) as JSONObject;
    expect(text(done.result)).toMatchObject({ content: { text: "forty-two" } });
    noFailures(d.scripted);
  });

  it("forwarding/sampling-refused-when-nobody-can", async () => {
    const d = await daemonCase(upstreams());
    // a client that declared no sampling
    const client = await sdkClient(new StreamableHTTPClientTransport(new URL(d.url)), { elicitation: {} });
    // a legacy upstream asking anyway is refused
    const legacy = text(await client.callTool({ name: "r0618__think", arguments: {} })) as JSONObject;
    expect(legacy.error).toMatchObject({ code: -1 });
    expect(String((legacy.error as JSONObject).message)).toContain("sampling/createMessage declined");
    // to a modern upstream mcpx declares no sampling on this client's requests; one that asks anyway
    // fails the call rather than getting an answer nobody gave
    await expect(client.callTool({ name: "r0728__think", arguments: {} })).rejects.toThrow(
      /asked for sampling \(input request q\), which mcpx did not declare on this request/,
    );
    const calls = d.scripted.r0728?.frames("tools/call") ?? [];
    expect(clientCaps(calls[0])?.sampling).toBeUndefined();
    // the CLI through the daemon cannot sample either
    const viaCli = await d.post<JSONObject>("call", { name: "r0618__think", arguments: {} });
    expect((text(viaCli.body) as JSONObject).error).toMatchObject({ code: -1 });
    // a legacy initialize is made before any client is known: sampling is declared there, since a
    // client of mcpx may sample; each request is then answered only by the client behind it
    expect(d.scripted.r0618?.frames("initialize")[0]?.params?.capabilities).toMatchObject({ sampling: {} });
    noFailures(d.scripted);
  });

  it("roots/from-config", async () => {
    const roots = [{ uri: "file:///work/project", name: "project" }, { uri: "file:///work/docs" }];
    const d = await daemonCase(
      [
        {
          name: "legacy",
          versions: ["2025-06-18"],
          tools: [tool("where")],
          handlers: { "tools/call": asks("roots/list", {}) },
        },
        {
          name: "modern",
          versions: ["2026-07-28"],
          tools: [tool("where")],
          handlers: { "tools/call": asksModern("roots/list") },
        },
      ],
      { roots },
    );
    // legacy: roots/list, outside any call and during one
    expect((await d.scripted.legacy?.request("roots/list"))?.result).toEqual({ roots });
    expect(text((await d.post<JSONObject>("call", { name: "legacy__where", arguments: {} })).body)).toEqual({
      roots,
    });
    // modern: the input request is answered from config, by mcpx, even for a modern client of mcpx
    expect(text((await d.post<JSONObject>("call", { name: "modern__where", arguments: {} })).body)).toEqual({
      roots,
    });
    const body = modernBody("tools/call", { name: "modern__where", arguments: {} });
    const res = (await (
      await post(d.url, body, mirrored("tools/call", "modern__where"))
    ).json()) as JSONObject;
    expect((res.result as JSONObject).resultType).toBe("complete");
    expect(text(res.result)).toEqual({ roots });
    // what each declared: roots in initialize, roots on every modern request
    expect(d.scripted.legacy?.frames("initialize")[0]?.params?.capabilities).toMatchObject({
      roots: { listChanged: false },
    });
    expect(clientCaps(d.scripted.modern?.frames("tools/call")[0])).toMatchObject({ roots: {} });
    noFailures(d.scripted);
  });
});
