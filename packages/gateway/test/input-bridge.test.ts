import { Cancellation, type JSONObject, type Result } from "@mcpx/core";
import { describe, expect, it } from "vitest";
import { InputBridge } from "../src/input-bridge.js";
import { type CallContext, type Peer, requestContext } from "../src/server/peer.js";

/** A downstream request as the transports make it (its own cancellation, given to the bridge), or with only a signal. */
function caller(authContext = "alice", own = true): CallContext & { abort: Cancellation } {
  const peer: Peer = {
    id: "p",
    // The bridge reads nothing of the revision: the dispatcher passes what a request is bound to.
    revision: undefined,
    capabilities: { elicitation: {} },
    authContext,
    notify: () => false,
  };
  const abort = new Cancellation();
  if (own)
    return Object.assign(
      requestContext(peer, abort, () => {}),
      { abort },
    );
  return { peer, signal: abort.signal, notify: () => {}, abort };
}

/** An upstream call that asks one elicitation and returns its answer (or its failure). */
function asking(seen: { ctx?: CallContext; answer?: JSONObject; aborted?: boolean }) {
  return async (_params: JSONObject, ctx: CallContext): Promise<Result> => {
    seen.ctx = ctx;
    ctx.signal.addEventListener("abort", () => {
      seen.aborted = true;
    });
    const answer = await ctx.request?.("elicitation/create", { message: "name?" });
    seen.answer = answer;
    if (ctx.signal.aborted) throw new Error("cancelled upstream");
    return { content: [{ type: "text", text: JSON.stringify(answer) }] };
  };
}

const params = { name: "t", arguments: {} };

describe("input bridge", () => {
  it("asks, takes the retry's answer, returns the call's result", async () => {
    const bridge = new InputBridge();
    const seen: { answer?: JSONObject } = {};
    const first = await bridge.run("tools/call", "name", params, caller(), asking(seen));
    expect(first).toMatchObject({
      resultType: "input_required",
      inputRequests: { q1: { method: "elicitation/create", params: { message: "name?" } } },
    });
    expect(bridge.parked).toBe(1);
    const done = await bridge.run(
      "tools/call",
      "name",
      {
        ...params,
        inputResponses: { q1: { action: "accept", content: { n: 1 } } },
        requestState: first.requestState,
      },
      caller(),
      () => Promise.reject(new Error("a retry starts nothing")),
    );
    expect(done).toEqual({ content: [{ type: "text", text: '{"action":"accept","content":{"n":1}}' }] });
    expect(bridge.parked).toBe(0);
  });

  it("a state is bound to its caller, method and name", async () => {
    const bridge = new InputBridge();
    const first = await bridge.run("tools/call", "name", params, caller(), asking({}));
    const state = first.requestState;
    const never = () => Promise.reject(new Error("never"));
    for (const [method, p, who] of [
      ["tools/call", { ...params, requestState: state }, caller("mallory")],
      ["prompts/get", { ...params, requestState: state }, caller()],
      ["tools/call", { name: "other", requestState: state }, caller()],
    ] as const) {
      await expect(bridge.run(method, "name", p, who, never)).rejects.toThrow(
        /requestState is not one mcpx issued/,
      );
    }
    // still good for the right caller
    expect(bridge.parked).toBe(1);
    bridge.close();
  });

  it("an expired state cancels the upstream call; the question is answered cancel", async () => {
    const bridge = new InputBridge({ ttlMs: 30 });
    const seen: { answer?: JSONObject; aborted?: boolean } = {};
    const first = await bridge.run("tools/call", "name", params, caller(), asking(seen));
    await expect.poll(() => seen.aborted).toBe(true);
    expect(seen.answer).toEqual({ action: "cancel" });
    expect(bridge.parked).toBe(0);
    await expect(
      bridge.run("tools/call", "name", { ...params, requestState: first.requestState }, caller(), asking({})),
    ).rejects.toThrow(/or it expired/);
  });

  it("the client cancelling the request that waits cancels the upstream call", async () => {
    const bridge = new InputBridge();
    const seen: { aborted?: boolean } = {};
    let release: (r: Result) => void = () => {};
    const first = await bridge.run("tools/call", "name", params, caller(), async (p, ctx) => {
      await asking(seen)(p, ctx);
      return new Promise<Result>((resolve) => {
        release = resolve;
        ctx.signal.addEventListener("abort", () => resolve({ cancelled: true }));
      });
    });
    const retrying = caller();
    const waiting = bridge.run(
      "tools/call",
      "name",
      { ...params, inputResponses: { q1: { action: "decline" } }, requestState: first.requestState },
      retrying,
      () => Promise.reject(new Error("never")),
    );
    await new Promise((r) => setTimeout(r, 10));
    retrying.abort.abort();
    expect(await waiting).toEqual({ cancelled: true });
    expect(seen.aborted).toBe(true);
    release({});
  });

  it("the first request's own controller is the call's: closing it cancels the upstream call", async () => {
    const bridge = new InputBridge();
    const first = caller();
    const upstream: { signal?: AbortSignal; answer?: unknown } = {};
    const running = bridge.run("tools/call", "name", params, first, async (_p, ctx) => {
      upstream.signal = ctx.signal;
      await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
      // A question after the close reaches nobody.
      upstream.answer = await ctx
        .request?.("elicitation/create", { message: "late?" })
        .catch((e: Error) => e.message);
      return { content: [] };
    });
    await new Promise((r) => setTimeout(r, 5));
    // The first request's own: the call made no second one.
    expect(upstream.signal).toBe(first.abort.signal);
    first.abort.abort("the client closed the response stream");
    expect(await running).toEqual({ content: [] });
    expect(upstream.answer).toMatch(/the call ended/);
    expect(bridge.parked).toBe(0);
  });

  it("a question asked as the first request closes is answered cancel, and nothing is parked", async () => {
    const bridge = new InputBridge();
    const first = caller();
    const result = await bridge.run("tools/call", "name", params, first, async (_p, ctx) => {
      const asked = ctx.request?.("elicitation/create", { message: "name?" });
      first.abort.abort("the client closed the response stream");
      return { content: [{ type: "text", text: JSON.stringify(await asked) }] };
    });
    expect(result).toEqual({ content: [{ type: "text", text: '{"action":"cancel"}' }] });
    expect(bridge.parked).toBe(0);
  });

  it("without a controller of the request's own, the call has its own and listens", async () => {
    const bridge = new InputBridge();
    const first = caller("alice", false);
    const seen: { signal?: AbortSignal; aborted?: boolean } = {};
    const running = bridge.run("tools/call", "name", params, first, async (_p, ctx) => {
      seen.signal = ctx.signal;
      await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
      seen.aborted = true;
      return { content: [] };
    });
    await new Promise((r) => setTimeout(r, 5));
    expect(seen.signal).not.toBe(first.abort.signal);
    first.abort.abort();
    expect(await running).toEqual({ content: [] });
    expect(seen.aborted).toBe(true);
  });
});
