/**
 * A third-party revision plugin works on both sides: examples/plugin-revision, listed in the config
 * by path, registers "2099-01-01", derived from the registered 2025-11-25. mcpx pins it and speaks
 * it to an upstream that speaks nothing else, answers a client that offers it (over `mcpx stdio` and
 * `mcpx serve`), and one mcpx pinned to it lists the tools of another over Streamable HTTP.
 */
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import type { JSONObject } from "@mcpx/core";
import { serve, serveStdio } from "@mcpx/daemon";
import { ScriptedServer, stdioScript, strictValidate, type Validate } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { afterThisTest, configDir, daemonCase, freePort, mcpx, TOOLS, until } from "../src/index.js";
import { post } from "./gateway-http.helpers.js";

const PLUGIN = fileURLToPath(new URL("../../../examples/plugin-revision/index.js", import.meta.url));
const VERSION = "2099-01-01";

/**
 * The strict validators have no schema of 2099-01-01: what mcpx sends in it is checked as what it
 * is a copy of, 2025-11-25 (a 2026-07-28 key in it is still a failure).
 */
const validate: Validate = (revision, frame, forMethod) =>
  strictValidate(revision === VERSION ? "2025-11-25" : revision, frame, forMethod);

const http = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

/** A legacy client's session on mcpx's /mcp, opened with initialize offering `version`. */
async function session(url: string, version: string) {
  const init = await post(
    url,
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "t", version: "1" } },
    },
    http,
  );
  const sid = init.headers.get("mcp-session-id") ?? "";
  const headers = { ...http, "mcp-session-id": sid, "mcp-protocol-version": version };
  await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers);
  let id = 2;
  return {
    init: (await init.json()) as { result: JSONObject },
    async request(method: string, params: JSONObject = {}) {
      const res = await post(url, { jsonrpc: "2.0", id: id++, method, params }, headers);
      return { status: res.status, body: (await res.json()) as { result?: JSONObject; error?: JSONObject } };
    },
  };
}

describe("a third-party revision plugin, on both sides", () => {
  it("revision-plugin/pinned-2099-01-01-validates-and-an-upstream-speaking-only-it-connects", async () => {
    const server = new ScriptedServer({ versions: [VERSION], tools: TOOLS, validate });
    const script = await stdioScript(server);
    afterThisTest(() => script.close());
    const up = { command: script.command, args: script.args, revision: VERSION };
    // without the plugin, the pin names a revision no installed plugin provides
    const without = await configDir({ servers: { up } });
    const refused = await mcpx(without, "config", "check");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`"${VERSION}" is not a revision any installed plugin provides`);
    // with it, the pin validates and the upstream, which speaks only 2099-01-01, connects
    const dir = await configDir({ servers: { up }, plugins: [PLUGIN] });
    const check = await mcpx(dir, "config", "check");
    expect(check.stderr).toBe("");
    expect(check.code).toBe(0);
    const out = await mcpx(dir, "tools", "list", "--json");
    expect(out.code).toBe(0);
    const listed = JSON.parse(out.stdout) as { servers: { revision?: string; tools: { name: string }[] }[] };
    expect(listed.servers[0]).toMatchObject({ revision: VERSION, transport: "stdio" });
    expect(listed.servers[0]?.tools.map((t) => t.name)).toEqual(TOOLS.map((t) => `up__${t.name}`));
    // offered as itself, and every later frame is 2099-01-01's (checked as 2025-11-25)
    expect(server.frames("initialize")[0]?.params?.protocolVersion).toBe(VERSION);
    expect(server.received.every((r) => r.revision === VERSION)).toBe(true);
    expect(server.failures).toEqual([]);
  });

  it("revision-plugin/mcpx-stdio-answers-a-client-offering-2099-01-01", async () => {
    const server = new ScriptedServer({ versions: ["2025-11-25"], tools: TOOLS });
    const script = await stdioScript(server);
    afterThisTest(() => script.close());
    const dir = await configDir({
      servers: { up: { command: script.command, args: script.args } },
      plugins: [PLUGIN],
    });
    const input = new PassThrough();
    const output = new PassThrough();
    const frames: JSONObject[] = [];
    let buffer = "";
    output.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      for (let at = buffer.indexOf("\n"); at >= 0; at = buffer.indexOf("\n")) {
        frames.push(JSON.parse(buffer.slice(0, at)) as JSONObject);
        buffer = buffer.slice(at + 1);
      }
    });
    const stdio = await serveStdio({
      configFile: join(dir, "mcpx.json"),
      stateDir: join(dir, ".state"),
      input,
      output,
      writeLog: () => {},
      logLevel: "error",
    });
    afterThisTest(() => stdio.stop());
    await stdio.runtime.gateway.pool.settled();
    const answer = async (id: number) => {
      await until(() => frames.some((f) => f.id === id));
      return frames.find((f) => f.id === id) as { result?: JSONObject; error?: JSONObject };
    };
    const send = (frame: JSONObject) => input.write(`${JSON.stringify({ jsonrpc: "2.0", ...frame })}\n`);
    send({
      id: 1,
      method: "initialize",
      params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    expect((await answer(1)).result).toMatchObject({
      protocolVersion: VERSION,
      serverInfo: { name: "mcpx" },
      capabilities: { tools: { listChanged: true }, completions: {} },
    });
    send({ method: "notifications/initialized" });
    send({ id: 2, method: "tools/list" });
    const list = (await answer(2)).result as { tools: { name: string }[] };
    expect(list.tools.map((t) => t.name)).toEqual(TOOLS.map((t) => `up__${t.name}`));
    // as 2025-11-25 writes them: none of 2026-07-28's result keys
    expect(list).not.toHaveProperty("resultType");
    send({ id: 3, method: "tools/call", params: { name: "up__echo", arguments: { text: "hi" } } });
    expect((await answer(3)).result).toEqual({ content: [{ type: "text", text: '{"text":"hi"}' }] });
    expect(stdio.runtime.gateway.peers[0]?.revision?.version).toBe(VERSION);
  });

  it("revision-plugin/mcpx-serve-answers-a-client-offering-2099-01-01", async () => {
    const d = await daemonCase([{ name: "up", versions: ["2025-11-25"], tools: TOOLS }], {
      plugins: [PLUGIN],
    });
    const s = await session(d.url, VERSION);
    expect(s.init.result).toMatchObject({ protocolVersion: VERSION, serverInfo: { name: "mcpx" } });
    const list = await s.request("tools/list");
    expect(list.status).toBe(200);
    expect(((list.body.result?.tools ?? []) as { name: string }[]).map((t) => t.name)).toEqual(
      TOOLS.map((t) => `up__${t.name}`),
    );
    const call = await s.request("tools/call", { name: "up__echo", arguments: { text: "hi" } });
    expect(call.body.result).toEqual({ content: [{ type: "text", text: '{"text":"hi"}' }] });
    expect(d.serving.runtime.gateway.peers[0]?.revision?.version).toBe(VERSION);
    // mcpx serves the plugin's revision, and says so in what it lists (a -32022 to a modern request)
    const modern = await post(
      d.url,
      {
        jsonrpc: "2.0",
        id: 9,
        method: "tools/list",
        params: {
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "1999-01-01",
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      },
      http,
    );
    const refusal = (await modern.json()) as { error: { code: number; data: { supported: string[] } } };
    expect(refusal.error.code).toBe(-32022);
    expect(refusal.error.data.supported).toContain(VERSION);
  });

  it("revision-plugin/mcpx-pinned-to-2099-01-01-lists-another-mcpx-over-streamable-http", async () => {
    // the back mcpx, with the plugin, fronting a scripted upstream
    const back = await daemonCase([{ name: "inner", versions: ["2025-11-25"], tools: TOOLS }], {
      plugins: [PLUGIN],
    });
    // the front mcpx, with the plugin, whose only upstream is the back one's /mcp, pinned
    const port = await freePort();
    const dir = await configDir({
      listen: { host: "127.0.0.1", port },
      servers: { back: { url: back.url, revision: VERSION, transport: "streamable-http" } },
      plugins: [PLUGIN],
      stateDir: ".state",
    });
    const front = await serve({ configFile: join(dir, "mcpx.json"), writeLog: () => {}, logLevel: "error" });
    afterThisTest(() => front.stop());
    await front.runtime.gateway.pool.settled();
    expect(front.runtime.gateway.pool.states()[0]).toMatchObject({
      status: "connected",
      revision: VERSION,
      transport: "streamable-http",
    });
    const tools = await front.runtime.gateway.catalog.list("tools");
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => `back__inner__${t.name}`));
    // the back mcpx served the front one a 2099-01-01 session
    expect(back.serving.runtime.gateway.peers.map((p) => p.revision?.version)).toEqual([VERSION]);
    // and a call goes through both
    const s = await session(front.url, "2025-11-25");
    const call = await s.request("tools/call", { name: "back__inner__echo", arguments: { text: "hi" } });
    expect(call.body.result).toEqual({ content: [{ type: "text", text: '{"text":"hi"}' }] });
    expect(back.scripted.inner?.failures).toEqual([]);
  });
});
