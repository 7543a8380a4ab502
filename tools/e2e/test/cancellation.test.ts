import {
  type ElicitationHandler,
  type ElicitResult,
  type JSONObject,
  RequestCancelledError,
  RequestDeclinedError,
  RequestTimeoutError,
  type SamplingHandler,
} from "@mcpx/core";
import { NO_ANSWER } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { handlers, requirement, settings, stdioCase, TOOLS } from "../src/index.js";

describe("cancellation (legacy, stdio)", () => {
  requirement(
    [
      "2024-11-05/cancellation/legacy-notification",
      "2025-03-26/cancellation/legacy-notification",
      "2025-06-18/cancellation/legacy-notification",
      "2025-11-25/cancellation/legacy-notification",
    ],
    async (rev) => {
      const c = await stdioCase({
        versions: [rev],
        tools: TOOLS,
        handlers: { "tools/call": () => NO_ANSWER },
      });
      const client = await c.connect({ revision: rev, settings: settings({ requestTimeout: 250 }) });
      // a timeout cancels
      const timedOut = await client.callTool("echo", { text: "slow" }).catch((e) => e);
      expect(timedOut).toBeInstanceOf(RequestTimeoutError);
      const first = await c.server.waitForMethod("notifications/cancelled");
      const call1 = c.server.frames("tools/call")[0];
      expect(first.frame.params).toMatchObject({ requestId: call1?.id, reason: "timeout" });
      // and so does the caller
      const abort = new AbortController();
      const pending = client
        .callTool("echo", { text: "again" }, { signal: abort.signal, timeout: 10_000 })
        .catch((e) => e);
      await c.server.waitFor((r) => r.frame.method === "tools/call" && r.frame.id !== call1?.id);
      abort.abort("user gave up");
      expect(await pending).toBeInstanceOf(RequestCancelledError);
      await c.server.waitFor(
        (r) => r.frame.method === "notifications/cancelled" && r.frame.params?.reason === "user gave up",
      );
      const call2 = c.server.frames("tools/call")[1];
      expect(c.server.frames("notifications/cancelled").map((f) => f.params?.requestId)).toEqual([
        call1?.id,
        call2?.id,
      ]);
      expect(c.server.failures).toEqual([]);
    },
  );

  it("cancellation/late-response-ignored", async () => {
    let release: (() => void) | undefined;
    const c = await stdioCase({
      versions: ["2025-06-18"],
      tools: TOOLS,
      handlers: {
        "tools/call": () =>
          new Promise((resolve) => {
            release = () => resolve({ content: [] });
          }),
      },
    });
    const client = await c.connect({ settings: settings({ requestTimeout: 200 }) });
    expect(await client.callTool("echo", {}).catch((e) => e)).toBeInstanceOf(RequestTimeoutError);
    release?.();
    // the late answer is dropped, and the connection carries on (a CI stall is no timeout here)
    expect(await client.listTools({ timeout: 10_000 })).toHaveLength(2);
  });

  it("timeouts/progress-resets-bounded-by-max", async () => {
    const c = await stdioCase({
      versions: ["2025-06-18"],
      tools: TOOLS,
      handlers: {
        "tools/call": (req, ctx) =>
          new Promise((resolve) => {
            const token = (req.params?._meta as { progressToken?: string | number } | undefined)
              ?.progressToken;
            let n = 0;
            const tick = setInterval(() => {
              n++;
              ctx.push({
                jsonrpc: "2.0",
                method: "notifications/progress",
                params: { progressToken: token, progress: n },
              });
              if (n === 6) {
                clearInterval(tick);
                resolve({ content: [{ type: "text", text: "finished" }] });
              }
            }, 150);
          }),
      },
    });
    const client = await c.connect();
    const seen: number[] = [];
    // each step (150 ms) is well under the 600 ms timeout, the whole (900 ms) is not: progress keeps it alive
    const done = await client.callTool(
      "echo",
      {},
      { timeout: 600, onProgress: (p) => seen.push(p.progress) },
    );
    expect(done.content).toEqual([{ type: "text", text: "finished" }]);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
    // but never past the maximum total
    const capped = await client
      .callTool("echo", {}, { timeout: 600, maxTotalTimeout: 700, onProgress: () => {} })
      .catch((e) => e);
    expect(capped).toBeInstanceOf(RequestTimeoutError);
    expect(capped.message).toMatch(/maximum total of 700 ms/);
  });
});

/**
 * A handler that holds its question until it is withdrawn (or, failing that, answers after 3 s, which
 * would finish the request): records why it was withdrawn.
 */
function heldUntilWithdrawn<T>(late: T, onWithdraw: (reason: unknown) => T | Promise<T>) {
  const seen: { withdrawn?: unknown; asked: number } = { asked: 0 };
  const handle = (ctx: { signal: AbortSignal }) =>
    new Promise<T>((resolve, reject) => {
      seen.asked++;
      const done = setTimeout(() => resolve(late), 3000);
      ctx.signal.addEventListener(
        "abort",
        () => {
          clearTimeout(done);
          seen.withdrawn = ctx.signal.reason;
          Promise.resolve()
            .then(() => onWithdraw(ctx.signal.reason))
            .then(resolve, reject);
        },
        { once: true },
      );
    });
  return { seen, handle };
}

describe("the maximum total while a question is held", () => {
  // The per-request timeout waits while mcpx answers a question about the request (mcpx is the slow
  // one); the maximum total does not: the request fails at it, and the question is withdrawn.
  requirement(
    [
      "2024-11-05/cancellation/max-total-while-held",
      "2025-03-26/cancellation/max-total-while-held",
      "2025-06-18/cancellation/max-total-while-held",
      "2025-11-25/cancellation/max-total-while-held",
    ],
    async (rev) => {
      const held = heldUntilWithdrawn<JSONObject>(
        { role: "assistant", content: { type: "text", text: "too late" }, model: "m" },
        () => {
          throw new RequestDeclinedError("sampling/createMessage declined: the request it was about ended");
        },
      );
      const sampling: SamplingHandler = { name: "held", handle: (_p, ctx) => held.handle(ctx) };
      const c = await stdioCase({
        versions: [rev],
        tools: TOOLS,
        handlers: {
          "tools/call": async (_req, ctx) => {
            const answer = await ctx.server.request("sampling/createMessage", {
              messages: [{ role: "user", content: { type: "text", text: "hi" } }],
              maxTokens: 10,
            });
            return { content: [{ type: "text", text: JSON.stringify(answer.result ?? answer.error) }] };
          },
        },
      });
      const client = await c.connect({
        revision: rev,
        handlers: handlers({ sampling: [sampling] }),
        settings: settings({ requestTimeout: 200, maxTotalTimeout: 700 }),
      });
      // over stdio the question is related to the one request in flight that carries a context
      const err = await client
        .callTool("echo", { text: "x" }, { context: { caller: "test" } })
        .catch((e) => e);
      expect(err).toBeInstanceOf(RequestTimeoutError);
      expect(err.message).toMatch(/its maximum total of 700 ms/);
      expect(held.seen.asked).toBe(1);
      expect(held.seen.withdrawn).toBeInstanceOf(RequestTimeoutError);
      // the server is told: its tools/call cancelled, its question answered (declined)
      const cancelled = await c.server.waitForMethod("notifications/cancelled");
      expect(cancelled.frame.params).toMatchObject({
        requestId: c.server.frames("tools/call")[0]?.id,
        reason: "timeout",
      });
      const answer = await c.server.waitFor((r) => r.frame.method === undefined && r.frame.id === "srv-1");
      expect(answer.frame.error?.message).toMatch(/declined/);
      expect(c.server.failures).toEqual([]);
    },
  );

  it("2026-07-28/cancellation/max-total-while-held", async () => {
    const held = heldUntilWithdrawn<ElicitResult>({ action: "accept", content: { city: "Oslo" } }, () => ({
      action: "cancel",
    }));
    const form: ElicitationHandler = { name: "held", modes: ["form"], handle: (_r, ctx) => held.handle(ctx) };
    const c = await stdioCase({
      versions: ["2026-07-28"],
      tools: TOOLS,
      handlers: {
        "tools/call": (req) =>
          req.params?.inputResponses
            ? { resultType: "complete", content: [{ type: "text", text: "answered" }] }
            : {
                resultType: "input_required",
                requestState: "s1",
                inputRequests: {
                  where: {
                    method: "elicitation/create",
                    params: {
                      mode: "form",
                      message: "Which city?",
                      requestedSchema: { type: "object", properties: { city: { type: "string" } } },
                    },
                  },
                },
              },
      },
    });
    const client = await c.connect({
      handlers: handlers({ elicitation: [form] }),
      settings: settings({ requestTimeout: 200, maxTotalTimeout: 700 }),
    });
    const err = await client.callTool("echo", { text: "x" }).catch((e) => e);
    expect(err).toBeInstanceOf(RequestTimeoutError);
    expect(err.message).toMatch(/its maximum total of 700 ms/);
    expect(held.seen.asked).toBe(1);
    expect(held.seen.withdrawn).toBeInstanceOf(RequestTimeoutError);
    // the request ended without its retry: the server saw the first round only
    await new Promise((r) => setTimeout(r, 100));
    expect(c.server.frames("tools/call")).toHaveLength(1);
    expect(c.server.failures).toEqual([]);
  });
});
