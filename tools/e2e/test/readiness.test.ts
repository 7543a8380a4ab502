/**
 * mcpx is ready when a host asks: the BUILT `mcpx` (apps/cli/dist/bin.js) run as a child process,
 * as MCP hosts run it, in front of upstreams that are slow to start (tools/e2e/fixtures/
 * slow-stdio-server.mjs answers nothing for a while) or dead. A host that lists tools right after
 * initialize sees every upstream that comes up within `upstream.timeouts.ready`; one that comes later
 * is announced with list_changed; a call to an upstream that is down or still connecting says so
 * (UpstreamUnavailableError, -31002), never "Unknown tool".
 */
import { join } from "node:path";
import { ErrorCode } from "@mcpx/core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import {
  BUILT_MCPX,
  processMarker,
  runBuiltMcpx,
  type SlowServerOptions,
  slowServer,
} from "../src/built-cli.js";
import { afterThisTest, configDir, freePort, until } from "../src/index.js";

/** A small close grace: the slow servers are ended quickly when the test closes mcpx. */
const UPSTREAM = { timeouts: { closeGrace: 300 } };

function server(marker: string, o: Omit<SlowServerOptions, "marker">) {
  return slowServer({ ...o, marker });
}

/** The official SDK v1 client on `mcpx stdio --config <dir>/mcpx.json` (the built CLI, a child process). */
async function stdioHost(dir: string): Promise<Client> {
  const client = new Client({ name: "readiness-test", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BUILT_MCPX, "stdio", "--config", join(dir, "mcpx.json")],
    cwd: dir,
    stderr: "pipe",
  });
  afterThisTest(() => client.close());
  await client.connect(transport);
  return client;
}

const names = (list: { tools: { name: string }[] }) => list.tools.map((t) => t.name).sort();

/** What a request failed with, as the SDK client sees it. */
async function failure(p: Promise<unknown>): Promise<McpError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  return err as McpError;
}

describe("readiness", () => {
  it("readiness/sdk-stdio-client-lists-every-upstream-on-its-first-tools-list", async () => {
    const marker = processMarker();
    const dir = await configDir({
      stateDir: ".state",
      upstream: UPSTREAM,
      servers: {
        quick: server(marker, { delayMs: 0, tool: "quick_echo" }),
        // Slow to start: it answers nothing (not even server/discover) for 1.5 s.
        slow: server(marker, { delayMs: 1500, tool: "slow_echo" }),
      },
    });
    const client = await stdioHost(dir);
    // The very first list, right after connect, as mcporter and hosts that ignore list_changed do.
    expect(names(await client.listTools())).toEqual(["quick__quick_echo", "slow__slow_echo"]);
  });

  it("readiness/serve-client-sees-every-upstream-at-once", async () => {
    const marker = processMarker();
    const port = await freePort();
    const dir = await configDir({
      listen: { host: "127.0.0.1", port },
      stateDir: ".state",
      upstream: UPSTREAM,
      servers: {
        quick: server(marker, { delayMs: 0, tool: "quick_echo" }),
        slow: server(marker, { delayMs: 1500, tool: "slow_echo" }),
      },
    });
    const daemon = runBuiltMcpx(["serve", "--config", "mcpx.json"], dir);
    afterThisTest(async () => {
      if (!daemon.hasExited()) daemon.child.kill("SIGTERM");
      await daemon.exited;
    });
    await until(() => daemon.stdout().includes("mcpx listening at "), 15_000);
    const url = /mcpx listening at (\S+)/.exec(daemon.stdout())?.[1] as string;
    const client = new Client({ name: "readiness-test", version: "1.0.0" });
    afterThisTest(() => client.close());
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect(names(await client.listTools())).toEqual(["quick__quick_echo", "slow__slow_echo"]);
  });

  it("readiness/bounded-by-upstream.timeouts.ready", async () => {
    const marker = processMarker();
    const dir = await configDir({
      stateDir: ".state",
      // Lists wait at most 3 s for upstreams still connecting.
      upstream: { timeouts: { ...UPSTREAM.timeouts, ready: 3000 } },
      servers: {
        quick: server(marker, { delayMs: 300, tool: "quick_echo" }),
        // Comes long after the bound.
        late: server(marker, { delayMs: 8000, tool: "late_echo" }),
      },
    });
    const client = await stdioHost(dir);
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes++;
    });
    // At the bound: the upstream that came in time, without the late one.
    expect(names(await client.listTools())).toEqual(["quick__quick_echo"]);
    const before = changes;
    // When the late one comes, the client is told, and it is listed.
    await until(() => changes > before, 20_000);
    expect(names(await client.listTools())).toEqual(["late__late_echo", "quick__quick_echo"]);
  }, 40_000);

  it("readiness/call-to-a-down-upstream-says-not-connected", async () => {
    const marker = processMarker();
    const dir = await configDir({
      stateDir: ".state",
      upstream: UPSTREAM,
      servers: {
        quick: server(marker, { delayMs: 0, tool: "echo" }),
        // Dies at start, every time (mcpx retries it with backoff).
        bad: server(marker, { delayMs: 0, tool: "echo", exitCode: 7 }),
      },
    });
    const client = await stdioHost(dir);
    const call = await failure(client.callTool({ name: "bad__echo", arguments: {} }));
    expect(call.code).toBe(ErrorCode.UpstreamUnavailable);
    expect(call.code).toBe(-31002);
    expect(call.message).toMatch(/^MCP error -31002: upstream bad is not connected: .*exited with code 7/);
    expect(call.message).not.toMatch(/Unknown tool/);
    expect(call.data).toEqual({ upstream: "bad", status: expect.any(String) });
    // A prompt get and a resource read routed to it say the same.
    const get = await failure(client.getPrompt({ name: "bad__greet" }));
    expect(get.code).toBe(-31002);
    expect(get.message).toMatch(/upstream bad is not connected: .*exited with code 7/);
    const read = await failure(client.readResource({ uri: "mcpx://bad/file:///notes.txt" }));
    expect(read.code).toBe(-31002);
    expect(read.message).toMatch(/upstream bad is not connected: .*exited with code 7/);
    // A name no configured upstream owns is still unknown, and the other upstream answers.
    const unknown = await failure(client.callTool({ name: "nobody__echo", arguments: {} }));
    expect(unknown.code).toBe(-32602);
    expect(unknown.message).toMatch(/Unknown tool: nobody__echo$/);
    const ok = await client.callTool({ name: "quick__echo", arguments: { text: "hi" } });
    expect(ok.content).toEqual([{ type: "text", text: 'echo: {"text":"hi"}' }]);
  });

  it("readiness/call-to-a-down-upstream-says-still-connecting", async () => {
    const marker = processMarker();
    const dir = await configDir({
      stateDir: ".state",
      upstream: { timeouts: { ...UPSTREAM.timeouts, ready: 500 } },
      servers: {
        // Still starting long after the ready bound (its first attempt is not over).
        slow: server(marker, { delayMs: 30_000, tool: "echo" }),
      },
    });
    const client = await stdioHost(dir);
    const call = await failure(client.callTool({ name: "slow__echo", arguments: {} }));
    expect(call.code).toBe(-31002);
    expect(call.message).toBe("MCP error -31002: upstream slow is still connecting");
    expect(call.data).toEqual({ upstream: "slow", status: "connecting" });
  });
});
