import { NO_ANSWER } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { scriptedGateway, stdioClient, until } from "../src/index.js";

const echo = { name: "echo", inputSchema: { type: "object" } };

describe("the pool", () => {
  it("pool/dead-child-restarted", async () => {
    const { gateway, host, scripts, scripted } = await scriptedGateway(
      [{ name: "a", versions: ["2025-06-18"], tools: [echo] }],
      {
        reconnect: { initialMs: 50, maxMs: 200 },
      },
    );
    expect(gateway.pool.states()[0]).toMatchObject({ status: "connected" });
    scripts.a?.exit(1);
    // the drop is published, then the child started again and connected
    await until(() => host.events.some((e) => e.type === "upstream.disconnected"));
    await until(() => scripts.a?.connections === 2 && gateway.pool.states()[0]?.status === "connected");
    const kinds = host.events.filter((e) => e.type.startsWith("upstream.")).map((e) => e.type);
    expect(kinds).toEqual([
      "upstream.connecting",
      "upstream.connected",
      "upstream.disconnected",
      "upstream.connecting",
      "upstream.connected",
    ]);
    expect(host.events.find((e) => e.type === "upstream.disconnected")).toMatchObject({
      upstream: "a",
      reason: expect.stringContaining("exited with code 1"),
    });
    // and it serves again
    const c = stdioClient(gateway);
    await c.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
    });
    c.send({ method: "notifications/initialized" });
    const list = (await c.request("tools/list")).result as { tools: { name: string }[] };
    expect(list.tools.map((t) => t.name)).toEqual(["a__echo"]);
    expect(scripted.a?.failures).toEqual([]);
  });

  it("pool/backoff-capped-with-jitter", async () => {
    const { gateway, host } = await scriptedGateway(
      [{ name: "broken", versions: ["2025-06-18"], answerVersion: "1999-01-01" }],
      { reconnect: { initialMs: 40, maxMs: 160 }, noWait: true },
    );
    await until(() => host.events.filter((e) => e.type === "upstream.failed").length >= 5);
    const delays = host.events.flatMap((e) =>
      e.type === "upstream.failed" && e.retryInMs !== undefined ? [e.retryInMs] : [],
    );
    // each wait is between half and all of min(max, initial·2^(attempt−1)): growing, then capped
    delays.slice(0, 5).forEach((d, i) => {
      const ceiling = Math.min(160, 40 * 2 ** i);
      expect(d).toBeGreaterThanOrEqual(ceiling / 2);
      expect(d).toBeLessThanOrEqual(ceiling);
    });
    expect(gateway.pool.states()[0]?.status).not.toBe("connected");
  });

  it("pool/reconnect-now-resets-the-backoff", async () => {
    // A backoff long enough that nothing but reconnect() starts an attempt during the test.
    const { gateway, host, scripts } = await scriptedGateway(
      [
        { name: "broken", versions: ["2025-06-18"], answerVersion: "1999-01-01" },
        { name: "ok", versions: ["2025-06-18"], tools: [echo] },
      ],
      { reconnect: { initialMs: 20_000, maxMs: 600_000 } },
    );
    const failures = () => host.events.filter((e) => e.type === "upstream.failed" && e.upstream === "broken");
    expect(failures()).toHaveLength(1);
    for (let i = 2; i <= 3; i++) {
      const state = await gateway.pool.reconnect("broken");
      // Tried again at once, counted from the start: the wait after it is the first one's, not doubled.
      expect(state).toMatchObject({ name: "broken", status: "failed", attempts: 1 });
      expect(failures()).toHaveLength(i);
      const last = failures().at(-1);
      const retry = last?.type === "upstream.failed" ? Number(last.retryInMs) : Number.NaN;
      expect(retry).toBeGreaterThanOrEqual(10_000);
      expect(retry).toBeLessThanOrEqual(20_000);
    }
    expect(scripts.broken?.connections).toBe(3);
    // A connected upstream is closed and connected again; an unknown name is no upstream.
    const ok = await gateway.pool.reconnect("ok");
    expect(ok).toMatchObject({ status: "connected", attempts: 0 });
    expect(scripts.ok?.connections).toBe(2);
    expect(gateway.pool.client("ok")).toBeDefined();
    expect(await gateway.pool.reconnect("nope")).toBeUndefined();
  });

  it("pool/slow-upstream-never-blocks-the-others", async () => {
    const { gateway } = await scriptedGateway(
      [
        { name: "slow", versions: ["2025-06-18"], tools: [echo], handlers: { initialize: () => NO_ANSWER } },
        { name: "fast", versions: ["2025-06-18"], tools: [echo] },
      ],
      { noWait: true },
    );
    await until(() => gateway.pool.states().find((s) => s.name === "fast")?.status === "connected");
    expect(gateway.pool.states().find((s) => s.name === "slow")?.status).toBe("connecting");
    const c = stdioClient(gateway);
    await c.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
    });
    const list = (await c.request("tools/list")).result as { tools: { name: string }[] };
    expect(list.tools.map((t) => t.name)).toEqual(["fast__echo"]);
  });
});
