/**
 * mcpx's own features that a typed hook exists for are taps of that hook (as webpack applies its
 * built-ins as plugins), so a third party's tap on the same hook sees exactly what they see: the
 * event stream is a `lifecycle` tap, the status's era an `eraResolved` tap, and the `server.warning`,
 * `era.resolved` and `request.timedOut` events are taps of `serverWarning`, `eraResolved` and
 * `requestTimedOut`. Over a real gateway: two stdio upstreams, one listing a tool mcpx leaves out,
 * one call that times out.
 */
import type { ServerConfig } from "@mcpx/config";
import {
  type EraRecord,
  type LifecycleEvent,
  RequestTimeoutError,
  type ServerWarning,
  type TimedOutRequest,
} from "@mcpx/core";
import { Gateway, type NumberedEvent } from "@mcpx/gateway";
import { NO_ANSWER, ScriptedServer, stdioScript } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { afterThisTest, handlers, settings, testHost } from "../src/index.js";

const echo = { name: "echo", inputSchema: { type: "object" } };
const slow = { name: "slow", inputSchema: { type: "object" } };

async function upstream(name: string, version: string): Promise<ServerConfig> {
  const script = await stdioScript(
    new ScriptedServer({
      versions: [version],
      // a tool without its inputSchema is left out with a warning
      tools: [echo, slow, { name: "no-schema" }],
      handlers: { "tools/call": () => NO_ANSWER },
    }),
  );
  afterThisTest(() => script.close());
  return {
    kind: "command",
    name,
    namespace: name,
    namespacing: true,
    disabled: false,
    command: script.command,
    args: script.args,
    env: {},
    tools: {},
    settings: settings({ closeGrace: 300 }),
  };
}

/** A gateway whose host carries a third party's taps, made before it; one warning and one timeout. */
async function scenario() {
  const host = await testHost();
  const eras: { upstream: string; era: EraRecord; cached: boolean }[] = [];
  const warnings: ServerWarning[] = [];
  const timeouts: TimedOutRequest[] = [];
  host.hooks.eraResolved.tap("third-party", (upstream, era, cached) => eras.push({ upstream, era, cached }));
  host.hooks.serverWarning.tap("third-party", (w) => warnings.push(w));
  host.hooks.requestTimedOut.tap("third-party", (r) => timeouts.push(r));
  const servers = [await upstream("a", "2025-06-18"), await upstream("b", "2025-11-25")];
  const gateway = new Gateway({ servers, env: host, handlers: handlers({}), reconnect: false });
  gateway.start();
  afterThisTest(() => gateway.stop());
  await gateway.pool.settled();
  const a = gateway.pool.client("a");
  if (!a) throw new Error("upstream a did not connect");
  expect((await a.listTools()).map((t) => t.name)).toEqual(["echo", "slow"]);
  expect(await a.callTool("slow", {}, { timeout: 200 }).catch((e) => e)).toBeInstanceOf(RequestTimeoutError);
  return { host, gateway, eras, warnings, timeouts };
}

/** An event of the stream as the lifecycle hook carried it (without the log's seq and time). */
function unnumbered(e: NumberedEvent): LifecycleEvent {
  const { seq: _seq, time: _time, ...event } = e;
  return event as LifecycleEvent;
}

describe("the built-in features are taps of the typed hooks", () => {
  it("hooks/events-stream-is-a-lifecycle-tap", async () => {
    const { host, gateway } = await scenario();
    expect(host.hooks.lifecycle.taps.map((t) => t.name)).toContain("mcpx:events");
    // The harness's lifecycle tap ("e2e") is a third party's: it saw every event the stream shows.
    const shown = gateway.events.since(0).map(unnumbered);
    expect(shown).toEqual(host.events);
    expect(new Set(shown.map((e) => e.type))).toEqual(
      new Set([
        "upstream.connecting",
        "era.resolved",
        "upstream.connected",
        "server.warning",
        "request.timedOut",
      ]),
    );
  });

  it("hooks/status-is-an-era-resolved-tap", async () => {
    const { host, gateway, eras } = await scenario();
    expect(host.hooks.eraResolved.taps.map((t) => t.name)).toContain("mcpx:status");
    expect(eras.map((e) => e.upstream).sort()).toEqual(["a", "b"]);
    for (const state of gateway.pool.states()) {
      const seen = eras.find((e) => e.upstream === state.name);
      expect(state, state.name).toMatchObject({
        status: "connected",
        revision: seen?.era.revision,
        transport: seen?.era.transport,
      });
    }
    expect(gateway.pool.states().map((s) => s.revision)).toEqual(["2025-06-18", "2025-11-25"]);
  });

  it("hooks/era-event-is-an-era-resolved-tap", async () => {
    const { host, eras } = await scenario();
    expect(host.hooks.eraResolved.taps.map((t) => t.name)).toContain("mcpx:era-events");
    const events = host.events.filter((e) => e.type === "era.resolved");
    expect(events).toEqual(eras.map((e) => ({ type: "era.resolved", ...e })));
    expect(events).toHaveLength(2);
  });

  it("hooks/warning-event-is-a-server-warning-tap", async () => {
    const { host, warnings } = await scenario();
    expect(host.hooks.serverWarning.taps.map((t) => t.name)).toContain("mcpx:warning-events");
    expect(warnings).toMatchObject([{ upstream: "a", list: "tools", tool: "no-schema" }]);
    const events = host.events.filter((e) => e.type === "server.warning");
    expect(events).toEqual(warnings.map((w) => ({ type: "server.warning", ...w })));
  });

  it("hooks/timeout-event-is-a-request-timed-out-tap", async () => {
    const { host, timeouts } = await scenario();
    expect(host.hooks.requestTimedOut.taps.map((t) => t.name)).toContain("mcpx:timeout-events");
    expect(timeouts).toMatchObject([{ upstream: "a", method: "tools/call", cancelled: "notify" }]);
    const events = host.events.filter((e) => e.type === "request.timedOut");
    expect(events).toEqual(
      timeouts.map(({ upstream, method, afterMs }) => ({
        type: "request.timedOut",
        upstream,
        method,
        afterMs,
      })),
    );
  });
});
