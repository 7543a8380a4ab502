import { type LifecycleEvent, type ServerRequestContext, silentLogger } from "@mcpx/core";
import { createHost } from "@mcpx/host";
import { describe, expect, it } from "vitest";
import plugin, { type BrokerEvent, ElicitationBroker } from "../src/index.js";

const schema = {
  type: "object",
  properties: {
    name: { type: "string", minLength: 2 },
    age: { type: "integer", minimum: 18, default: 36 },
    email: { type: "string", format: "email" },
    subscribe: { type: "boolean", default: true },
    colour: { type: "string", enum: ["red", "green"] },
  },
  required: ["name", "age"],
};

function ctx(upstream = "up", version = "2025-11-25"): ServerRequestContext & { abort: AbortController } {
  const abort = new AbortController();
  return { upstream, version, signal: abort.signal, abort, related: { method: "tools/call" } };
}

/** Attaches a watcher for the test's duration; returns the events it saw. */
function attach(broker: ElicitationBroker) {
  const stop = new AbortController();
  const seen: BrokerEvent[] = [];
  void (async () => {
    for await (const e of broker.watch(stop.signal)) seen.push(e);
  })();
  return { seen, stop: () => stop.abort() };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

describe("the broker", () => {
  it("nobody attached: cancel at once, remembered as settled", async () => {
    const events: LifecycleEvent[] = [];
    const broker = new ElicitationBroker({}, (e) => events.push(e));
    const result = await broker.ask({ message: "who?", requestedSchema: schema }, ctx());
    expect(result).toEqual({ action: "cancel" });
    expect(broker.list().pending).toEqual([]);
    expect(broker.list().settled[0]).toMatchObject({
      action: "cancel",
      reason: "nobody was attached to answer",
    });
    expect(events.map((e) => e.type)).toEqual(["elicitation.pending", "elicitation.settled"]);
  });

  it("attached: held, listed, answered with defaults filled; a bad answer is refused and it stays", async () => {
    const broker = new ElicitationBroker();
    const w = attach(broker);
    await tick();
    const answer = broker.ask({ message: "who?", requestedSchema: schema }, ctx());
    await tick();
    const [pending] = broker.list().pending;
    expect(pending).toMatchObject({ upstream: "up", mode: "form", message: "who?", related: "tools/call" });
    expect(w.seen.map((e) => e.event)).toEqual(["snapshot", "pending"]);
    expect(() => broker.answer(pending!.id, { action: "accept", content: { age: 3 } })).toThrow(
      /name: is required; age: must be >= 18/,
    );
    expect(broker.list().pending).toHaveLength(1);
    broker.answer(pending!.id, { action: "accept", content: { name: "Ada", subscribe: false } });
    expect(await answer).toEqual({ action: "accept", content: { name: "Ada", subscribe: false, age: 36 } });
    expect(broker.list().pending).toEqual([]);
    w.stop();
  });

  it("the deadline cancels; the server withdrawing cancels", async () => {
    const broker = new ElicitationBroker({ timeoutMs: 30 });
    const w = attach(broker);
    await tick();
    expect(await broker.ask({ message: "late" }, ctx())).toEqual({ action: "cancel" });
    expect(broker.list().settled.at(-1)?.reason).toBe("no answer before the deadline");
    w.stop();
    // a broker with no near deadline, so the withdrawal is what ends it however slow the machine
    const patient = new ElicitationBroker();
    const w2 = attach(patient);
    await tick();
    const c = ctx();
    const withdrawn = patient.ask({ message: "gone" }, c);
    await tick();
    c.abort.abort();
    expect(await withdrawn).toEqual({ action: "cancel" });
    expect(patient.list().settled.at(-1)?.reason).toBe("withdrawn by the server");
    w2.stop();
  });

  it("url: a refused one is declined and never shown; an accepted one waits for completion", async () => {
    const broker = new ElicitationBroker();
    const w = attach(broker);
    await tick();
    const refused = await broker.ask(
      { mode: "url", message: "m", url: "http://evil.example/", elicitationId: "e0" },
      ctx(),
    );
    expect(refused).toEqual({ action: "decline" });
    expect(JSON.stringify(broker.list())).not.toContain("evil.example");
    const accepted = broker.ask(
      { mode: "url", message: "sign in", url: "https://example.com/login", elicitationId: "e1" },
      ctx(),
    );
    await tick();
    const [p] = broker.list().pending;
    expect(p).toMatchObject({ url: "https://example.com/login", host: "example.com", elicitationId: "e1" });
    broker.answer(p!.id, { action: "accept" });
    expect(await accepted).toEqual({ action: "accept" });
    expect(broker.list().pending[0]).toMatchObject({ id: p!.id, state: "accepted" });
    expect(() => broker.answer(p!.id, { action: "decline" })).toThrow(/already accepted/);
    broker.complete("other-upstream", "e1");
    expect(broker.list().pending).toHaveLength(1);
    broker.complete("up", "e1");
    expect(broker.list().pending).toEqual([]);
    expect(broker.list().settled.at(-1)).toMatchObject({
      action: "accept",
      reason: "completed by the server",
    });
    w.stop();
  });

  it("the plugin: options checked, handler and routes registered", async () => {
    const host = createHost({ log: silentLogger });
    await expect(host.use(plugin, { timeoutMs: 0 })).rejects.toThrow(/options\.timeoutMs/);
    await host.use(plugin, { holdWithoutWatcher: true });
    expect(host.registry.elicitationHandlers().map((h) => h.name)).toEqual(["@mcpx/elicitation-broker"]);
    expect(host.registry.controlRoutes().map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET elicitations",
      "GET elicitations/watch",
      "GET elicitations/:id",
      "POST elicitations/:id/answer",
    ]);
  });
});
