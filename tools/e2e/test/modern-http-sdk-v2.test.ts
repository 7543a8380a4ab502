/**
 * The official TypeScript SDK v2 (@modelcontextprotocol/server 2.4.0, a 2026-07-28 server) as a real
 * modern peer: over Streamable HTTP (createMcpHandler, stateless) and over stdio (serveStdio). mcpx
 * connects unpinned, so the era probe must find modern; the SDK itself checks the mirrored headers
 * (Mcp-Param-Region included: it answers 400 -32020 when they disagree with the body).
 */
import { fileURLToPath } from "node:url";
import { UpstreamClient, type UpstreamClientOptions } from "@mcpx/client";
import { type ElicitationHandler, MetaKey, type Result } from "@mcpx/core";
import { afterEach, describe, expect, it } from "vitest";
import { handlers, settings, testHost } from "../src/index.js";
import { startSdkV2Peer, type V2Peer, type V2Request } from "../src/sdk-v2-peer.js";
import { until } from "./modern-http.helpers.js";

const stdioServer = fileURLToPath(new URL("../fixtures/sdk-v2-stdio-server.mjs", import.meta.url));

const clients: UpstreamClient[] = [];
const peers: V2Peer[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const p of peers.splice(0)) await p.close();
});

async function connect(target: UpstreamClientOptions["target"], extra: Partial<UpstreamClientOptions> = {}) {
  const host = await testHost();
  const client = await UpstreamClient.connect({
    target,
    env: host,
    settings: settings({ requestTimeout: 15_000, handshakeTimeout: 15_000, listenReopenDelay: 100 }),
    ...extra,
  });
  clients.push(client);
  return { client, host };
}

async function peer(): Promise<V2Peer> {
  const p = await startSdkV2Peer();
  peers.push(p);
  return p;
}

const rpc = (r: V2Request) =>
  r.body as { id?: unknown; method?: string; params?: Record<string, unknown> } | undefined;
const posted = (p: V2Peer, method: string) => p.requests.filter((r) => rpc(r)?.method === method);

const confirm: ElicitationHandler = {
  name: "yes",
  modes: ["form"],
  handle: async (req) => {
    expect(req.message).toBe("Deploy to prod?");
    return { action: "accept", content: { confirm: true } };
  },
};

const text = (result: Result) => (result.content as { text: string }[])[0]?.text;

describe("real peer: the official TypeScript SDK v2 over Streamable HTTP", () => {
  it("sdk-v2/http/probe-finds-modern", async () => {
    const p = await peer();
    const { client } = await connect({ name: "v2", url: p.url });
    expect(client.negotiated.version).toBe("2026-07-28");
    expect(client.revision.era).toBe("modern");
    expect(client.transport.kind).toBe("streamable-http");
    expect(client.negotiated.serverInfo).toEqual({ name: "sdk-v2-fixture", version: "2.0.0" });
    expect((await client.listTools()).map((t) => t.name).sort()).toEqual(["confirm_deploy", "route"]);
    expect(await client.ping()).toMatchObject({ supportedVersions: expect.arrayContaining(["2026-07-28"]) });
    // never a legacy frame, never a session, never a GET; every POST's headers mirror its body
    expect(posted(p, "initialize")).toEqual([]);
    for (const r of p.requests) {
      expect(r.method).toBe("POST");
      expect(r.status, rpc(r)?.method).toBeLessThan(300);
      expect(r.headers).not.toHaveProperty("mcp-session-id");
      expect(r.headers["mcp-method"]).toBe(rpc(r)?.method);
      expect(r.headers["mcp-protocol-version"]).toBe(
        (rpc(r)?.params?._meta as Record<string, unknown> | undefined)?.[MetaKey.protocolVersion],
      );
    }
  });

  it("sdk-v2/http/x-mcp-header", async () => {
    const p = await peer();
    const { client } = await connect({ name: "v2", url: p.url });
    // a call before any list: mcpx lists first, so it knows to send Mcp-Param-Region
    expect(text(await client.callTool("route", { region: "eu-west1", query: "q1" }))).toBe(
      "routed q1 to eu-west1",
    );
    // values the SDK must decode from the Base64 sentinel to accept the call
    expect(text(await client.callTool("route", { region: "Zürich", query: "q2" }))).toBe(
      "routed q2 to Zürich",
    );
    expect(text(await client.callTool("route", { region: " padded ", query: "q3" }))).toBe(
      "routed q3 to  padded ",
    );
    expect(text(await client.callTool("route", { region: "=?base64?aGk=?=", query: "q4" }))).toBe(
      "routed q4 to =?base64?aGk=?=",
    );
    const calls = posted(p, "tools/call");
    expect(calls.map((r) => [r.status, r.headers["mcp-name"], r.headers["mcp-param-region"]])).toEqual([
      [200, "route", "eu-west1"],
      [200, "route", "=?base64?WsO8cmljaA==?="],
      [200, "route", "=?base64?IHBhZGRlZCA=?="],
      [200, "route", `=?base64?${Buffer.from("=?base64?aGk=?=").toString("base64")}?=`],
    ]);
    expect(posted(p, "tools/list")).toHaveLength(1);
  });

  it("sdk-v2/http/input-required", async () => {
    const p = await peer();
    const { client } = await connect(
      { name: "v2", url: p.url },
      { handlers: handlers({ elicitation: [confirm] }) },
    );
    expect(text(await client.callTool("confirm_deploy", { env: "prod" }))).toBe(
      "deployed to prod (state deploy:prod)",
    );
    const calls = posted(p, "tools/call");
    expect(calls).toHaveLength(2);
    expect(rpc(calls[0]!)?.id).not.toEqual(rpc(calls[1]!)?.id);
    const { _meta, ...retry } = rpc(calls[1]!)?.params ?? {};
    expect(retry).toEqual({
      name: "confirm_deploy",
      arguments: { env: "prod" },
      inputResponses: { confirm: { action: "accept", content: { confirm: true } } },
      requestState: "deploy:prod",
    });
    expect((_meta as Record<string, unknown>)[MetaKey.clientCapabilities]).toEqual({
      roots: {},
      elicitation: { form: {} },
    });
  });

  it("sdk-v2/http/list-changed", async () => {
    const p = await peer();
    const { client } = await connect({ name: "v2", url: p.url });
    await until(() => posted(p, "subscriptions/listen").length === 1);
    expect(rpc(posted(p, "subscriptions/listen")[0]!)?.params?.notifications).toEqual({
      toolsListChanged: true,
    });
    expect((await client.listTools()).map((t) => t.name)).not.toContain("added_later");
    const changed = new Promise((r) => client.onNotification("notifications/tools/list_changed", r));
    // the change is published to the streams open at that moment: wait for the SDK to hold ours
    await until(() => p.listening() === 1);
    p.addTool();
    await changed;
    expect((await client.listTools()).map((t) => t.name)).toContain("added_later");
    expect(text(await client.callTool("added_later", {}))).toBe("late but here");
  });
});

describe("real peer: the official TypeScript SDK v2 over stdio", () => {
  it("sdk-v2/stdio/probe-finds-modern", async () => {
    const { client, host } = await connect(
      { name: "v2", command: process.execPath, args: [stdioServer] },
      { handlers: handlers({ elicitation: [confirm] }) },
    );
    expect(client.negotiated.version).toBe("2026-07-28");
    expect(client.transport.kind).toBe("stdio");
    expect(client.negotiated.serverInfo?.name).toBe("sdk-v2-fixture");
    // over stdio the annotation is ignored (nothing to mirror into), and the call works all the same
    expect((await client.listTools()).map((t) => t.name).sort()).toEqual([
      "add_tool",
      "confirm_deploy",
      "route",
    ]);
    expect(text(await client.callTool("route", { region: "Zürich", query: "q" }))).toBe("routed q to Zürich");
    // input_required
    expect(text(await client.callTool("confirm_deploy", { env: "prod" }))).toBe(
      "deployed to prod (state deploy:prod)",
    );
    // a list change on the listen stream
    await until(() => client.listenId !== undefined);
    const changed = new Promise((r) => client.onNotification("notifications/tools/list_changed", r));
    await client.callTool("add_tool", {});
    await changed;
    expect((await client.listTools()).map((t) => t.name)).toContain("added_later");
    expect(host.events.filter((e) => e.type === "server.warning")).toEqual([]);
  });
});
