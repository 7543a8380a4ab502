import { defaultHandler, type Handler } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import {
  httpCase,
  label,
  posts,
  RESOURCES,
  requestsAfter,
  requirement,
  sseCase,
  TOOLS,
} from "../src/index.js";

/** Connects pinned to `rev`, exercises the connection (POSTs, the GET stream), and closes it (DELETE). */
async function exercise(versions: string[], pin: string) {
  const c = await httpCase({ versions, tools: TOOLS, resources: RESOURCES }, { answer: "sse" });
  const client = await c.connect({ revision: pin });
  await c.script.getStreamConnected();
  await client.listTools();
  await client.callTool("echo", { text: "hi" });
  await client.readResource("file:///a.txt");
  await client.ping();
  await client.close();
  return c;
}

describe("headers (legacy Streamable HTTP)", () => {
  requirement(
    ["2025-06-18/headers/version-after-initialize", "2025-11-25/headers/version-after-initialize"],
    async (rev) => {
      const c = await exercise([rev], rev);
      const later = requestsAfter(c.script, "initialize");
      expect(later.map((r) => r.httpMethod)).toEqual(expect.arrayContaining(["POST", "GET", "DELETE"]));
      for (const r of later) expect(r.headers["mcp-protocol-version"], label(r)).toBe(rev);
      expect(c.server.failures).toEqual([]);
    },
  );

  requirement(["2025-06-18/headers/negotiated-down"], async () => {
    // offered 2025-11-25; the server speaks 2025-06-18 only: from notifications/initialized on, every
    // request (POSTs, the GET stream, the DELETE) says 2025-06-18
    const c = await exercise(["2025-06-18"], "2025-11-25");
    expect(posts(c.script, "initialize")[0]?.frames[0]?.params?.protocolVersion).toBe("2025-11-25");
    const initialized = posts(c.script, "notifications/initialized")[0];
    expect(initialized?.headers["mcp-protocol-version"]).toBe("2025-06-18");
    const later = requestsAfter(c.script, "notifications/initialized");
    expect(later.map((r) => r.httpMethod)).toEqual(expect.arrayContaining(["POST", "GET", "DELETE"]));
    for (const r of later) expect(r.headers["mcp-protocol-version"], label(r)).toBe("2025-06-18");
    expect(c.server.failures).toEqual([]);
  });

  it("headers/negotiated-down-to-2025-03-26-sends-none", async () => {
    const c = await exercise(["2025-03-26"], "2025-11-25");
    for (const r of requestsAfter(c.script, "initialize")) {
      expect(r.headers, label(r)).not.toHaveProperty("mcp-protocol-version");
    }
    expect(c.server.failures).toEqual([]);
  });

  requirement(
    [
      "2025-03-26/headers/none-on-initialize",
      "2025-06-18/headers/none-on-initialize",
      "2025-11-25/headers/none-on-initialize",
    ],
    async (rev) => {
      const c = await exercise([rev], rev);
      const init = posts(c.script, "initialize");
      expect(init).toHaveLength(1);
      expect(init[0]?.headers).not.toHaveProperty("mcp-protocol-version");
      expect(c.server.failures).toEqual([]);
    },
  );

  requirement(["2025-03-26/headers/none-before-2025-06-18"], async () => {
    const c = await exercise(["2025-03-26"], "2025-03-26");
    expect(c.script.requests.map((r) => r.httpMethod)).toEqual(
      expect.arrayContaining(["POST", "GET", "DELETE"]),
    );
    for (const r of c.script.requests) expect(r.headers, label(r)).not.toHaveProperty("mcp-protocol-version");
    expect(c.server.failures).toEqual([]);
  });

  requirement(["2024-11-05/headers/none-before-2025-06-18"], async () => {
    // 2024-11-05 reached over Streamable HTTP (no GET stream in that revision) …
    const c = await httpCase({ versions: ["2024-11-05"], tools: TOOLS, resources: RESOURCES });
    const client = await c.connect({ revision: "2024-11-05" });
    expect(client.negotiated.version).toBe("2024-11-05");
    await client.listTools();
    await client.callTool("echo", { text: "hi" });
    await client.readResource("file:///a.txt");
    await client.ping();
    await client.close();
    expect(c.script.requests.map(label)).toEqual(
      expect.arrayContaining(["POST initialize", "POST tools/list", "POST tools/call", "POST ping"]),
    );
    for (const r of c.script.requests) expect(r.headers, label(r)).not.toHaveProperty("mcp-protocol-version");
    expect(c.server.failures).toEqual([]);
    // … and over its own HTTP+SSE: the stream's GET and every POST to the endpoint
    const s = await sseCase({ versions: ["2024-11-05"], tools: TOOLS });
    const overSse = await s.connect();
    await overSse.listTools();
    await overSse.callTool("echo", { text: "hi" });
    await overSse.close();
    expect(s.script.requests.map((r) => r.httpMethod)).toEqual(expect.arrayContaining(["GET", "POST"]));
    expect(s.script.requests.filter((r) => r.httpMethod === "POST").length).toBeGreaterThanOrEqual(3);
    for (const r of s.script.requests)
      expect(r.headers, r.httpMethod).not.toHaveProperty("mcp-protocol-version");
    expect(s.server.failures).toEqual([]);
  });
});

describe("sessions (legacy Streamable HTTP)", () => {
  it("sessions/id-after-initialize", async () => {
    const c = await exercise(["2025-11-25"], "2025-11-25");
    const [init, ...later] = c.script.requests;
    expect(label(init!)).toBe("POST initialize");
    expect(init?.headers).not.toHaveProperty("mcp-session-id");
    const minted = later[0]?.headers["mcp-session-id"];
    expect(minted).toMatch(/^sess-/);
    for (const r of later) expect(r.headers["mcp-session-id"], label(r)).toBe(minted);
    expect(c.server.failures).toEqual([]);
  });

  it("sessions/expired-404-reinitialize", async () => {
    const c = await httpCase({ versions: ["2025-11-25"], tools: TOOLS });
    const client = await c.connect({ revision: "2025-11-25" });
    await client.listTools();
    const first = c.script.sessionId;
    c.script.expireSession();
    // the 404 starts a new session (initialize without the id) and the request is sent once more
    expect(await client.listTools()).toHaveLength(2);
    const second = c.script.sessionId;
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    const lists = posts(c.script, "tools/list");
    expect(lists.map((r) => [r.headers["mcp-session-id"], r.status])).toEqual([
      [first, 200],
      [first, 404],
      [second, 200],
    ]);
    const inits = posts(c.script, "initialize");
    expect(inits).toHaveLength(2);
    expect(inits[1]?.headers).not.toHaveProperty("mcp-session-id");
    expect(posts(c.script, "notifications/initialized")[1]?.headers["mcp-session-id"]).toBe(second);
    // the GET stream of the new session
    const get = await c.script.waitForRequest(
      (r) => r.httpMethod === "GET" && r.headers["mcp-session-id"] === second,
    );
    expect(get.status).toBe(200);
    expect(c.server.failures).toEqual([]);
  });

  it("sessions/expired-404-concurrent-requests", async () => {
    const c = await httpCase({ versions: ["2025-11-25"], tools: TOOLS });
    const client = await c.connect({ revision: "2025-11-25" });
    const first = c.script.sessionId;
    c.script.expireSession();
    const [tools, pong] = await Promise.all([client.listTools(), client.ping()]);
    expect(tools).toHaveLength(2);
    expect(pong).toEqual({});
    // one new session; a late 404 for the old id did not wipe the new one
    expect(posts(c.script, "initialize")).toHaveLength(2);
    expect(c.script.sessionId).not.toBe(first);
    expect(await client.listTools()).toHaveLength(2);
    expect(posts(c.script, "tools/list").at(-1)?.headers["mcp-session-id"]).toBe(c.script.sessionId);
    expect(c.server.failures).toEqual([]);
  });

  it("sessions/request-during-a-new-handshake-waits-for-the-new-session", async () => {
    // The second initialize (after the 404) is held until a request made meanwhile has been sent.
    let hold: Promise<void> | undefined;
    let release: () => void = () => {};
    let holding: () => void = () => {};
    const held = new Promise<void>((r) => {
      holding = r;
    });
    const initialize: Handler = async (req, ctx) => {
      if (hold) {
        holding();
        await hold;
      }
      return defaultHandler("initialize")(req, ctx);
    };
    const c = await httpCase({ versions: ["2025-11-25"], tools: TOOLS, handlers: { initialize } });
    const client = await c.connect({ revision: "2025-11-25" });
    hold = new Promise<void>((r) => {
      release = r;
    });
    c.script.expireSession();
    const first = client.listTools();
    await held;
    // A request made while the new handshake is in flight: sent without a session, the server would
    // refuse it ("not initialized"); it waits for the new session instead.
    const during = client.ping();
    setTimeout(release, 100);
    expect(await first).toHaveLength(2);
    expect(await during).toEqual({});
    const pings = posts(c.script, "ping");
    expect(pings.map((r) => r.headers["mcp-session-id"])).toEqual([c.script.sessionId]);
    expect(c.server.failures).toEqual([]);
  });

  it("sessions/delete-on-close", async () => {
    const c = await httpCase({ versions: ["2025-06-18"] });
    const client = await c.connect({ revision: "2025-06-18" });
    const id = c.script.sessionId;
    await client.close();
    const deletes = c.script.requests.filter((r) => r.httpMethod === "DELETE");
    expect(deletes).toHaveLength(1);
    expect(deletes[0]?.headers["mcp-session-id"]).toBe(id);
    expect(deletes[0]?.headers["mcp-protocol-version"]).toBe("2025-06-18");
    expect(deletes[0]?.status).toBe(200);
    expect(c.script.sessionId).toBeUndefined();
    expect(c.server.failures).toEqual([]);
  });

  it("sessions/delete-refused-405", async () => {
    const c = await httpCase({ versions: ["2025-06-18"] }, { deleteSession: false });
    const client = await c.connect({ revision: "2025-06-18" });
    await client.close();
    expect(c.script.requests.filter((r) => r.httpMethod === "DELETE").map((r) => r.status)).toEqual([405]);
  });

  it("sessions/none-when-not-minted", async () => {
    const c = await httpCase({ versions: ["2025-11-25"], tools: TOOLS }, { sessions: false });
    const client = await c.connect({ revision: "2025-11-25" });
    await client.listTools();
    await client.close();
    for (const r of c.script.requests) expect(r.headers, label(r)).not.toHaveProperty("mcp-session-id");
    expect(c.script.requests.filter((r) => r.httpMethod === "DELETE")).toEqual([]);
    expect(c.server.failures).toEqual([]);
  });
});
