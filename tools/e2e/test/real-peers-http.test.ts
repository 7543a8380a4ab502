import { UpstreamClient, type UpstreamClientOptions } from "@mcpx/client";
import type { ElicitationHandler } from "@mcpx/core";
import { afterEach, describe, expect, it } from "vitest";
import { handlers, settings, startEverything, testHost } from "../src/index.js";
import { type SdkMode, type SdkPeer, startSdkPeer } from "../src/sdk-http-peer.js";

const clients: UpstreamClient[] = [];
const peers: SdkPeer[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const p of peers.splice(0)) await p.close();
});

async function connect(url: string, extra: Partial<Omit<UpstreamClientOptions, "target" | "env">> = {}) {
  const client = await UpstreamClient.connect({
    target: { name: "peer", url },
    env: await testHost(),
    settings: settings({ requestTimeout: 15_000, handshakeTimeout: 15_000 }),
    ...extra,
  });
  clients.push(client);
  return client;
}

async function sdk(mode: SdkMode): Promise<SdkPeer> {
  const peer = await startSdkPeer(mode);
  peers.push(peer);
  return peer;
}

const STREAMABLE = ["2025-03-26", "2025-06-18", "2025-11-25"] as const;

describe("real peers over HTTP: the official TypeScript SDK v1", () => {
  for (const mode of ["stateful", "stateless"] as const) {
    for (const rev of STREAMABLE) {
      it(`sdk-v1/streamable-http/${mode} ${rev}`, async () => {
        const peer = await sdk(mode);
        const client = await connect(peer.url, { revision: rev });
        expect(client.negotiated.version).toBe(rev);
        expect(client.transport.kind).toBe("streamable-http");
        expect(client.negotiated.serverInfo?.name).toBe("sdk-http-fixture");
        const tools = await client.listTools();
        expect(tools.map((t) => t.name).sort()).toEqual(["ask_name", "echo"]);
        expect(await client.callTool("echo", { text: "hi" })).toMatchObject({
          content: [{ type: "text", text: "echo: hi" }],
        });
        const read = await client.readResource("file:///readme.txt");
        expect(read.contents).toEqual([
          { uri: "file:///readme.txt", mimeType: "text/plain", text: "read me" },
        ]);
        expect(await client.ping()).toEqual({});
        await client.setLogLevel("info");
      });
    }

    it(`sdk-v1/streamable-http/${mode} unpinned (era probe, then initialize)`, async () => {
      const peer = await sdk(mode);
      const client = await connect(peer.url);
      expect(client.negotiated.version).toBe("2025-11-25");
      expect(await client.callTool("echo", { text: "probed" })).toMatchObject({
        content: [{ type: "text", text: "echo: probed" }],
      });
    });
  }

  for (const rev of ["2025-06-18", "2025-11-25"] as const) {
    it(`sdk-v1/streamable-http/elicitation-during-call ${rev}`, async () => {
      const peer = await sdk("stateful");
      const seen: string[] = [];
      const answer: ElicitationHandler = {
        name: "test",
        modes: ["form"],
        handle: async (req) => {
          seen.push(req.message);
          return { action: "accept", content: {} };
        },
      };
      const client = await connect(peer.url, {
        revision: rev,
        handlers: handlers({ elicitation: [answer] }),
      });
      // server.request() inside the tool handler goes to the GET stream, which mcpx opened
      expect(await client.callTool("ask_name", {})).toMatchObject({
        content: [{ type: "text", text: "hello stranger" }],
      });
      expect(seen).toEqual(["What is your name?"]);
    });
  }

  it("sdk-v1/http-sse 2024-11-05", async () => {
    const peer = await sdk("sse");
    const client = await connect(peer.url, { transport: "http+sse", revision: "2024-11-05" });
    expect(client.negotiated.version).toBe("2024-11-05");
    expect(client.transport.kind).toBe("http+sse");
    expect((await client.listTools()).map((t) => t.name).sort()).toEqual(["ask_name", "echo"]);
    expect(await client.callTool("echo", { text: "old" })).toMatchObject({
      content: [{ type: "text", text: "echo: old" }],
    });
    const read = await client.readResource("file:///readme.txt");
    expect(read.contents).toEqual([{ uri: "file:///readme.txt", mimeType: "text/plain", text: "read me" }]);
    expect(await client.ping()).toEqual({});
  });
});

async function listCallRead(client: UpstreamClient) {
  expect((await client.listTools()).map((t) => t.name)).toContain("echo");
  expect(await client.callTool("echo", { message: "through mcpx" })).toMatchObject({
    content: [{ type: "text", text: expect.stringContaining("through mcpx") }],
  });
  const resources = await client.listResources();
  expect(resources.length).toBeGreaterThan(0);
  const read = await client.readResource((resources[0] as { uri: string }).uri);
  expect(Array.isArray(read.contents)).toBe(true);
}

describe("real peers over HTTP: @modelcontextprotocol/server-everything", () => {
  it("server-everything/streamable-http/list-call-read", async () => {
    const base = await startEverything("streamableHttp");
    const client = await connect(`${base}/mcp`);
    expect(client.transport.kind).toBe("streamable-http");
    expect(["2025-11-25", "2025-06-18"]).toContain(client.negotiated.version);
    await listCallRead(client);
  });

  it("server-everything/http-sse/list-call-read", async () => {
    const base = await startEverything("sse");
    const client = await connect(`${base}/sse`, { transport: "http+sse", revision: "2024-11-05" });
    expect(client.negotiated.version).toBe("2024-11-05");
    await listCallRead(client);
  });
});
