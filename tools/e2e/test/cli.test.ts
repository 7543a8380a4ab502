import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { afterThisTest, configDir, EVERYTHING, mcpx, startEverything } from "../src/index.js";
import { startSdkV2Peer } from "../src/sdk-v2-peer.js";

const SDK_V2_STDIO = fileURLToPath(new URL("../fixtures/sdk-v2-stdio-server.mjs", import.meta.url));

const everything = { command: process.execPath, args: [EVERYTHING, "stdio"] };

describe("the mcpx command without a daemon", () => {
  it("cli/tools-list-server-everything", async () => {
    const dir = await configDir({ servers: { everything } });
    const human = await mcpx(dir, "tools", "list");
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^everything: 2025-11-25 over stdio, \d+ tools$/m);
    expect(human.stdout).toMatch(/^ {2}everything__echo +Echoes back the input string$/m);
    const json = await mcpx(dir, "tools", "list", "--json");
    const parsed = JSON.parse(json.stdout) as {
      servers: {
        server: string;
        revision: string;
        transport: string;
        tools: { name: string; original: string }[];
      }[];
    };
    expect(parsed.servers[0]).toMatchObject({
      server: "everything",
      status: "connected",
      revision: "2025-11-25",
      transport: "stdio",
    });
    expect(parsed.servers[0]?.tools).toContainEqual(
      expect.objectContaining({ name: "everything__echo", original: "echo" }),
    );
  });

  it("cli/tools-list-dead-upstream-does-not-hold-up-the-rest", async () => {
    const dir = await configDir({ servers: { everything, dead: { command: "/nonexistent/mcp-server" } } });
    const out = await mcpx(dir, "tools", "list");
    // Exit 3: an upstream is unreachable (it was 1 before exit codes were given meanings).
    expect(out.code).toBe(3);
    expect(out.stdout).toContain("everything: 2025-11-25 over stdio");
    expect(out.stdout).toMatch(
      /^dead: failed \(upstream dead: cannot run \/nonexistent\/mcp-server: .*ENOENT\)$/m,
    );
  });

  it("cli/call-read-get", async () => {
    const dir = await configDir({ servers: { ev: everything } });
    const call = await mcpx(dir, "call", "ev__echo", '{"message":"through mcpx"}');
    expect(call).toMatchObject({ code: 0, stdout: "Echo: through mcpx\n" });
    const sum = await mcpx(dir, "call", "ev__get-sum", "--arg", "a=2", "--arg", "b=3", "--json");
    expect(JSON.parse(sum.stdout).content[0].text).toMatch(/5/);
    const resources = await mcpx(dir, "resources", "list");
    const first = resources.stdout.split("\n")[0]?.split("  ")[0] ?? "";
    expect(first).toMatch(/^mcpx:\/\/ev\//);
    const read = await mcpx(dir, "resources", "read", first);
    expect(read.code).toBe(0);
    const bad = await mcpx(dir, "call", "ev__echo", "{not json");
    // Exit 2: a usage error (it was 1 before exit codes were given meanings).
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/arguments are not valid JSON/);
  });

  it("cli/era-show-and-forget", async () => {
    const dir = await configDir({ servers: { everything } });
    expect((await mcpx(dir, "era", "show")).stdout).toBe("no era records\n");
    await mcpx(dir, "tools", "list");
    const shown = await mcpx(dir, "era", "show", "--json");
    const eras = JSON.parse(shown.stdout).eras as Record<
      string,
      { revision: string; transport: string; probedAt: string }
    >;
    expect(eras.everything).toMatchObject({ revision: "2025-11-25", transport: "stdio" });
    expect((await mcpx(dir, "era", "forget", "everything")).stdout).toBe("forgot the era of everything\n");
    expect((await mcpx(dir, "era", "show")).stdout).toBe("no era records\n");
    expect((await mcpx(dir, "era", "forget", "nobody")).code).toBe(1);
  });

  it("cli/plugins-list", async () => {
    const dir = await configDir({ servers: { everything } });
    const out = await mcpx(dir, "plugins", "list", "--json");
    const parsed = JSON.parse(out.stdout);
    expect(parsed.revisions).toEqual([
      "2026-07-28 (modern)",
      "2025-11-25 (legacy)",
      "2025-06-18 (legacy)",
      "2025-03-26 (legacy)",
      "2024-11-05 (legacy)",
    ]);
    expect(parsed.transports).toContain("stdio");
    expect(parsed.authSchemes).toEqual(expect.arrayContaining(["bearer", "basic", "header", "env", "query"]));
  });

  it("cli/bad-config-exit-2", async () => {
    const dir = await configDir({ servers: { x: { command: 5 } } });
    const out = await mcpx(dir, "tools", "list");
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("servers.x.command: must be string");
  });
});

describe("mcpx tools list over every transport, no pins", () => {
  it("cli/tools-list-server-everything-http-modes", async () => {
    const streamable = await startEverything("streamableHttp");
    const sse = await startEverything("sse");
    const dir = await configDir({
      servers: { streamable: { url: `${streamable}/mcp` }, legacy: { url: `${sse}/sse` } },
    });
    const out = await mcpx(dir, "tools", "list");
    expect(out.code).toBe(0);
    // the era probe finds Streamable HTTP on one, and falls back to HTTP+SSE on the other
    expect(out.stdout).toMatch(/^streamable: 2025-11-25 over streamable-http, \d+ tools$/m);
    expect(out.stdout).toMatch(/^legacy: 2024-11-05 over http\+sse, \d+ tools$/m);
    expect(out.stdout).toMatch(/^ {2}streamable__echo +Echoes back the input string$/m);
    expect(out.stdout).toMatch(/^ {2}legacy__echo +Echoes back the input string$/m);
    const json = JSON.parse((await mcpx(dir, "tools", "list", "--json")).stdout) as {
      servers: { server: string; revision: string; transport: string }[];
    };
    expect(json.servers.map((s) => [s.server, s.revision, s.transport])).toEqual([
      ["streamable", "2025-11-25", "streamable-http"],
      ["legacy", "2024-11-05", "http+sse"],
    ]);
  });

  it("cli/tools-list-modern-stdio-and-http", async () => {
    const peer = await startSdkV2Peer();
    afterThisTest(() => peer.close());
    const dir = await configDir({
      servers: {
        v2stdio: { command: process.execPath, args: [SDK_V2_STDIO] },
        v2http: { url: peer.url },
      },
    });
    const out = await mcpx(dir, "tools", "list");
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^v2stdio: 2026-07-28 over stdio, \d+ tools?$/m);
    expect(out.stdout).toMatch(/^v2http: 2026-07-28 over streamable-http, \d+ tools?$/m);
  });
});
