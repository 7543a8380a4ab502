/**
 * A modern upstream's input_required, relayed: its questions reach mcpx's client together, in one
 * round, under the upstream's own keys; roots/list goes to a caller that declared roots (the config's
 * roots answer the rest); and the answers a modern client sends with a first request go on to a
 * modern upstream, whose keys they are. Against a real daemon in front of scripted upstreams.
 */
import type { JSONObject } from "@mcpx/core";
import type { Handler, ScriptedServer } from "@mcpx/testkit";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { afterThisTest, daemonCase } from "../src/index.js";
import { mirrored, modernBody, post } from "./gateway-http.helpers.js";

const tool = (name: string) => ({ name, inputSchema: { type: "object", properties: {} } });

const nameForm = {
  message: "What is your name?",
  requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
};
const greeting = {
  messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }],
  maxTokens: 50,
};
const QUESTIONS: JSONObject = {
  user_name: { method: "elicitation/create", params: { mode: "form", ...nameForm } },
  greeting: { method: "sampling/createMessage", params: greeting },
  client_roots: { method: "roots/list", params: {} },
};

/** Asks the three questions at once until a retry answers them all, then returns the answers. */
const asksThree: Handler = (req) => {
  const responses = (req.params?.inputResponses ?? {}) as JSONObject;
  const missing = Object.keys(QUESTIONS).filter((k) => responses[k] === undefined);
  if (missing.length > 0) {
    return {
      resultType: "input_required",
      inputRequests: Object.fromEntries(missing.map((k) => [k, QUESTIONS[k]])),
    };
  }
  return { resultType: "complete", content: [{ type: "text", text: JSON.stringify(responses) }] };
};

function text(result: unknown): JSONObject {
  const content = (result as { content?: { text: string }[] }).content;
  return JSON.parse(content?.[0]?.text ?? "null") as JSONObject;
}

function noFailures(scripted: Record<string, ScriptedServer>): void {
  for (const [name, s] of Object.entries(scripted)) expect(s.failures, name).toEqual([]);
}

const everything = { sampling: {}, elicitation: {}, roots: {} };
const roots = [{ uri: "file:///client/workspace", name: "workspace" }];
const configRoots = [{ uri: "file:///config/root" }];
const sampled = { role: "assistant", content: { type: "text", text: "Hello!" }, model: "m" };

describe("input_required relayed round by round", () => {
  it("forwarding/modern-client-gets-the-upstream-keys-in-one-round", async () => {
    const d = await daemonCase(
      [
        {
          name: "m",
          versions: ["2026-07-28"],
          tools: [tool("three")],
          handlers: { "tools/call": asksThree },
        },
      ],
      { roots: configRoots },
    );
    const call = async (extra: JSONObject = {}) => {
      const body = modernBody("tools/call", {
        name: "m__three",
        arguments: {},
        ...extra,
        _meta: { "io.modelcontextprotocol/clientCapabilities": everything },
      });
      return ((await (await post(d.url, body, mirrored("tools/call", "m__three"))).json()) as JSONObject)
        .result as JSONObject;
    };
    // one round, all three questions, each under the key the upstream gave it
    const first = await call();
    expect(first.resultType).toBe("input_required");
    expect(first.inputRequests).toEqual({
      user_name: { method: "elicitation/create", params: { mode: "form", ...nameForm } },
      greeting: { method: "sampling/createMessage", params: greeting },
      client_roots: { method: "roots/list", params: {} },
    });
    // the retry answers them by those keys; the upstream gets the answers under its keys
    const done = await call({
      inputResponses: {
        user_name: { action: "accept", content: { name: "Alice" } },
        greeting: sampled,
        client_roots: { roots },
      },
      requestState: first.requestState,
    });
    expect(done.resultType).toBe("complete");
    expect(text(done)).toEqual({
      user_name: { action: "accept", content: { name: "Alice" } },
      greeting: sampled,
      client_roots: { roots },
    });
    noFailures(d.scripted);
  });

  it("forwarding/upstream-keys-named-like-prototype-members-kept", async () => {
    // Keys an upstream chose: "__proto__" must stay a key (assigned, it would set a prototype and
    // vanish), and a client's answer under "constructor" must be its own, not Object.prototype's.
    const odd = Object.fromEntries([
      ["__proto__", QUESTIONS.user_name],
      ["constructor", QUESTIONS.greeting],
    ]) as JSONObject;
    const asksOdd: Handler = (req) => {
      const responses = (req.params?.inputResponses ?? {}) as JSONObject;
      if (!Object.hasOwn(responses, "__proto__") || !Object.hasOwn(responses, "constructor"))
        return { resultType: "input_required", inputRequests: odd };
      return { resultType: "complete", content: [{ type: "text", text: JSON.stringify(responses) }] };
    };
    const d = await daemonCase([
      { name: "m", versions: ["2026-07-28"], tools: [tool("odd")], handlers: { "tools/call": asksOdd } },
    ]);
    const call = async (extra = "") => {
      const body = modernBody("tools/call", {
        name: "m__odd",
        arguments: {},
        _meta: { "io.modelcontextprotocol/clientCapabilities": everything },
      });
      // Spliced in as text: an object literal's "__proto__" would not be a key.
      const raw = extra ? JSON.stringify(body).replace('"arguments":{}', `"arguments":{},${extra}`) : body;
      const res = await post(d.url, raw, mirrored("tools/call", "m__odd"));
      return ((await res.json()) as JSONObject).result as JSONObject;
    };
    const first = await call();
    expect(first.resultType).toBe("input_required");
    expect(Object.keys(first.inputRequests as JSONObject).sort()).toEqual(["__proto__", "constructor"]);
    expect(first.inputRequests).toEqual(odd);
    const answers = `{"__proto__":{"action":"accept","content":{"name":"Alice"}},"constructor":${JSON.stringify(sampled)}}`;
    const done = await call(
      `"inputResponses":${answers},"requestState":${JSON.stringify(first.requestState)}`,
    );
    expect(done.resultType).toBe("complete");
    expect(text(done)).toEqual(JSON.parse(answers));
    noFailures(d.scripted);
  });

  it("forwarding/roots-from-the-caller", async () => {
    const d = await daemonCase(
      [
        {
          name: "legacy",
          versions: ["2025-06-18"],
          tools: [tool("where")],
          handlers: {
            "tools/call": async (_req, ctx) => {
              const answer = await ctx.server.request("roots/list", {}, { push: ctx.push });
              return { content: [{ type: "text", text: JSON.stringify(answer.result ?? answer.error) }] };
            },
          },
        },
        {
          name: "m",
          versions: ["2026-07-28"],
          tools: [tool("three")],
          handlers: { "tools/call": asksThree },
        },
      ],
      { roots: configRoots },
    );
    // a legacy client (the official SDK v1) that declared roots is asked for its own, for either
    // upstream: a legacy upstream's roots/list request and a modern upstream's input request alike
    const client = new Client({ name: "sdk-v1", version: "1.0.0" }, { capabilities: everything });
    const asked: string[] = [];
    client.setRequestHandler(ListRootsRequestSchema, () => {
      asked.push("roots");
      return { roots };
    });
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { name: "Bob" } }));
    client.setRequestHandler(CreateMessageRequestSchema, () => sampled);
    await client.connect(new StreamableHTTPClientTransport(new URL(d.url)));
    afterThisTest(() => client.close());
    expect(text(await client.callTool({ name: "legacy__where", arguments: {} }))).toEqual({ roots });
    const three = text(await client.callTool({ name: "m__three", arguments: {} }));
    expect(three.client_roots).toEqual({ roots });
    expect(asked).toEqual(["roots", "roots"]);
    // a caller that declared no roots (the CLI through the daemon): the config's roots answer
    expect(text((await d.post<JSONObject>("call", { name: "legacy__where", arguments: {} })).body)).toEqual({
      roots: configRoots,
    });
    noFailures(d.scripted);
  });

  it("forwarding/unsolicited-answers-to-a-modern-upstream", async () => {
    const d = await daemonCase([
      { name: "m", versions: ["2026-07-28"], tools: [tool("three")], handlers: { "tools/call": asksThree } },
      {
        name: "legacy",
        versions: ["2025-11-25"],
        tools: [tool("plain")],
        handlers: { "tools/call": () => ({ content: [{ type: "text", text: "{}" }] }) },
      },
    ]);
    const answers = {
      user_name: { action: "accept", content: { name: "Carol" } },
      greeting: sampled,
      client_roots: { roots },
      extra: { action: "accept", content: {} },
    };
    const call = async (name: string) => {
      const body = modernBody("tools/call", {
        name,
        arguments: {},
        inputResponses: answers,
        _meta: { "io.modelcontextprotocol/clientCapabilities": everything },
      });
      return ((await (await post(d.url, body, mirrored("tools/call", name))).json()) as JSONObject)
        .result as JSONObject;
    };
    // a first request's own answers reach the modern upstream as they were sent: it completes at once
    const done = await call("m__three");
    expect(done.resultType).toBe("complete");
    expect(d.scripted.m?.frames("tools/call")[0]?.params?.inputResponses).toEqual(answers);
    // a legacy upstream has no inputResponses: they never reach it
    await call("legacy__plain");
    expect(d.scripted.legacy?.frames("tools/call")[0]?.params?.inputResponses).toBeUndefined();
    noFailures(d.scripted);
  });

  it("2026-07-28/forwarding/malformed-answers-refused-before-the-upstream", async () => {
    const d = await daemonCase([
      { name: "m", versions: ["2026-07-28"], tools: [tool("three")], handlers: { "tools/call": asksThree } },
    ]);
    const call = async (inputResponses: unknown) => {
      const body = modernBody("tools/call", {
        name: "m__three",
        arguments: {},
        inputResponses: inputResponses as JSONObject,
        _meta: { "io.modelcontextprotocol/clientCapabilities": everything },
      });
      const res = await post(d.url, body, mirrored("tools/call", "m__three"));
      return { status: res.status, body: (await res.json()) as JSONObject };
    };
    // an answer that is no object, or no map of answers at all: -32602 naming what was wrong
    for (const [given, named] of [
      [
        { user_name: 12345 },
        "params.inputResponses.user_name must be an object (the answer to that input request), not a number",
      ],
      [
        { user_name: null },
        "params.inputResponses.user_name must be an object (the answer to that input request), not null",
      ],
      [null, "params.inputResponses must be an object of answers keyed as the input requests were, not null"],
      [
        ["a"],
        "params.inputResponses must be an object of answers keyed as the input requests were, not an array",
      ],
    ] as const) {
      const { body } = await call(given);
      const error = body.error as JSONObject | undefined;
      expect(error?.code, JSON.stringify(given)).toBe(-32602);
      expect(String(error?.message)).toContain(named);
    }
    // none of them reached the upstream
    expect(d.scripted.m?.frames("tools/call")).toEqual([]);
    // well-formed answers still go on
    const ok = await call({ user_name: { action: "accept", content: { name: "Dan" } } });
    expect((ok.body.result as JSONObject).resultType).toBe("input_required");
    expect(d.scripted.m?.frames("tools/call")).toHaveLength(1);
    noFailures(d.scripted);
  });
});
