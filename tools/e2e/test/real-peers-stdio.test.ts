import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { UpstreamClient } from "@mcpx/client";
import { type ElicitationHandler, InvalidParamsError, ResourceNotFoundError } from "@mcpx/core";
import { afterEach, describe, expect, it } from "vitest";
import { handlers, LEGACY, settings, testHost } from "../src/index.js";

const require = createRequire(import.meta.url);
const sdkServer = fileURLToPath(new URL("../fixtures/sdk-stdio-server.mjs", import.meta.url));
const everything = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");

const open: UpstreamClient[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

async function connect(command: string, args: string[], revision?: string, extra = {}) {
  const host = await testHost();
  const client = await UpstreamClient.connect({
    target: { name: "peer", command, args },
    env: host,
    settings: settings({ requestTimeout: 15_000, handshakeTimeout: 15_000 }),
    ...(revision ? { revision } : {}),
    ...extra,
  });
  open.push(client);
  return client;
}

describe("real peers over stdio: the official TypeScript SDK v1", () => {
  for (const rev of LEGACY) {
    it(`sdk-v1/stdio/pinned ${rev}`, async () => {
      const client = await connect(process.execPath, [sdkServer], rev);
      expect(client.negotiated.version).toBe(rev);
      expect(client.negotiated.serverInfo?.name).toBe("sdk-fixture");
      const tools = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(["ask_name", "echo"]);
      expect(await client.callTool("echo", { text: "hi" })).toMatchObject({
        content: [{ type: "text", text: "echo: hi" }],
      });
      const read = await client.readResource("file:///readme.txt");
      expect(read.contents).toEqual([{ uri: "file:///readme.txt", mimeType: "text/plain", text: "read me" }]);
      const templated = await client.readResource("note://7");
      expect(templated.contents).toEqual([{ uri: "note://7", text: "note 7" }]);
      const prompt = await client.getPrompt("greet", { who: "Ada" });
      expect(prompt.messages).toEqual([
        { role: "user", content: { type: "text", text: "Say hello to Ada" } },
      ]);
      expect(await client.ping()).toEqual({});
      await client.setLogLevel("info");
    });
  }

  it("sdk-v1/stdio/unknown-resource", async () => {
    const client = await connect(process.execPath, [sdkServer], "2025-06-18");
    const err = await client.readResource("file:///nope").catch((e) => e);
    // SDK v1 answers -32602 for an unknown resource; on a legacy revision that stays invalid params
    expect(err).toBeInstanceOf(InvalidParamsError);
    expect(err).not.toBeInstanceOf(ResourceNotFoundError);
    expect(err.message).toMatch(/not found/i);
  });

  it("sdk-v1/stdio/elicitation-during-call", async () => {
    const answer: ElicitationHandler = {
      name: "test",
      modes: ["form"],
      handle: async () => ({ action: "accept", content: {} }),
    };
    const client = await connect(process.execPath, [sdkServer], undefined, {
      handlers: handlers({ elicitation: [answer] }),
    });
    expect(client.negotiated.version).toBe("2025-11-25");
    // the answer left the name out; mcpx filled it from the schema's default
    expect(await client.callTool("ask_name", {})).toMatchObject({
      content: [{ type: "text", text: "hello stranger" }],
    });
  });
});

describe("real peers over stdio: @modelcontextprotocol/server-everything", () => {
  it("server-everything/stdio/list-call-read-get-page", async () => {
    const client = await connect(process.execPath, [everything, "stdio"]);
    expect(["2025-11-25", "2025-06-18"]).toContain(client.negotiated.version);
    const tools = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("echo");
    expect(await client.callTool("echo", { message: "through mcpx" })).toMatchObject({
      content: [{ type: "text", text: expect.stringContaining("through mcpx") }],
    });
    const resources = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    const first = resources[0] as { uri: string };
    const read = await client.readResource(first.uri);
    expect(Array.isArray(read.contents)).toBe(true);
    const prompts = await client.listPrompts();
    expect(prompts.length).toBeGreaterThan(0);
    const simple = prompts.find(
      (p) => !(p as { arguments?: { required?: boolean }[] }).arguments?.some((a) => a.required),
    );
    expect(simple).toBeDefined();
    const got = await client.getPrompt((simple as { name: string }).name);
    expect(Array.isArray(got.messages)).toBe(true);
    const templates = await client.listResourceTemplates();
    expect(Array.isArray(templates)).toBe(true);
  });
});
