/**
 * The per-capability fallback for resource subscriptions: a modern upstream whose server/discover
 * declares no resources.subscribe (the suite's reference server declares `resources: {}`) is
 * subscribed through a legacy session of the same URL, where that session declares it. One URL
 * serves both eras here as the reference server does: a router in front of two scripted servers, a
 * 2026-07-28 one and a 2025-11-25 one, each checking every frame it receives strictly.
 */
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { UpstreamClient } from "@mcpx/client";
import { MethodNotFoundError } from "@mcpx/core";
import { type HttpScript, httpScript, ScriptedServer } from "@mcpx/testkit";
import { describe, expect } from "vitest";
import { afterThisTest, RESOURCES, requirement, settings, stdioCase, TOOLS, testHost } from "../src/index.js";
import { M, methodOf, until } from "./modern-http.helpers.js";

const LEGACY_ERA = new Set(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]);

/**
 * One endpoint for both eras: initialize, anything carrying a session id or a legacy version header,
 * and every GET and DELETE go to the legacy server; the rest (server/discover, modern requests) to
 * the modern one. Bodies and answers are piped as they come (the GET stream stays open).
 */
async function twoEraEndpoint(modern: HttpScript, legacy: HttpScript): Promise<string> {
  const router = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const version = req.headers["mcp-protocol-version"];
      const isLegacy =
        req.method !== "POST" ||
        req.headers["mcp-session-id"] !== undefined ||
        (typeof version === "string" && LEGACY_ERA.has(version)) ||
        /"method"\s*:\s*"initialize"/.test(body.toString("utf8"));
      const to = new URL(isLegacy ? legacy.url : modern.url);
      const out = request(
        { host: to.hostname, port: to.port, path: to.pathname, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      out.on("error", () => res.destroy());
      res.on("close", () => out.destroy());
      out.end(body);
    });
  });
  await new Promise<void>((r) => router.listen(0, "127.0.0.1", r));
  afterThisTest(
    () =>
      new Promise((r) => {
        router.closeAllConnections();
        router.close(() => r());
      }),
  );
  return `http://127.0.0.1:${(router.address() as AddressInfo).port}/mcp`;
}

/** A modern server declaring `resources: {}` and a legacy one with `legacyCaps`, behind one URL. */
async function bothEras(legacyCaps: Record<string, unknown>) {
  const modernServer = new ScriptedServer({
    versions: M,
    tools: TOOLS,
    resources: RESOURCES,
    capabilities: { tools: {}, resources: {} },
  });
  const legacyServer = new ScriptedServer({
    versions: ["2025-11-25"],
    tools: TOOLS,
    resources: RESOURCES,
    capabilities: legacyCaps,
  });
  const modern = await httpScript(modernServer);
  const legacy = await httpScript(legacyServer);
  afterThisTest(() => modern.close());
  afterThisTest(() => legacy.close());
  const url = await twoEraEndpoint(modern, legacy);
  const host = await testHost();
  const client = await UpstreamClient.connect({
    target: { name: "both", url },
    env: host,
    settings: settings(),
  });
  afterThisTest(() => client.close());
  return { client, modern, legacy, modernServer, legacyServer };
}

describe("2026-07-28 resource subscriptions where the modern server has none", () => {
  requirement(["2026-07-28/subscriptions/legacy-session-when-modern-lacks-subscribe"], async () => {
    const { client, modern, legacy, modernServer, legacyServer } = await bothEras({
      tools: {},
      resources: { subscribe: true },
    });
    // the connection itself is modern: its discover declared resources without subscribe
    expect(client.negotiated.version).toBe("2026-07-28");
    expect(client.negotiated.serverCapabilities.resources).toEqual({});
    expect(legacy.requests).toEqual([]);

    const updated: string[] = [];
    client.onNotification("notifications/resources/updated", (p) => updated.push(String(p.uri)));
    await client.subscribeResource("file:///a.txt");
    // a legacy session of the same URL took it: initialize, then resources/subscribe in that session
    expect(legacyServer.frames("initialize")).toHaveLength(1);
    expect(legacyServer.frames("resources/subscribe").map((f) => f.params?.uri)).toEqual(["file:///a.txt"]);
    expect(client.legacySubscriptions).toEqual(new Set(["file:///a.txt"]));
    // the modern server was asked for nothing of it (it declared nothing to listen for: no listen)
    expect(modernServer.listens).toEqual([]);
    expect(modern.requests.map(methodOf)).not.toContain("resources/subscribe");

    // the session's updates reach the client as the modern connection's own
    await legacy.getStreamConnected();
    legacyServer.notify("notifications/resources/updated", { uri: "file:///a.txt" });
    await until(() => updated.length === 1);
    expect(updated).toEqual(["file:///a.txt"]);

    // a second subscription uses the same session; unsubscribing goes there too
    await client.subscribeResource("file:///b.txt");
    expect(legacyServer.frames("initialize")).toHaveLength(1);
    await client.unsubscribeResource("file:///a.txt");
    expect(legacyServer.frames("resources/unsubscribe").map((f) => f.params?.uri)).toEqual(["file:///a.txt"]);
    expect(client.legacySubscriptions).toEqual(new Set(["file:///b.txt"]));

    // closing the connection ends the session (DELETE)
    await client.close();
    await until(() => legacy.requests.some((r) => r.httpMethod === "DELETE"));
    expect(modernServer.failures).toEqual([]);
    expect(legacyServer.failures).toEqual([]);
  });

  requirement(["2026-07-28/subscriptions/modern-only-without-subscribe-refused"], async () => {
    // the legacy session declares no subscriptions either: refused, naming both
    const both = await bothEras({ tools: {}, resources: {} });
    const neither = await both.client.subscribeResource("file:///a.txt").catch((e) => e);
    expect(neither).toBeInstanceOf(MethodNotFoundError);
    expect(neither.message).toContain(
      "declares no resources.subscribe, and neither does its 2025-11-25 session",
    );
    expect(both.legacyServer.frames("resources/subscribe")).toEqual([]);

    // a modern-only server over HTTP: no legacy session can be opened, so the refusal stands
    const modernOnly = new ScriptedServer({
      versions: M,
      resources: RESOURCES,
      capabilities: { resources: {} },
    });
    const script = await httpScript(modernOnly);
    afterThisTest(() => script.close());
    const host = await testHost();
    const client = await UpstreamClient.connect({
      target: { name: "modern-only", url: script.url },
      env: host,
      settings: settings(),
    });
    afterThisTest(() => client.close());
    const refused = await client.subscribeResource("file:///a.txt").catch((e) => e);
    expect(refused).toBeInstanceOf(MethodNotFoundError);
    expect(refused.message).toContain("no legacy session could be opened");
    expect(client.legacySubscriptions.size).toBe(0);

    // over stdio no second connection is tried (it would be another process): refused at once
    const c = await stdioCase({ versions: M, resources: RESOURCES, capabilities: { resources: {} } });
    const stdio = await c.connect();
    const local = await stdio.subscribeResource("file:///a.txt").catch((e) => e);
    expect(local).toBeInstanceOf(MethodNotFoundError);
    expect(c.server.frames("initialize")).toEqual([]);
    expect(modernOnly.failures).toEqual([]);
    expect(c.server.failures).toEqual([]);
  });
});
