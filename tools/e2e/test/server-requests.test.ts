import type { ElicitationHandler } from "@mcpx/core";
import { describe, expect, it } from "vitest";
import { handlers, requirement, stdioCase, TOOLS } from "../src/index.js";

describe("server requests (legacy, stdio)", () => {
  requirement(
    [
      "2024-11-05/server-requests/raw-ids",
      "2025-03-26/server-requests/raw-ids",
      "2025-06-18/server-requests/raw-ids",
      "2025-11-25/server-requests/raw-ids",
    ],
    async (rev) => {
      const c = await stdioCase({ versions: [rev] });
      await c.connect({
        revision: rev,
        handlers: handlers({ roots: () => [{ uri: "file:///work", name: "work" }] }),
      });
      const byString = await c.server.request("roots/list", undefined, { id: "abc-7" });
      expect(byString).toEqual({
        jsonrpc: "2.0",
        id: "abc-7",
        result: { roots: [{ uri: "file:///work", name: "work" }] },
      });
      const numericString = await c.server.request("ping", undefined, { id: "42" });
      expect(numericString).toEqual({ jsonrpc: "2.0", id: "42", result: {} });
      const byNumber = await c.server.request("ping", undefined, { id: 0 });
      expect(byNumber).toEqual({ jsonrpc: "2.0", id: 0, result: {} });
      expect(c.server.failures).toEqual([]);
    },
  );

  it("2025-03-26/server-requests/batches", async () => {
    const c = await stdioCase({ versions: ["2025-03-26"], tools: TOOLS });
    const client = await c.connect({ handlers: handlers({ roots: () => [{ uri: "file:///r" }] }) });
    const changed: string[] = [];
    client.onNotification("notifications/tools/list_changed", (_p, m) => changed.push(m));
    const answered = c.server.waitFor((r) => r.frame.id === "b2");
    const answered2 = c.server.waitFor((r) => r.frame.id === 9);
    c.script.sendRaw(
      JSON.stringify([
        { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
        { jsonrpc: "2.0", id: "b2", method: "ping" },
        { jsonrpc: "2.0", id: 9, method: "roots/list" },
      ]),
    );
    expect((await answered).frame).toEqual({ jsonrpc: "2.0", id: "b2", result: {} });
    expect((await answered2).frame).toEqual({
      jsonrpc: "2.0",
      id: 9,
      result: { roots: [{ uri: "file:///r" }] },
    });
    expect(changed).toEqual(["notifications/tools/list_changed"]);
    expect(c.server.failures).toEqual([]);
  });

  it("server-requests/unknown-method", async () => {
    const c = await stdioCase({ versions: ["2025-06-18"] });
    await c.connect();
    const answer = await c.server.request("sampling/createMessage", { messages: [], maxTokens: 5 });
    expect(answer.error).toEqual({
      code: -32601,
      message: "sampling/createMessage: mcpx did not declare sampling",
    });
    const other = await c.server.request("bogus/thing");
    expect(other.error?.code).toBe(-32601);
  });

  it("server-requests/malformed-line-skipped", async () => {
    const c = await stdioCase({ versions: ["2025-06-18"], tools: TOOLS });
    const client = await c.connect();
    c.script.sendRaw("{this is not json");
    c.script.sendRaw('{"jsonrpc":"1.0","method":5}');
    // the lines after a bad one are still read
    expect(await client.listTools()).toHaveLength(2);
  });

  it("server-requests/sampling-with-handler", async () => {
    const c = await stdioCase({ versions: ["2025-06-18"] });
    await c.connect({
      handlers: handlers({
        sampling: [
          {
            name: "test",
            handle: async (params) => ({
              role: "assistant",
              content: { type: "text", text: `saw ${JSON.stringify(params.messages)}` },
              model: "m",
            }),
          },
        ],
      }),
    });
    expect(c.server.frames("initialize")[0]?.params?.capabilities).toMatchObject({ sampling: {} });
    const answer = await c.server.request("sampling/createMessage", {
      messages: [{ role: "user", content: { type: "text", text: "hi" } }],
      maxTokens: 5,
    });
    expect(answer.result).toMatchObject({ role: "assistant", model: "m" });
    expect(c.server.failures).toEqual([]);
  });

  it("server-requests/cancelled-by-server", async () => {
    let aborted = false;
    const slow: ElicitationHandler = {
      name: "slow",
      modes: ["form"],
      handle: (_req, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener("abort", () => {
            aborted = true;
            resolve({ action: "cancel" });
          });
        }),
    };
    const c = await stdioCase({ versions: ["2025-06-18"] });
    await c.connect({ handlers: handlers({ elicitation: [slow] }) });
    void c.server.request(
      "elicitation/create",
      { message: "?", requestedSchema: { type: "object", properties: {} } },
      { id: "e1" },
    );
    await new Promise((r) => setTimeout(r, 100));
    c.server.notify("notifications/cancelled", { requestId: "e1" });
    await new Promise((r) => setTimeout(r, 100));
    expect(aborted).toBe(true);
    // a withdrawn request gets no answer
    expect(c.server.received.filter((r) => r.frame.id === "e1")).toEqual([]);
  });
});
