/** Brokers of two replicas on one shared store: questions, answers and watchers seen by both. */
import type { ServerRequestContext, StateStore } from "@mcpx/core";
import { MemoryStore } from "@mcpx/host";
import { describe, expect, it } from "vitest";
import { ANSWER_SPACE, ELICITATION_SPACE, ElicitationBroker, PRESENCE_SPACE } from "../src/index.js";

function sharedStore(): StateStore {
  const memory = new MemoryStore();
  return new Proxy(memory, {
    get(target, key) {
      if (key === "shared") return true;
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function ctx(): ServerRequestContext {
  return { upstream: "up", version: "2025-11-25", signal: new AbortController().signal };
}

function attach(broker: ElicitationBroker) {
  const stop = new AbortController();
  void (async () => {
    for await (const _ of broker.watch(stop.signal));
  })();
  return () => stop.abort();
}

const schema = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };

describe("the broker on replicas", () => {
  it("replicas/elicitation-listed-and-answered-from-another-replica", async () => {
    const store = sharedStore();
    const a = new ElicitationBroker(
      {},
      () => {},
      () => store,
    );
    const b = new ElicitationBroker(
      {},
      () => {},
      () => store,
    );
    // The watcher is on B: A holds its upstream's question all the same.
    const detach = attach(b);
    await expect.poll(async () => (await store.entries(PRESENCE_SPACE)).length).toBe(1);
    const result = a.ask({ message: "who?", requestedSchema: schema }, ctx());
    await expect.poll(async () => (await b.listAll()).pending.length).toBe(1);
    const [question] = (await b.listAll()).pending;
    expect(question).toMatchObject({ upstream: "up", message: "who?", mode: "form" });
    // B checks the answer against the question's schema before anything is claimed.
    await expect(b.answerAnywhere(question!.id, { action: "accept", content: {} })).rejects.toThrow(/name/);
    expect(await b.answerAnywhere(question!.id, { action: "accept", content: { name: "Ada" } })).toEqual({
      id: question!.id,
      action: "accept",
      content: { name: "Ada" },
    });
    expect(await result).toEqual({ action: "accept", content: { name: "Ada" } });
    // The first answer won; a second is refused, and the settled question left the store.
    await expect.poll(async () => store.entries(ELICITATION_SPACE)).toEqual([]);
    await expect.poll(async () => store.entries(ANSWER_SPACE)).toEqual([]);
    await expect(b.answerAnywhere(question!.id, { action: "decline" })).rejects.toThrow(/no pending/);
    detach();
    await expect.poll(async () => (await store.entries(PRESENCE_SPACE)).length).toBe(0);
  });

  it("replicas/elicitation-first-answer-wins", async () => {
    const store = sharedStore();
    const a = new ElicitationBroker(
      {},
      () => {},
      () => store,
    );
    const b = new ElicitationBroker(
      {},
      () => {},
      () => store,
    );
    const detach = attach(a);
    await expect.poll(async () => (await store.entries(PRESENCE_SPACE)).length).toBe(1);
    const result = a.ask({ message: "ok?", requestedSchema: schema }, ctx());
    await expect.poll(async () => (await b.listAll()).pending.length).toBe(1);
    const [question] = (await b.listAll()).pending;
    await b.answerAnywhere(question!.id, { action: "decline" });
    // A's own answer comes second: refused, and the upstream gets B's.
    await expect(
      a.answerAnywhere(question!.id, { action: "accept", content: { name: "x" } }),
    ).rejects.toThrow(/answered already|no pending/);
    expect(await result).toEqual({ action: "decline" });
    detach();
  });

  it("replicas/elicitation-nobody-attached-anywhere-cancels", async () => {
    const store = sharedStore();
    const a = new ElicitationBroker(
      {},
      () => {},
      () => store,
    );
    expect(await a.ask({ message: "who?", requestedSchema: schema }, ctx())).toEqual({ action: "cancel" });
    expect(await store.entries(ELICITATION_SPACE)).toEqual([]);
  });
});
