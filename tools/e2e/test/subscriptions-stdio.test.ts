import { MetaKey, MethodNotFoundError } from "@mcpx/core";
import { endListen, listenNotify } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { settings, stdioCase, until } from "../src/index.js";

const M = ["2026-07-28"];

describe("2026-07-28 subscriptions/listen over stdio", () => {
  it("2026-07-28/subscriptions/one-listen", async () => {
    const c = await stdioCase({
      versions: M,
      capabilities: { tools: { listChanged: true }, prompts: {}, resources: { listChanged: true } },
    });
    await c.connect();
    await c.server.waitForMethod("subscriptions/listen");
    await new Promise((r) => setTimeout(r, 100));
    const listens = c.server.frames("subscriptions/listen");
    expect(listens).toHaveLength(1);
    expect(listens[0]?.params?.notifications).toEqual({ toolsListChanged: true, resourcesListChanged: true });
    // a server that declared nothing to listen for gets no listen at all
    const quiet = await stdioCase({ versions: M, capabilities: { tools: {} } });
    const client = await quiet.connect();
    await client.ping();
    expect(quiet.server.frames("subscriptions/listen")).toEqual([]);
    expect([...c.server.failures, ...quiet.server.failures]).toEqual([]);
  });

  it("2026-07-28/subscriptions/resource-filter", async () => {
    const c = await stdioCase({ versions: M, capabilities: { resources: { subscribe: true } } });
    const client = await c.connect();
    await client.ping();
    // declared subscribe, but nothing subscribed yet: nothing to listen for
    expect(c.server.frames("subscriptions/listen")).toEqual([]);
    await client.subscribeResource("file:///a.txt");
    const listen = await c.server.waitForMethod("subscriptions/listen");
    expect(listen.frame.params?.notifications).toEqual({ resourceSubscriptions: ["file:///a.txt"] });
    // without resources.subscribe declared, a subscription never reaches the filter
    const other = await stdioCase({
      versions: M,
      capabilities: { tools: { listChanged: true }, resources: {} },
    });
    const c2 = await other.connect();
    // refused (over stdio no legacy session is tried: it would be another process)
    await expect(c2.subscribeResource("file:///b.txt")).rejects.toBeInstanceOf(MethodNotFoundError);
    await new Promise((r) => setTimeout(r, 100));
    // …and the stream is not replaced for it
    expect(other.server.frames("subscriptions/listen").map((f) => f.params?.notifications)).toEqual([
      { toolsListChanged: true },
    ]);
    expect(c.server.frames("resources/subscribe")).toEqual([]);
    expect([...c.server.failures, ...other.server.failures]).toEqual([]);
  });

  it("2026-07-28/subscriptions/replace-on-subscribe", async () => {
    const c = await stdioCase({
      versions: M,
      capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
    });
    const client = await c.connect();
    await c.server.waitForMethod("subscriptions/listen");
    const first = c.server.frames("subscriptions/listen")[0];
    await client.subscribeResource("file:///x");
    const cancelled = await c.server.waitForMethod("notifications/cancelled");
    expect(cancelled.frame.params?.requestId).toBe(first?.id);
    await until(() => c.server.frames("subscriptions/listen").length === 2);
    const second = c.server.frames("subscriptions/listen")[1];
    expect(second?.id).not.toBe(first?.id);
    expect(second?.params?.notifications).toEqual({
      toolsListChanged: true,
      resourceSubscriptions: ["file:///x"],
    });
    expect(client.listenId).toBe(second?.id);
    expect(c.server.failures).toEqual([]);
  });

  it("2026-07-28/subscriptions/correlate", async () => {
    const c = await stdioCase({
      versions: M,
      capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
    });
    const client = await c.connect();
    const seen: string[] = [];
    client.onNotification("*", (params, method) =>
      seen.push(`${method} ${JSON.stringify(params._meta ?? null)}`),
    );
    await until(() => c.server.listens.length === 1);
    await client.subscribeResource("file:///x");
    await until(() => c.server.listens.length === 2);
    const [old, current] = c.server.listens;
    if (!old || !current) throw new Error("two listens expected");
    listenNotify(old, "notifications/tools/list_changed"); // a replaced stream's: dropped
    listenNotify(current, "notifications/resources/updated", { uri: "file:///x" }); // current: passed
    listenNotify(current, "notifications/message", { level: "info", data: "untagged" }, null); // untagged: passed
    await until(() => seen.length >= 2);
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual([
      `notifications/resources/updated {"${MetaKey.subscriptionId}":${JSON.stringify(current.id)}}`,
      "notifications/message null",
    ]);
  });

  it("2026-07-28/subscriptions/ack-compared", async () => {
    const c = await stdioCase({
      versions: M,
      capabilities: { tools: { listChanged: true }, resources: { listChanged: true } },
      honour: (f) => ({ toolsListChanged: f.toolsListChanged }),
    });
    await c.connect();
    await until(() => c.host.events.some((e) => e.type === "server.warning"));
    const warning = c.host.events.find((e) => e.type === "server.warning");
    expect(warning).toMatchObject({
      type: "server.warning",
      upstream: "scripted",
      message: "subscriptions/listen: the server declined resourcesListChanged",
    });
  });

  it("subscriptions/ack-compared-uri-by-uri", async () => {
    // The server honours every URI asked but file:///b.txt: each acknowledgement is compared URI by
    // URI, and the warning names the one declined, never the ones accepted beside it.
    const c = await stdioCase({
      versions: M,
      capabilities: { resources: { subscribe: true, listChanged: true } },
      honour: (f) => ({
        resourcesListChanged: f.resourcesListChanged,
        resourceSubscriptions: ((f.resourceSubscriptions as string[] | undefined) ?? []).filter(
          (u) => u !== "file:///b.txt",
        ),
      }),
    });
    const client = await c.connect();
    await until(() => c.server.listens.length === 1);
    const warned = () =>
      c.host.events.filter((e) => e.type === "server.warning").map((e) => String(e.message));
    // one URI at a time, each acknowledgement read before the next replaces the stream
    await client.subscribeResource("file:///a.txt");
    await until(() => c.server.listens.length === 2);
    await client.subscribeResource("file:///b.txt");
    await until(() => warned().length === 1);
    await client.subscribeResource("file:///c.txt");
    await until(() => warned().length === 2);
    expect(c.server.listens.map((l) => l.filter.resourceSubscriptions)).toEqual([
      undefined,
      ["file:///a.txt"],
      ["file:///a.txt", "file:///b.txt"],
      ["file:///a.txt", "file:///b.txt", "file:///c.txt"],
    ]);
    expect(c.server.listens.at(-1)?.acked.resourceSubscriptions).toEqual(["file:///a.txt", "file:///c.txt"]);
    await new Promise((r) => setTimeout(r, 50));
    // a alone: nothing declined; then b, each time, and never a or c beside it
    expect(warned()).toEqual([
      "subscriptions/listen: the server declined resourceSubscriptions file:///b.txt",
      "subscriptions/listen: the server declined resourceSubscriptions file:///b.txt",
    ]);
    expect(c.server.failures).toEqual([]);
  });

  it("2026-07-28/subscriptions/reopen", async () => {
    const c = await stdioCase({ versions: M, capabilities: { tools: { listChanged: true } } });
    await c.connect({ settings: settings({ listenReopenDelay: 300 }) });
    await until(() => c.server.listens.length === 1);
    const ended = Date.now();
    endListen(c.server.listens[0]!, "response");
    await until(() => c.server.listens.length === 2);
    expect(Date.now() - ended).toBeGreaterThanOrEqual(280);
    expect(c.server.frames("subscriptions/listen")[1]?.params?.notifications).toEqual({
      toolsListChanged: true,
    });
  });

  it("2026-07-28/subscriptions/both-end-styles", async () => {
    const c = await stdioCase({ versions: M, capabilities: { tools: { listChanged: true } } });
    const client = await c.connect({ settings: settings({ listenReopenDelay: 50 }) });
    await until(() => c.server.listens.length === 1);
    // the server ends it with notifications/cancelled naming the listen id: harmless, reopened
    endListen(c.server.listens[0]!, "cancelled");
    await until(() => c.server.listens.length === 2);
    // then with a response, followed by a stray cancelled for the same id: the response ends it, the
    // cancelled is harmless, and exactly one new listen follows
    const second = c.server.listens[1]!;
    endListen(second, "response");
    endListen(second, "cancelled");
    await until(() => c.server.listens.length === 3);
    await new Promise((r) => setTimeout(r, 200));
    expect(c.server.listens).toHaveLength(3);
    expect(client.listenId).toBe(c.server.listens[2]?.id);
    // mcpx sent no cancel of its own for streams the server ended
    expect(c.server.frames("notifications/cancelled")).toEqual([]);
    expect(c.server.failures).toEqual([]);
  });
});
