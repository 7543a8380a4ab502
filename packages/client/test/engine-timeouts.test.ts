import {
  DEFAULT_UPSTREAM_SETTINGS,
  type JSONRPCMessage,
  RequestTimeoutError,
  type Revision,
  silentLogger,
  type Transport,
} from "@mcpx/core";
import { createHost } from "@mcpx/host";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RequestEngine } from "../src/engine.js";

/** An engine over a transport that swallows every frame, with a revision that shapes nothing. */
function engine(): { engine: RequestEngine; sent: JSONRPCMessage[] } {
  const sent: JSONRPCMessage[] = [];
  const transport: Transport = {
    kind: "stdio",
    open: async () => {},
    send: async (msg) => {
      sent.push(msg);
    },
    negotiated: () => {},
    close: async () => {},
  };
  const revision = {
    shapeRequest: (m: unknown) => m,
    cancel: () => "notify",
  } as unknown as Revision;
  const e = new RequestEngine(
    {
      upstream: "fake",
      transport,
      hooks: createHost({ log: silentLogger }).hooks,
      log: silentLogger,
      settings: { ...DEFAULT_UPSTREAM_SETTINGS },
    },
    { version: "2025-06-18" } as never,
  );
  e.revision = revision;
  return { engine: e, sent };
}

describe("request timeouts (engine)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  // Only the timers are faked: Date.now() keeps real time, so the timer fires "early" by the clock,
  // as a real timer can by a millisecond. The error must still say which deadline ended the request.
  it("timeouts/max-total-named-even-when-the-timer-fires-early", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { engine: e, sent } = engine();
    const capped = e
      .request("tools/call", { name: "slow" }, { timeout: 800, maxTotalTimeout: 700 })
      .catch((x) => x);
    const plain = e
      .request("tools/call", { name: "slow" }, { timeout: 500, maxTotalTimeout: 700 })
      .catch((x) => x);
    await vi.advanceTimersByTimeAsync(700);
    const [c, p] = await Promise.all([capped, plain]);
    expect(c).toBeInstanceOf(RequestTimeoutError);
    expect(c.message).toMatch(/its maximum total of 700 ms/);
    expect(p).toBeInstanceOf(RequestTimeoutError);
    expect(p.message).not.toMatch(/maximum total/);
    // both were cancelled by the revision's rule
    const cancelled = sent.filter((m) => "method" in m && m.method === "notifications/cancelled");
    expect(cancelled).toHaveLength(2);
  });

  it("timeouts/held-request-waits-past-its-timeout-but-not-its-max-total", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const { engine: e, sent } = engine();
    const failed = e
      .request("tools/call", { name: "asks" }, { timeout: 100, maxTotalTimeout: 1000, context: "caller" })
      .catch((x) => x);
    // a question of the server's about the request is being answered: its clock is held
    const withdrawn: Error[] = [];
    const release = e.relatedTo(undefined)?.hold((reason) => withdrawn.push(reason));
    expect(release).toBeDefined();
    await vi.advanceTimersByTimeAsync(900);
    expect(e.pendingCount).toBe(1);
    // at the maximum total the request fails, is cancelled, and the question is withdrawn
    await vi.advanceTimersByTimeAsync(100);
    const err = await failed;
    expect(err).toBeInstanceOf(RequestTimeoutError);
    expect(err.message).toMatch(/after 1000 ms \(its maximum total of 1000 ms\)/);
    expect(withdrawn).toEqual([err]);
    expect(sent.filter((m) => "method" in m && m.method === "notifications/cancelled")).toHaveLength(1);
    release?.();
    expect(e.pendingCount).toBe(0);
  });
});
