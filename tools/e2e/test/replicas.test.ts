/**
 * Two replicas of mcpx behind a round-robin balancer with no affinity, on one shared store: modern
 * clients are served by either, a legacy session lives on the replica that opened it and the other
 * proxies its requests there; a session whose holder stopped is 404, a holder that does not answer
 * 503 naming it. Two gateways in this process over copies of the same scripted upstreams, each
 * with its own connection to one real Redis (redis-server on 127.0.0.1, started for this file):
 * to the store they are two replicas, as two processes would be. examples/replicas runs the same
 * with two `mcpx serve` processes.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { JSONObject, StateStore } from "@mcpx/core";
import { HOP_HEADER, SESSION_SPACE } from "@mcpx/gateway";
import { createLogger } from "@mcpx/host";
import { redisStoreFactory } from "@mcpx/store-redis";
import { type RunningRedis, startBalancer, startRedis } from "@mcpx/testkit";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { afterThisTest, type UpstreamSpec } from "../src/index.js";
import {
  echo,
  httpGateway,
  legacySession,
  mirrored,
  modernBody,
  post,
  sleep,
} from "./gateway-http.helpers.js";

let redis: RunningRedis;
beforeAll(async () => {
  redis = await startRedis();
}, 30_000);
afterAll(() => redis?.stop());

let prefixes = 0;

/** One replica's connection to the test's Redis; each test has a key prefix of its own. */
async function redisStore(prefix: string): Promise<StateStore> {
  const store = await redisStoreFactory.create(
    { url: redis.url, prefix },
    { stateDir: mkdtempSync(path.join(tmpdir(), "mcpx-replica-")), log: createLogger({ level: "error" }) },
  );
  afterThisTest(() => store.close());
  return store;
}

const withProgress: UpstreamSpec["handlers"] = {
  "tools/call": async (req, ctx) => {
    const params = req.params as JSONObject;
    const token = (params._meta as JSONObject | undefined)?.progressToken;
    if (token !== undefined) {
      for (const progress of [1, 2]) {
        ctx.push({
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: token, progress, total: 2 },
        });
        await sleep(10);
      }
    }
    return {
      content: [{ type: "text", text: `echo ${String((params.arguments as JSONObject | undefined)?.text)}` }],
    };
  },
};

function upstream(): UpstreamSpec {
  return {
    name: "up",
    versions: ["2025-11-25"],
    capabilities: { tools: { listChanged: true }, resources: { subscribe: true }, logging: {} },
    tools: [echo],
    resources: [{ uri: "file:///notes.md", name: "notes" }],
    handlers: withProgress,
  };
}

/** Replicas A and B on one store, and a balancer in front (A gets the first request). */
async function twoReplicas() {
  const prefix = `replicas-${++prefixes}`;
  const store = await redisStore(prefix);
  const other = await redisStore(prefix);
  const a = await httpGateway([upstream()], { replica: { store: () => store, id: "replica-a" } });
  const b = await httpGateway([upstream()], { replica: { store: () => other, id: "replica-b" } });
  const balancer = await startBalancer([a.base, b.base]);
  afterThisTest(() => balancer.close());
  return { store, a, b, balancer, url: `${balancer.url}/mcp` };
}

async function sdkClient(transport: StreamableHTTPClientTransport | SSEClientTransport) {
  const client = new Client({ name: "sdk-v1", version: "1.0.0" });
  await client.connect(transport);
  afterThisTest(() => client.close());
  return client;
}

describe("replicas behind a balancer", () => {
  it("replicas/modern-client-served-without-affinity", async () => {
    const { balancer, url } = await twoReplicas();
    for (let i = 0; i < 3; i++) {
      const list = await post(url, modernBody("tools/list"), mirrored("tools/list"));
      expect(list.status).toBe(200);
      expect(
        ((await list.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name),
      ).toEqual(["up__echo"]);
      const call = await post(
        url,
        modernBody("tools/call", { name: "up__echo", arguments: { text: `n${i}` } }),
        mirrored("tools/call", "up__echo"),
      );
      expect(call.status).toBe(200);
      expect(((await call.json()) as { result: JSONObject }).result.content).toEqual([
        { type: "text", text: `echo n${i}` },
      ]);
    }
    expect(balancer.hits).toEqual([3, 3]);
  });

  it("replicas/legacy-session-alternating-between-replicas", async () => {
    const { a, b, balancer, store, url } = await twoReplicas();
    const client = await sdkClient(new StreamableHTTPClientTransport(new URL(url)));
    // initialize went to A; A holds the session and says so in the store.
    const records = await store.entries<{ replica: string }>(SESSION_SPACE);
    expect(records.map(([, r]) => r.replica)).toEqual(["replica-a"]);
    expect(a.gateway.peers.length).toBe(1);
    for (let i = 0; i < 3; i++) {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toEqual(["up__echo"]);
    }
    const progress: number[] = [];
    const call = await client.callTool({ name: "up__echo", arguments: { text: "far" } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(call.content).toEqual([{ type: "text", text: "echo far" }]);
    expect(progress).toEqual([1, 2]);
    // Requests went to both, and B served none itself: it proxied them to A.
    expect(balancer.hits[0]).toBeGreaterThan(1);
    expect(balancer.hits[1]).toBeGreaterThan(1);
    expect(b.gateway.peers.length).toBe(0);
    expect(a.scripted.up!.frames("tools/call")).toHaveLength(1);
    expect(b.scripted.up!.frames("tools/call")).toHaveLength(0);
  });

  it("replicas/legacy-session-of-a-dead-replica-is-404", async () => {
    const { a, b, balancer, store, url } = await twoReplicas();
    const session = await legacySession(url);
    expect((await store.entries(SESSION_SPACE)).length).toBe(1);
    // A stops: its records go with it, and B knows the session no more.
    await a.http.close();
    expect(await store.entries(SESSION_SPACE)).toEqual([]);
    const gone = await post(
      `${b.base}/mcp`,
      { jsonrpc: "2.0", id: 9, method: "tools/list" },
      session.headers,
    );
    expect(gone.status).toBe(404);
    // The client starts a new session through the balancer, which has taken A out of its rotation.
    balancer.down.add(0);
    const again = await legacySession(url);
    expect(again.sessionId).not.toBe(session.sessionId);
    const { res, body } = await again.request("tools/list");
    expect(res.status).toBe(200);
    expect((body.result as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(["up__echo"]);
  });

  it("replicas/http-sse-session-across-replicas", async () => {
    const { a, b, balancer } = await twoReplicas();
    // GET /sse lands on A (the session's stream); the POSTs alternate, B's are proxied to A.
    const client = await sdkClient(new SSEClientTransport(new URL(`${balancer.url}/sse`)));
    expect(client.getServerVersion()).toMatchObject({ name: "mcpx" });
    for (let i = 0; i < 2; i++) {
      const call = await client.callTool({ name: "up__echo", arguments: { text: `sse${i}` } });
      expect(call.content).toEqual([{ type: "text", text: `echo sse${i}` }]);
    }
    expect(balancer.hits[1]).toBeGreaterThan(0);
    expect(a.gateway.peers.length).toBe(1);
    expect(b.gateway.peers.length).toBe(0);
  });

  it("replicas/proxied-request-is-never-proxied-again", async () => {
    const { b, url } = await twoReplicas();
    const session = await legacySession(url);
    const list = { jsonrpc: "2.0", id: 7, method: "tools/list" };
    // Straight to B: B proxies it to A, the holder.
    const proxied = await post(`${b.base}/mcp`, list, session.headers);
    expect(proxied.status).toBe(200);
    // Marked as proxied already: B answers it itself, and it holds no such session.
    const marked = await post(`${b.base}/mcp`, list, { ...session.headers, [HOP_HEADER]: "replica-a" });
    expect(marked.status).toBe(404);
  });

  it("replicas/holder-not-answering-is-503-with-its-name", async () => {
    const { a, b, url } = await twoReplicas();
    const session = await legacySession(url);
    // A's listener goes away without A saying so (a crash): its records stay until they lapse.
    await new Promise<void>((resolve) => {
      a.http.server.close(() => resolve());
      a.http.server.closeAllConnections();
    });
    const res = await post(`${b.base}/mcp`, { jsonrpc: "2.0", id: 3, method: "tools/list" }, session.headers);
    expect(res.status).toBe(503);
    const body = (await res.json()) as { error: { message: string; data: { replica: string } } };
    expect(body.error.message).toContain("replica-a");
    expect(body.error.data.replica).toBe("replica-a");
  });
});
