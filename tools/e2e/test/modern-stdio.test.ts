import {
  type ElicitationHandler,
  type HandshakeContext,
  InvalidResultError,
  MetaKey,
  type PluginHost,
  RequestTimeoutError,
  ResourceNotFoundError,
  type Revision,
  UnsupportedProtocolVersionError,
} from "@mcpx/core";
import { discoverHandshake } from "@mcpx/revision-2026-07-28";
import { defaultHandler, NO_ANSWER } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { futureRevision, handlers, metaOf, RESOURCES, settings, stdioCase, TOOLS } from "../src/index.js";

const M = ["2026-07-28"];

describe("2026-07-28 over stdio", () => {
  it("2026-07-28/lifecycle/roots-capability", async () => {
    const c = await stdioCase({ versions: M, tools: TOOLS });
    const client = await c.connect();
    await client.listTools();
    const frames = c.server.frames().filter((f) => f.id !== undefined);
    expect(frames.map((f) => f.method)).toEqual(["server/discover", "tools/list"]);
    for (const f of frames) {
      expect(metaOf(f)[MetaKey.clientCapabilities]).toEqual({ roots: {}, elicitation: { form: {} } });
      expect(metaOf(f)[MetaKey.protocolVersion]).toBe("2026-07-28");
      expect(metaOf(f)[MetaKey.clientInfo]).toMatchObject({ name: "mcpx" });
    }
    expect(c.server.frames("initialize")).toEqual([]);
    expect(c.server.failures).toEqual([]);
  });

  it("2026-07-28/lifecycle/no-ping", async () => {
    const c = await stdioCase({ versions: M });
    const client = await c.connect();
    const answer = await client.ping();
    expect(answer.supportedVersions).toEqual(M);
    expect(c.server.frames("ping")).toEqual([]);
    expect(c.server.frames("server/discover")).toHaveLength(2);
    expect(c.server.failures).toEqual([]);
  });

  it("2026-07-28/lifecycle/log-level-in-meta", async () => {
    const c = await stdioCase({ versions: M, tools: TOOLS });
    const client = await c.connect();
    await client.listTools();
    await client.setLogLevel("info");
    await client.listTools();
    await client.callTool("echo", { text: "x" });
    expect(c.server.frames("logging/setLevel")).toEqual([]);
    const [before, ...after] = [...c.server.frames("tools/list"), ...c.server.frames("tools/call")];
    expect(metaOf(before)).not.toHaveProperty(MetaKey.logLevel);
    for (const f of after) expect(metaOf(f)[MetaKey.logLevel]).toBe("info");
    expect(c.server.failures).toEqual([]);
  });

  it("2026-07-28/results/absent-is-complete", async () => {
    const c = await stdioCase({
      versions: M,
      tools: TOOLS,
      handlers: { "tools/call": () => ({ content: [{ type: "text", text: "no resultType" }] }) },
    });
    const client = await c.connect();
    expect(await client.callTool("echo", {})).toEqual({ content: [{ type: "text", text: "no resultType" }] });
  });

  it("2026-07-28/results/known-types", async () => {
    const c = await stdioCase({
      versions: M,
      tools: TOOLS,
      handlers: {
        "tools/call": (req) =>
          req.params?.requestState === "s1"
            ? { resultType: "complete", content: [{ type: "text", text: "after input" }] }
            : { resultType: "input_required", requestState: "s1" },
      },
    });
    const client = await c.connect();
    expect(await client.callTool("echo", {})).toEqual({
      resultType: "complete",
      content: [{ type: "text", text: "after input" }],
    });
    expect(c.server.failures).toEqual([]);
  });

  it("2026-07-28/results/unknown-type", async () => {
    const c = await stdioCase({
      versions: M,
      tools: TOOLS,
      handlers: { "tools/call": () => ({ resultType: "task", task: { taskId: "t1" } }) },
    });
    const client = await c.connect();
    const err = await client.callTool("echo", {}).catch((e) => e);
    expect(err).toBeInstanceOf(InvalidResultError);
    expect(err.message).toContain('"task"');
  });

  it("2026-07-28/results/input-required-round", async () => {
    const asked: string[] = [];
    const form: ElicitationHandler = {
      name: "t",
      modes: ["form"],
      handle: async (req) => {
        asked.push(req.message);
        return { action: "accept", content: { city: "Oslo" } };
      },
    };
    let round = 0;
    const c = await stdioCase({
      versions: M,
      tools: TOOLS,
      handlers: {
        "tools/call": (req) => {
          round++;
          if (round === 1) {
            return {
              resultType: "input_required",
              requestState: "state-1",
              inputRequests: {
                where: {
                  method: "elicitation/create",
                  params: {
                    mode: "form",
                    message: "Which city?",
                    requestedSchema: {
                      type: "object",
                      properties: { city: { type: "string" }, units: { type: "string", default: "metric" } },
                    },
                  },
                },
                roots: { method: "roots/list" },
              },
            };
          }
          if (round === 2) return { resultType: "input_required", requestState: "state-2" };
          return { resultType: "complete", content: [{ type: "text", text: JSON.stringify(req.params) }] };
        },
      },
    });
    const client = await c.connect({
      handlers: handlers({ elicitation: [form], roots: () => [{ uri: "file:///w", name: "w" }] }),
    });
    await client.callTool("add", { a: 1, b: 2 });
    expect(asked).toEqual(["Which city?"]);
    const calls = c.server.frames("tools/call");
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((f) => f.id)).size).toBe(3);
    const { _meta: _m1, ...second } = calls[1]?.params ?? {};
    expect(second).toEqual({
      name: "add",
      arguments: { a: 1, b: 2 },
      inputResponses: {
        where: { action: "accept", content: { city: "Oslo", units: "metric" } },
        roots: { roots: [{ uri: "file:///w", name: "w" }] },
      },
      requestState: "state-1",
    });
    const { _meta: _m2, ...third } = calls[2]?.params ?? {};
    // each retry carries that round's answers only: none were asked this time, and the new state
    expect(third).toEqual({
      name: "add",
      arguments: { a: 1, b: 2 },
      inputResponses: {},
      requestState: "state-2",
    });
    expect(c.server.failures).toEqual([]);
  });

  it("results/input-required-bounded", async () => {
    const c = await stdioCase({
      versions: M,
      tools: TOOLS,
      handlers: { "tools/call": () => ({ resultType: "input_required", requestState: "again" }) },
    });
    const client = await c.connect({ settings: settings({ maxInputRounds: 3 }) });
    const err = await client.callTool("echo", {}).catch((e) => e);
    expect(err).toBeInstanceOf(InvalidResultError);
    expect(err.message).toMatch(/still asked for input after 3 rounds/);
    expect(c.server.frames("tools/call")).toHaveLength(3);
  });

  it("2026-07-28/elicitation/defaults", async () => {
    let round = 0;
    const c = await stdioCase({
      versions: M,
      tools: TOOLS,
      handlers: {
        "tools/call": (req) => {
          if (++round === 2)
            return {
              resultType: "complete",
              content: [],
              structuredContent: req.params?.inputResponses as Record<string, unknown>,
            };
          return {
            resultType: "input_required",
            inputRequests: {
              q: {
                method: "elicitation/create",
                params: {
                  mode: "form",
                  message: "?",
                  requestedSchema: {
                    type: "object",
                    properties: {
                      name: { type: "string", default: "Ada" },
                      n: { type: "integer", default: 3 },
                    },
                  },
                },
              },
            },
          };
        },
      },
    });
    const form: ElicitationHandler = {
      name: "t",
      modes: ["form"],
      handle: async () => ({ action: "accept", content: { name: "Grace" } }),
    };
    const client = await c.connect({ handlers: handlers({ elicitation: [form] }) });
    const result = await client.callTool("echo", {});
    expect(result.structuredContent).toEqual({ q: { action: "accept", content: { name: "Grace", n: 3 } } });
  });

  it("2026-07-28/elicitation/nobody-listening", async () => {
    let round = 0;
    const c = await stdioCase({
      versions: M,
      tools: TOOLS,
      handlers: {
        "tools/call": (req) =>
          ++round === 2
            ? {
                resultType: "complete",
                content: [],
                structuredContent: req.params?.inputResponses as Record<string, unknown>,
              }
            : {
                resultType: "input_required",
                inputRequests: {
                  q: {
                    method: "elicitation/create",
                    params: {
                      mode: "form",
                      message: "?",
                      requestedSchema: { type: "object", properties: {} },
                    },
                  },
                },
              },
      },
    });
    const client = await c.connect();
    const result = await client.callTool("echo", {});
    expect(result.structuredContent).toEqual({ q: { action: "cancel" } });
    expect(c.server.failures).toEqual([]);
  });

  it("2026-07-28/errors/not-found-32002", async () => {
    const c = await stdioCase({
      versions: M,
      handlers: {
        "resources/read": () => ({ error: { code: -32002, message: "gone", data: { uri: "file:///gone" } } }),
      },
    });
    const client = await c.connect();
    // A URI the schema accepts ("format": "uri"): the strict check fails a test on a bare "x".
    const err = await client.readResource("file:///gone").catch((e) => e);
    expect(err).toBeInstanceOf(ResourceNotFoundError);
    expect(err.wireCode).toBe(-32002);
  });

  it("2026-07-28/errors/not-found-32602", async () => {
    const c = await stdioCase({ versions: M, resources: RESOURCES });
    const client = await c.connect();
    expect((await client.readResource("file:///a.txt")).contents).toHaveLength(1);
    const err = await client.readResource("file:///missing").catch((e) => e);
    expect(err).toBeInstanceOf(ResourceNotFoundError);
    expect(err.wireCode).toBe(-32602);
    expect(err.code).toBe(-32002);
  });

  it("2026-07-28/pagination/missing-cursor-ends", async () => {
    const tools = Array.from({ length: 3 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: "object" } }));
    const c = await stdioCase({ versions: M, tools, pageSize: 2 });
    const client = await c.connect();
    expect((await client.listTools()).map((t) => t.name)).toEqual(["t0", "t1", "t2"]);
    expect(c.server.frames("tools/list").map((f) => f.params?.cursor)).toEqual([undefined, "c2"]);
    expect(c.server.failures).toEqual([]);
  });

  it("2026-07-28/pagination/empty-cursor-continues", async () => {
    const c = await stdioCase({
      versions: M,
      handlers: {
        "tools/list": (req) =>
          req.params?.cursor === undefined
            ? {
                resultType: "complete",
                ttlMs: 0,
                cacheScope: "public",
                tools: [{ name: "a", inputSchema: { type: "object" } }],
                nextCursor: "",
              }
            : {
                resultType: "complete",
                ttlMs: 0,
                cacheScope: "public",
                tools: [{ name: "b", inputSchema: { type: "object" } }],
              },
      },
    });
    const client = await c.connect();
    expect((await client.listTools()).map((t) => t.name)).toEqual(["a", "b"]);
    expect(c.server.frames("tools/list").map((f) => f.params?.cursor)).toEqual([undefined, ""]);
    expect(c.server.failures).toEqual([]);
  });

  it("2026-07-28/pagination/repeated-cursor-ends", async () => {
    const c = await stdioCase({
      versions: M,
      handlers: {
        // a tool of its own on each page: a second tool of the same name would be left out as a duplicate
        "tools/list": (req) => ({
          resultType: "complete",
          ttlMs: 0,
          cacheScope: "public",
          tools: [{ name: req.params?.cursor === undefined ? "a" : "b", inputSchema: { type: "object" } }],
          nextCursor: "",
        }),
      },
    });
    const client = await c.connect();
    // "" is asked for once; the same "" back repeats the cursor just sent, which ends the list
    expect(await client.listTools()).toHaveLength(2);
    expect(c.server.frames("tools/list").map((f) => f.params?.cursor)).toEqual([undefined, ""]);
  });

  it("2026-07-28/cancellation/stdio-notification", async () => {
    const c = await stdioCase({ versions: M, tools: TOOLS, handlers: { "tools/call": () => NO_ANSWER } });
    const client = await c.connect({ settings: settings({ requestTimeout: 200 }) });
    expect(await client.callTool("echo", {}).catch((e) => e)).toBeInstanceOf(RequestTimeoutError);
    const cancelled = await c.server.waitForMethod("notifications/cancelled");
    expect(cancelled.frame.params?.requestId).toBe(c.server.frames("tools/call")[0]?.id);
    expect(c.server.failures).toEqual([]);
  });
});

describe("2026-07-28 version retry", () => {
  it("2026-07-28/version-retry/from-supported", async () => {
    const c = await stdioCase({ versions: M });
    await c.host.use({
      name: "future-revision",
      apiVersion: 1,
      apply: (h: PluginHost) => h.registerRevision(futureRevision),
    });
    const client = await c.connect();
    expect(client.negotiated.version).toBe("2026-07-28");
    expect(c.server.frames("server/discover").map((f) => metaOf(f)[MetaKey.protocolVersion])).toEqual([
      "2099-01-01",
      "2026-07-28",
    ]);
  });

  it("2026-07-28/version-retry/rejected-once-more", async () => {
    let calls = 0;
    const c = await stdioCase({ versions: M });
    c.server.on("server/discover", (req, ctx) => {
      // like the official suite: the first request is refused naming the very version it used
      if (++calls === 1) {
        return {
          error: { code: -32022, message: "try again", data: { supported: M, requested: "2026-07-28" } },
        };
      }
      return defaultHandler("server/discover")(req, ctx);
    });
    const client = await c.connect();
    expect(client.negotiated.version).toBe("2026-07-28");
    expect(c.server.frames("server/discover").map((f) => metaOf(f)[MetaKey.protocolVersion])).toEqual([
      "2026-07-28",
      "2026-07-28",
    ]);
    expect(c.server.frames("initialize")).toEqual([]);
  });

  it("2026-07-28/version-retry/attempts-bounded", async () => {
    for (const attempts of [2, 3]) {
      const c = await stdioCase({ versions: M });
      c.server.on("server/discover", () => ({
        error: { code: -32022, message: "no", data: { supported: M, requested: "2026-07-28" } },
      }));
      const err = await c.connect({ settings: settings({ versionAttempts: attempts }) }).catch((e) => e);
      expect(err).toBeInstanceOf(UnsupportedProtocolVersionError);
      expect(c.server.frames("server/discover")).toHaveLength(attempts);
      // a modern error: never a fall back to initialize
      expect(c.server.frames("initialize")).toEqual([]);
    }
  });

  it("lifecycle/version-retry-picks-the-first-untried-supported-version", async () => {
    // mcpx speaks three modern versions (two through plugins); the server refuses each version the
    // first time it sees it, always listing 2026-07-28 then 2098-01-01. Every retry takes the first
    // listed version not yet tried, and only when none is left one already tried, once more.
    const older: Revision = Object.freeze({
      ...futureRevision,
      version: "2098-01-01",
      handshake: (ctx: HandshakeContext) => discoverHandshake(older, ctx),
    });
    const refused = new Set<unknown>();
    const c = await stdioCase({ versions: M });
    c.server.on("server/discover", (req, ctx) => {
      const version = metaOf(req)[MetaKey.protocolVersion];
      if (!refused.has(version)) {
        refused.add(version);
        return {
          error: {
            code: -32022,
            message: `not now: ${String(version)}`,
            data: { supported: ["2026-07-28", "2098-01-01"], requested: version },
          },
        };
      }
      return defaultHandler("server/discover")(req, ctx);
    });
    for (const r of [futureRevision, older]) {
      await c.host.use({
        name: `revision-${r.version}`,
        apiVersion: 1,
        apply: (h: PluginHost) => h.registerRevision(r),
      });
    }
    const client = await c.connect();
    expect(c.server.frames("server/discover").map((f) => metaOf(f)[MetaKey.protocolVersion])).toEqual([
      "2099-01-01",
      "2026-07-28",
      "2098-01-01",
      "2026-07-28",
    ]);
    expect(client.negotiated.version).toBe("2026-07-28");
    expect(c.server.frames("initialize")).toEqual([]);
  });

  it("version-retry/legacy-listed-means-initialize", async () => {
    const c = await stdioCase({ versions: ["2025-06-18"] });
    c.server.on("server/discover", () => ({
      error: {
        code: -32022,
        message: "legacy only",
        data: { supported: ["2025-06-18"], requested: "2026-07-28" },
      },
    }));
    const client = await c.connect();
    expect(client.negotiated.version).toBe("2025-06-18");
    expect(c.server.frames("initialize")[0]?.params?.protocolVersion).toBe("2025-06-18");
  });
});
