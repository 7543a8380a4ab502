/**
 * Result caching of 2026-07-28 (server/utilities/caching.mdx) seen from the wire: a cached result is
 * one request the server never sees. ttlMs and cacheScope, list_changed invalidation on the listen
 * stream, private results per authorization context, and nothing cached that input_required touched.
 * Against scripted modern servers over Streamable HTTP that check every frame strictly.
 */
import type { JSONObject } from "@mcpx/core";
import { listenNotify } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { delay, type HttpCase, httpCase, RESOURCES, TOOLS } from "../src/index.js";
import { allPosts, listenSse, M, methodOf, until } from "./modern-http.helpers.js";

const seen = (c: HttpCase, method: string) => allPosts(c.script).filter((r) => methodOf(r) === method).length;

/** A tools/list answer with these caching hints (left out when undefined). */
function toolsList(hints: { ttlMs?: number; cacheScope?: string }) {
  return (): JSONObject => ({ resultType: "complete", tools: TOOLS, ...hints });
}

describe("caching (2026-07-28 over Streamable HTTP)", () => {
  it("caching/ttl-public-served-from-cache", async () => {
    const c = await httpCase({
      versions: M,
      handlers: { "tools/list": toolsList({ ttlMs: 60_000, cacheScope: "public" }) },
    });
    const client = await c.connect();
    const first = await client.listTools();
    const second = await client.listTools();
    expect(second).toEqual(first);
    expect(first.map((t) => t.name)).toEqual(["echo", "add"]);
    expect(seen(c, "tools/list")).toBe(1);
    // a public result is served whatever the caller's authorization context
    await client.listTools({ authContext: "someone-else" });
    expect(seen(c, "tools/list")).toBe(1);
    // the cached copy is the caller's own: changing it changes nothing cached
    (first[0] as { name: string }).name = "mutated";
    expect((await client.listTools())[0]?.name).toBe("echo");
    expect(seen(c, "tools/list")).toBe(1);
    expect(c.server.failures).toEqual([]);
  });

  it("caching/ttl-zero-or-absent-not-cached", async () => {
    for (const hints of [{ ttlMs: 0, cacheScope: "public" }, {}, { ttlMs: -5, cacheScope: "public" }]) {
      // absent (an older server) and negative (ignored) both mean 0: immediately stale
      const c = await httpCase({ versions: M, handlers: { "tools/list": toolsList(hints) } });
      const client = await c.connect();
      await client.listTools();
      await client.listTools();
      expect(seen(c, "tools/list"), JSON.stringify(hints)).toBe(2);
    }
    // fresh for ttlMs, then stale
    const c = await httpCase({
      versions: M,
      handlers: { "tools/list": toolsList({ ttlMs: 200, cacheScope: "public" }) },
    });
    const client = await c.connect();
    await client.listTools();
    await client.listTools();
    expect(seen(c, "tools/list")).toBe(1);
    await delay(250);
    await client.listTools();
    expect(seen(c, "tools/list")).toBe(2);
    expect(c.server.failures).toEqual([]);
  });

  it("caching/list-changed-invalidates", async () => {
    const c = await httpCase(
      {
        versions: M,
        capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
        resources: RESOURCES,
        handlers: {
          "tools/list": toolsList({ ttlMs: 60_000, cacheScope: "public" }),
          "resources/read": (req) => ({
            resultType: "complete",
            contents: [{ uri: req.params?.uri, text: "x" }],
            ttlMs: 60_000,
            cacheScope: "public",
          }),
        },
      },
      { answer: listenSse },
    );
    const client = await c.connect();
    await until(() => c.server.listens.length === 1);
    await client.listTools();
    await client.listTools();
    expect(seen(c, "tools/list")).toBe(1);
    const changed = new Promise((r) => client.onNotification("notifications/tools/list_changed", r));
    listenNotify(c.server.listens[0]!, "notifications/tools/list_changed");
    await changed;
    await client.listTools();
    expect(seen(c, "tools/list")).toBe(2);
    await client.listTools();
    expect(seen(c, "tools/list")).toBe(2);

    // resources/updated for a subscribed URI drops that resource's read, and only that one
    await client.subscribeResource("file:///a.txt");
    await until(() => c.server.listens.length === 2);
    await client.readResource("file:///a.txt");
    await client.readResource("file:///b.txt");
    await client.readResource("file:///a.txt");
    await client.readResource("file:///b.txt");
    expect(seen(c, "resources/read")).toBe(2);
    const updated = new Promise((r) => client.onNotification("notifications/resources/updated", r));
    listenNotify(c.server.listens[1]!, "notifications/resources/updated", { uri: "file:///a.txt" });
    await updated;
    await client.readResource("file:///a.txt");
    await client.readResource("file:///b.txt");
    expect(seen(c, "resources/read")).toBe(3);
    expect(c.server.failures).toEqual([]);
  });

  it("caching/private-per-auth-context", async () => {
    const c = await httpCase({
      versions: M,
      handlers: {
        "resources/read": (req) => ({
          resultType: "complete",
          contents: [{ uri: req.params?.uri, text: `read #${String(readCount++)}` }],
          ttlMs: 60_000,
          cacheScope: "private",
        }),
      },
    });
    let readCount = 1;
    const client = await c.connect();
    const read = async (auth: string) => {
      const r = await client.readResource("file:///me.txt", { authContext: auth });
      return (r.contents as { text: string }[])[0]?.text;
    };
    expect(await read("alice")).toBe("read #1");
    expect(await read("alice")).toBe("read #1"); // the same context: served from the cache
    expect(seen(c, "resources/read")).toBe(1);
    expect(await read("bob")).toBe("read #2"); // another context: never alice's
    expect(seen(c, "resources/read")).toBe(2);
    expect(await read("alice")).toBe("read #1"); // bob's read did not take alice's place
    expect(await read("bob")).toBe("read #2");
    expect(seen(c, "resources/read")).toBe(2);
    // and a caller with no context at all is a context of its own
    expect(await read("")).toBe("read #3");
    expect(seen(c, "resources/read")).toBe(3);
    expect(c.server.failures).toEqual([]);
  });

  it("caching/input-required-never-cached", async () => {
    // resources/read asks for input first; the complete answer of the retry carries a long ttlMs,
    // which must not be kept: it depends on inputs that are not part of the cache key
    const c = await httpCase({
      versions: M,
      handlers: {
        "resources/read": (req) =>
          req.params?.requestState === undefined
            ? {
                resultType: "input_required",
                requestState: "need-roots",
                inputRequests: { r: { method: "roots/list" } },
              }
            : {
                resultType: "complete",
                contents: [{ uri: req.params?.uri, text: JSON.stringify(req.params?.inputResponses) }],
                ttlMs: 60_000,
                cacheScope: "public",
              },
      },
    });
    const client = await c.connect();
    const first = await client.readResource("file:///needs-input");
    expect(first.contents).toEqual([
      { uri: "file:///needs-input", text: JSON.stringify({ r: { roots: [] } }) },
    ]);
    await client.readResource("file:///needs-input");
    const reads = allPosts(c.script).filter((r) => methodOf(r) === "resources/read");
    // both reads went the whole way: asked, then retried with inputResponses and requestState
    expect(reads.map((r) => r.frames[0]?.params?.requestState ?? null)).toEqual([
      null,
      "need-roots",
      null,
      "need-roots",
    ]);
    expect(c.server.failures).toEqual([]);
  });
});
