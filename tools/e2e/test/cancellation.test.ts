import { RequestCancelledError, RequestTimeoutError } from "@mcpx/core";
import { NO_ANSWER } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { requirement, settings, stdioCase, TOOLS } from "../src/index.js";

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
