/**
 * An elicitation crossing replicas: two daemons (`serve`, the whole daemon path: config, the Redis
 * store, the broker plugin) on one real Redis. An upstream of replica A asks a question during a
 * call made on A; `mcpx elicit list` against replica B shows it, `mcpx elicit answer` on B answers
 * it, and the answer reaches the upstream through A.
 */
import type { JSONObject } from "@mcpx/core";
import type { Handler } from "@mcpx/testkit";
import { type RunningRedis, startRedis } from "@mcpx/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DaemonUpstream, daemonCase } from "../src/index.js";

let redis: RunningRedis;
beforeAll(async () => {
  redis = await startRedis();
}, 30_000);
afterAll(() => redis?.stop());

const ask = { name: "ask", description: "asks", inputSchema: { type: "object", properties: {} } };
const form = {
  mode: "form",
  message: "Who are you?",
  requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
};

/** A 2025-11-25 tool that asks its client (mcpx) with elicitation/create and returns the answer. */
const legacyAsk: Handler = async (_req, ctx) => {
  const answer = await ctx.server.request("elicitation/create", form, { push: ctx.push });
  return { content: [{ type: "text", text: JSON.stringify(answer.result ?? answer.error) }] };
};

const upstream = (): DaemonUpstream => ({
  name: "up",
  versions: ["2025-11-25"],
  tools: [ask],
  handlers: { "tools/call": legacyAsk },
});

describe("elicitation across replicas (two daemons on one Redis)", () => {
  it("replicas/elicitation-queued-on-one-answered-from-the-other", async () => {
    const store = { type: "redis", url: redis.url, prefix: "elicit-across" };
    const a = await daemonCase([upstream()], { store, replica: { id: "replica-a" } });
    const b = await daemonCase([upstream()], { store, replica: { id: "replica-b" } });
    // Someone watches on B only: the question asked on A is held, not cancelled at once.
    await b.watch();
    const call = a.post<JSONObject>("call", { name: "up__ask", arguments: {} });
    const [pending] = await b.pending();
    expect(pending).toMatchObject({
      upstream: "up",
      mode: "form",
      message: "Who are you?",
      state: "pending",
    });
    const id = String(pending?.id);
    const list = await b.cli("elicit", "list");
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(`  ${id}  form  from up, during tools/call`);
    const answered = await b.cli("elicit", "answer", id, "--field", "name=Ada");
    expect(answered).toMatchObject({ code: 0, stdout: `answered ${id}: accept {"name":"Ada"}\n` });
    const result = await call;
    expect(result.status).toBe(200);
    const content = result.body.content as { text: string }[];
    expect(JSON.parse(content[0]?.text ?? "null")).toEqual({ action: "accept", content: { name: "Ada" } });
    // Settled: neither replica lists it any more.
    expect((await a.get<{ pending: JSONObject[] }>("elicitations")).pending).toEqual([]);
    expect((await b.get<{ pending: JSONObject[] }>("elicitations")).pending).toEqual([]);
    expect(a.scripted.up?.failures).toEqual([]);
    expect(b.scripted.up?.failures).toEqual([]);
  });
});
