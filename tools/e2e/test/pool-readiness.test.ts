/**
 * The pool's readiness and stop, in process: what depends on the upstreams waits for each one's
 * first connection attempt and for nothing after it (a dead upstream's retries are not waited for);
 * stop ends the attempts in flight, closing their transports.
 */
import type { ServerConfig } from "@mcpx/config";
import { Gateway } from "@mcpx/gateway";
import { NO_ANSWER, ScriptedServer, stdioScript } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import {
  afterThisTest,
  handlers,
  scriptedGateway,
  settings,
  stdioClient,
  testHost,
  until,
} from "../src/index.js";

const echo = { name: "echo", inputSchema: { type: "object" } };

describe("pool readiness", () => {
  it("pool/readiness-waits-for-first-attempts-then-costs-nothing", async () => {
    const { gateway } = await scriptedGateway(
      [
        { name: "a", versions: ["2025-06-18"], tools: [echo] },
        { name: "b", versions: ["2025-11-25"], tools: [echo] },
      ],
      { noWait: true },
    );
    const ready = gateway.pool.ready();
    expect(ready).toBeInstanceOf(Promise);
    await ready;
    expect(gateway.pool.states().map((s) => s.status)).toEqual(["connected", "connected"]);
    // From now on a field read: no promise, nothing awaited per call.
    expect(gateway.pool.ready()).toBeUndefined();
    expect(gateway.pool.readyFor("a")).toBeUndefined();
  });

  it("pool/retries-of-a-dead-upstream-are-not-waited-for", async () => {
    const { gateway, host } = await scriptedGateway(
      [
        { name: "broken", versions: ["2025-06-18"], answerVersion: "1999-01-01" },
        { name: "fine", versions: ["2025-06-18"], tools: [echo] },
      ],
      { reconnect: { initialMs: 40, maxMs: 160 }, noWait: true },
    );
    await gateway.pool.ready();
    expect(host.events.some((e) => e.type === "upstream.failed" && e.upstream === "broken")).toBe(true);
    // It keeps failing and trying again; nothing waits for that.
    await until(() => host.events.filter((e) => e.type === "upstream.failed").length >= 3);
    expect(gateway.pool.ready()).toBeUndefined();
    const c = stdioClient(gateway);
    await c.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
    });
    const list = (await c.request("tools/list")).result as { tools: { name: string }[] };
    expect(list.tools.map((t) => t.name)).toEqual(["fine__echo"]);
  });

  it("pool/stop-ends-a-connection-attempt-in-flight", async () => {
    const host = await testHost();
    // It never answers initialize; the handshake would wait a minute.
    const script = await stdioScript(
      new ScriptedServer({
        versions: ["2025-06-18"],
        tools: [echo],
        handlers: { initialize: () => NO_ANSWER },
      }),
    );
    afterThisTest(() => script.close());
    const server: ServerConfig = {
      kind: "command",
      name: "hung",
      namespace: "hung",
      namespacing: true,
      disabled: false,
      command: script.command,
      args: script.args,
      env: {},
      tools: {},
      settings: settings({ handshakeTimeout: 60_000, probeTimeout: 500, closeGrace: 300 }),
    };
    const gateway = new Gateway({ servers: [server], env: host, handlers: handlers({}), reconnect: false });
    gateway.start();
    afterThisTest(() => gateway.stop());
    await script.connected();
    await until(() => script.server.frames().some((f) => f.method === "initialize"));
    let ended = false;
    void script.eof().then(() => {
      ended = true;
    });
    await gateway.stop();
    // Its stdin was closed by the stop (not by a handshake timeout a minute later).
    await until(() => ended);
    expect(gateway.pool.states()[0]?.status).toBe("stopped");
    // Ended by mcpx, not failed: no failure is published for it.
    expect(host.events.filter((e) => e.type === "upstream.failed")).toEqual([]);
  });
});
