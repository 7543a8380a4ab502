/**
 * The era probe (DESIGN.md "Era probe"): with no revision or transport named, mcpx finds what a
 * server speaks over stdio, Streamable HTTP and 2024-11-05's HTTP+SSE, records it, goes straight
 * there next time and probes once more when the record fails. The fallback to initialize never
 * keys on one error code; a recognisably modern error never falls back.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { connectUpstream, MemoryEraStore, targetFingerprint, type UpstreamClient } from "@mcpx/client";
import { parseConfig } from "@mcpx/config";
import {
  type EraRecord,
  HeaderMismatchError,
  LegacyHTTPRefusedError,
  type LifecycleEvent,
  MissingRequiredClientCapabilityError,
  type PluginHost,
  silentLogger,
  type TransportFactory,
  type TransportKind,
  UnsupportedProtocolVersionError,
  type UpstreamSettings,
  type UpstreamTarget,
} from "@mcpx/core";
import { loadBuiltinPlugins } from "@mcpx/daemon";
import { FileEraStore } from "@mcpx/gateway";
import { createHost } from "@mcpx/host";
import {
  type Frame,
  type HttpScript,
  httpScript,
  NO_ANSWER,
  ScriptedServer,
  type ScriptedServerOptions,
  sseScript,
  stdioScript,
} from "@mcpx/testkit";
import { httpSseTransport } from "@mcpx/transport-http-sse";
import { describe, expect, it } from "vitest";
import { afterThisTest, configDir, mcpx, requirement, settings, TOOLS, testHost } from "../src/index.js";
import { type SdkMode, startSdkPeer } from "../src/sdk-http-peer.js";

const sdkStdioServer = fileURLToPath(new URL("../fixtures/sdk-stdio-server.mjs", import.meta.url));

type Host = Awaited<ReturnType<typeof testHost>>;

interface Connected {
  client: UpstreamClient;
  host: Host;
}

/** connectUpstream with no pin, as the pool does it: the era store, the probe, the HTTP+SSE fallback. */
async function probe(
  target: UpstreamTarget,
  opts: { eraStore?: MemoryEraStore | FileEraStore; settings?: Partial<UpstreamSettings>; host?: Host } = {},
): Promise<Connected> {
  const host = opts.host ?? (await testHost());
  const client = await connectUpstream({
    target,
    env: host,
    settings: settings({ probeTimeout: 3000, ...opts.settings }),
    ...(opts.eraStore ? { eraStore: opts.eraStore } : {}),
  });
  afterThisTest(() => client.close());
  return { client, host };
}

async function stdioServer(options: ScriptedServerOptions) {
  const server = new ScriptedServer({ tools: TOOLS, ...options });
  const script = await stdioScript(server);
  afterThisTest(() => script.close());
  return { server, script, target: { name: "up", command: script.command, args: script.args } };
}

async function httpServer(options: ScriptedServerOptions) {
  const server = new ScriptedServer({ tools: TOOLS, ...options });
  const script = await httpScript(server, { getStream: false });
  afterThisTest(() => script.close());
  return { server, script, target: { name: "up", url: script.url } };
}

const methods = (server: ScriptedServer) =>
  server.received.map((r) => r.frame.method).filter((m) => m !== undefined);

/** The methods POSTed, in order ("GET" for a GET). */
const httpTrail = (script: HttpScript) =>
  script.requests.map((r) => (r.httpMethod === "POST" ? (r.frames[0]?.method ?? "?") : r.httpMethod));

const rpcError = (code: number, message: string, data?: unknown) => (frames: Frame[]) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: frames[0]?.id ?? null,
    error: data === undefined ? { code, message } : { code, message, data },
  });

const rpcResult = (result: unknown) => (frames: Frame[]) =>
  JSON.stringify({ jsonrpc: "2.0", id: frames[0]?.id ?? null, result });

describe("the era probe over stdio", () => {
  requirement(
    [
      "2024-11-05/probe/stdio",
      "2025-03-26/probe/stdio",
      "2025-06-18/probe/stdio",
      "2025-11-25/probe/stdio",
      "2026-07-28/probe/stdio",
    ],
    async (rev) => {
      const { server, target } = await stdioServer({ versions: [rev] });
      const { client, host } = await probe(target);
      expect(client.negotiated.version).toBe(rev);
      expect(client.transport.kind).toBe("stdio");
      if (rev === "2026-07-28") {
        // a modern server hears server/discover and nothing else to connect
        expect(methods(server)).toEqual(["server/discover"]);
      } else {
        await server.waitForMethod("notifications/initialized");
        expect(methods(server)).toEqual(["server/discover", "initialize", "notifications/initialized"]);
        expect(server.frames("initialize")[0]?.params?.protocolVersion).toBe("2025-11-25");
      }
      expect((await client.listTools()).map((t) => t.name)).toEqual(["echo", "add"]);
      expect(host.events.find((e) => e.type === "upstream.connected")).toEqual({
        type: "upstream.connected",
        upstream: "up",
        revision: rev,
        transport: "stdio",
      });
      expect(server.failures).toEqual([]);
    },
  );

  // Legacy servers answer server/discover with -32601, -32602 or not at all: each means initialize.
  // So does an empty result, from a server that answers every method it does not know with {} (the
  // official suite's scenario servers do): only a DiscoverResult, with supportedVersions, is modern.
  for (const [kind, answer] of [
    ["32601", { error: { code: -32601, message: "Method not found" } }],
    ["32602", { error: { code: -32602, message: "Invalid params" } }],
    ["32603", { error: { code: -32603, message: "Internal error" } }],
    ["silence", NO_ANSWER],
    ["empty-result", {}],
  ] as const) {
    it(`probe/stdio-legacy-${kind}-means-initialize`, async () => {
      const { server, target } = await stdioServer({ versions: ["2025-06-18"] });
      server.on("server/discover", () => answer);
      const started = Date.now();
      // A short deadline only for silence: otherwise starting the child could outlast it, and the
      // case would pass by timing out rather than by reading the answer.
      const { client } = await probe(target, { settings: { probeTimeout: kind === "silence" ? 300 : 3000 } });
      expect(client.negotiated.version).toBe("2025-06-18");
      await server.waitForMethod("notifications/initialized");
      expect(methods(server)).toEqual(["server/discover", "initialize", "notifications/initialized"]);
      // no notifications/cancelled for the probe: before initialize a legacy server hears only ping
      expect(server.frames("notifications/cancelled")).toEqual([]);
      if (kind === "silence") expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(server.failures).toEqual([]);
    });
  }

  it("probe/stdio-modern-error-never-falls-back", async () => {
    for (const [code, Err] of [
      [-32021, MissingRequiredClientCapabilityError],
      [-32020, HeaderMismatchError],
      [-32022, UnsupportedProtocolVersionError],
    ] as const) {
      const { server, target } = await stdioServer({ versions: ["2026-07-28"] });
      server.on("server/discover", () => ({
        error: {
          code,
          message: "modern refusal",
          ...(code === -32022 ? { data: { supported: ["2099-01-01"], requested: "2026-07-28" } } : {}),
          ...(code === -32021 ? { data: { requiredCapabilities: { sampling: {} } } } : {}),
        },
      }));
      const err = await probe(target).catch((e) => e);
      expect(err, String(code)).toBeInstanceOf(Err);
      expect(server.frames("initialize"), String(code)).toEqual([]);
    }
  });
});

describe("the era probe over Streamable HTTP", () => {
  requirement(
    // 2024-11-05 had no Streamable HTTP, but a server may still negotiate it there (the SDK does)
    [
      "2024-11-05/probe/streamable-http",
      "2025-03-26/probe/streamable-http",
      "2025-06-18/probe/streamable-http",
      "2025-11-25/probe/streamable-http",
      "2026-07-28/probe/streamable-http",
    ],
    async (rev) => {
      const { server, script, target } = await httpServer({ versions: [rev] });
      const { client } = await probe(target);
      expect(client.negotiated.version).toBe(rev);
      expect(client.transport.kind).toBe("streamable-http");
      if (rev === "2026-07-28") {
        expect(httpTrail(script)).toEqual(["server/discover"]);
      } else {
        // a legacy scripted server answers the probe with a JSON-RPC -32601 on HTTP 200
        expect(httpTrail(script).slice(0, 3)).toEqual([
          "server/discover",
          "initialize",
          "notifications/initialized",
        ]);
      }
      expect((await client.listTools()).map((t) => t.name)).toEqual(["echo", "add"]);
      expect(server.failures).toEqual([]);
    },
  );

  // What legacy HTTP servers say to a modern POST: each means initialize, and none is HTTP+SSE.
  for (const [kind, raw] of [
    ["400-empty-body", { status: 400 }],
    ["400-unrecognised-body", { status: 400, contentType: "text/plain", body: "Bad Request" }],
    ["400-html-body", { status: 400, contentType: "text/html", body: "<h1>400</h1>" }],
    [
      "400-32000-not-initialized",
      {
        status: 400,
        contentType: "application/json",
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32000, message: "Bad Request: Server not initialized" },
        }),
      },
    ],
    ["400-32602", { status: 400, contentType: "application/json", body: rpcError(-32602, "bad params") }],
    ["404", { status: 404 }],
    ["405", { status: 405 }],
    ["200-32601", { status: 200, contentType: "application/json", body: rpcError(-32601, "no such method") }],
    ["200-empty-result", { status: 200, contentType: "application/json", body: rpcResult({}) }],
  ] as const) {
    it(`probe/http-legacy-${kind}-means-initialize`, async () => {
      const { server, script, target } = await httpServer({ versions: ["2025-11-25"] });
      script.rawAnswer((r) => r.frames[0]?.method === "server/discover", raw);
      const { client } = await probe(target);
      expect(client.negotiated.version).toBe("2025-11-25");
      expect(client.transport.kind).toBe("streamable-http");
      expect(httpTrail(script).slice(0, 3)).toEqual([
        "server/discover",
        "initialize",
        "notifications/initialized",
      ]);
      expect(script.requests[0]?.status).toBe(raw.status);
      expect(server.failures).toEqual([]);
    });
  }

  it("probe/http-modern-32022-retried-never-falls-back", async () => {
    const { server, script, target } = await httpServer({ versions: ["2026-07-28"] });
    script.rawAnswer((r) => r.frames[0]?.method === "server/discover", {
      status: 400,
      contentType: "application/json",
      body: rpcError(-32022, "Unsupported protocol version", {
        supported: ["2026-07-28"],
        requested: "2026-07-28",
      }),
    });
    const { client } = await probe(target);
    expect(client.negotiated.version).toBe("2026-07-28");
    expect(httpTrail(script)).toEqual(["server/discover", "server/discover"]);
    expect(server.failures).toEqual([]);
  });

  for (const [code, Err, data] of [
    [-32020, HeaderMismatchError, undefined],
    [-32021, MissingRequiredClientCapabilityError, { requiredCapabilities: { sampling: {} } }],
    [-32022, UnsupportedProtocolVersionError, { supported: ["2099-01-01"], requested: "2026-07-28" }],
  ] as const) {
    it(`probe/http-modern${code}-never-falls-back`, async () => {
      const { script, target } = await httpServer({ versions: ["2026-07-28"] });
      script.rawAnswer(
        (r) => r.frames[0]?.method === "server/discover",
        { status: 400, contentType: "application/json", body: rpcError(code, "modern refusal", data) },
        5,
      );
      const err = await probe(target).catch((e) => e);
      expect(err).toBeInstanceOf(Err);
      // no initialize, no GET: a modern error is never a legacy server
      expect(httpTrail(script).every((m) => m === "server/discover")).toBe(true);
    });
  }
});

describe("HTTP+SSE: the fallback and its era record (2024-11-05)", () => {
  async function sseServer(refusePost: number) {
    const server = new ScriptedServer({ versions: ["2024-11-05"], tools: TOOLS });
    const script = await sseScript(server, { refusePost });
    afterThisTest(() => script.close());
    return { server, script, target: { name: "up", url: script.url } };
  }
  const trail = (requests: { httpMethod: string; path: string; frames: Frame[] }[]) =>
    requests.map((r) =>
      `${r.httpMethod} ${new URL(r.path, "http://x").pathname} ${r.frames[0]?.method ?? ""}`.trim(),
    );

  requirement(["2024-11-05/http-sse/fallback"], async () => {
    for (const status of [400, 404, 405]) {
      const { server, script, target } = await sseServer(status);
      const eraStore = new MemoryEraStore();
      const { client, host } = await probe(target, { eraStore });
      expect(client.negotiated.version, String(status)).toBe("2024-11-05");
      expect(client.transport.kind, String(status)).toBe("http+sse");
      expect(await client.callTool("echo", { text: "old" })).toEqual({
        content: [{ type: "text", text: '{"text":"old"}' }],
      });
      // the modern probe and initialize, both refused with a bare status; then the GET for the endpoint
      expect(trail(script.requests).slice(0, 4), String(status)).toEqual([
        "POST /sse server/discover",
        "POST /sse initialize",
        "GET /sse",
        "POST /messages initialize",
      ]);
      expect(await eraStore.get("up", targetFingerprint(target))).toMatchObject({
        revision: "2024-11-05",
        transport: "http+sse",
      });
      expect(host.events.filter((e) => e.type === "upstream.connected")).toEqual([
        { type: "upstream.connected", upstream: "up", revision: "2024-11-05", transport: "http+sse" },
      ]);
      expect(server.failures).toEqual([]);
      await client.close();
    }
  });

  requirement(["2024-11-05/http-sse/era-cached"], async () => {
    const { server, script, target } = await sseServer(405);
    const stateDir = await tempDir();
    const first = await probe(target, { eraStore: new FileEraStore(stateDir) });
    expect(first.client.transport.kind).toBe("http+sse");
    await first.client.close();
    const record = JSON.parse(await readFile(join(stateDir, "eras.json"), "utf8")).eras.up;
    expect(record).toMatchObject({ revision: "2024-11-05", transport: "http+sse" });

    // the next start: a new store on the same state directory goes straight to the GET
    const before = script.requests.length;
    const second = await probe(target, { eraStore: new FileEraStore(stateDir) });
    expect(second.client.transport.kind).toBe("http+sse");
    expect(await second.client.listTools()).toHaveLength(2);
    const again = script.requests.slice(before);
    expect(again[0]?.httpMethod).toBe("GET");
    expect(
      again.filter((r) => new URL(r.path, "http://x").pathname === "/sse" && r.httpMethod === "POST"),
    ).toEqual([]);
    expect(second.host.events.find((e) => e.type === "era.resolved")).toMatchObject({ cached: true });
    expect(server.failures).toEqual([]);
  });

  it("probe/fallback-is-the-transport-that-declares-it", async () => {
    // The client names no fallback: a transport declares which one it stands in for. Here a third
    // party's stands in for Streamable HTTP and the built-in HTTP+SSE is not installed.
    const inner = httpSseTransport;
    const relay: TransportFactory = {
      kind: "legacy-relay",
      reaches: "url",
      accepts: () => false,
      fallbackFor: "streamable-http",
      create(target, ctx) {
        const t = inner.create(target, ctx);
        return {
          kind: "legacy-relay",
          ...(t.capabilities ? { capabilities: t.capabilities } : {}),
          open: () => t.open(),
          send: (msg, opts) => t.send(msg, opts),
          negotiated: (session) => t.negotiated(session),
          close: () => t.close(),
        };
      },
    };
    const hostWith = async (extra: TransportFactory[]) => {
      const host = createHost({ log: silentLogger });
      for (const p of await loadBuiltinPlugins())
        if (p.name !== "@mcpx/transport-http-sse") await host.use(p);
      for (const t of extra)
        await host.use({
          name: `third-party-${t.kind}`,
          apiVersion: 1,
          apply: (h: PluginHost) => h.registerTransport(t),
        });
      const events: LifecycleEvent[] = [];
      host.hooks.lifecycle.tap("e2e", (e) => events.push(e));
      return Object.assign(host, { events });
    };
    const { server, target } = await sseServer(404);
    const eraStore = new MemoryEraStore();
    const { client } = await probe(target, { eraStore, host: await hostWith([relay]) });
    expect(client.transport.kind).toBe("legacy-relay");
    expect(client.negotiated.version).toBe("2024-11-05");
    expect(await client.callTool("echo", { text: "old" })).toEqual({
      content: [{ type: "text", text: '{"text":"old"}' }],
    });
    expect(await eraStore.get("up", targetFingerprint(target))).toMatchObject({ transport: "legacy-relay" });
    // With no transport standing in for Streamable HTTP, the refusal is the answer.
    await expect(probe(target, { host: await hostWith([]) })).rejects.toBeInstanceOf(LegacyHTTPRefusedError);
    expect(server.failures).toEqual([]);
  });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "mcpx-era-"));
  afterThisTest(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe("the era record", () => {
  it("probe/cached-era-skips-probe", async () => {
    const { server, target } = await stdioServer({ versions: ["2025-06-18"] });
    const eraStore = new MemoryEraStore();
    const first = await probe(target, { eraStore });
    await server.waitForMethod("notifications/initialized");
    await first.client.close();
    expect(server.frames("server/discover")).toHaveLength(1);
    expect(await eraStore.get("up", targetFingerprint(target))).toMatchObject({
      revision: "2025-06-18",
      transport: "stdio",
    });
    const count = server.received.length;
    const second = await probe(target, { eraStore });
    expect(second.client.negotiated.version).toBe("2025-06-18");
    await server.waitFor(
      (r) => r.frame.method === "notifications/initialized" && server.received.indexOf(r) >= count,
    );
    // the second connection: initialize straight away, no server/discover
    expect(methods({ received: server.received.slice(count) } as ScriptedServer)).toEqual([
      "initialize",
      "notifications/initialized",
    ]);
    expect(server.frames("server/discover")).toHaveLength(1);
    expect(server.frames("initialize")[1]?.params?.protocolVersion).toBe("2025-06-18");
    expect(second.host.events.find((e) => e.type === "era.resolved")).toMatchObject({ cached: true });
    expect(server.failures).toEqual([]);
  });

  it("probe/cached-modern-era-skips-probe-retry", async () => {
    // a modern record: server/discover once with the recorded version, no version retry
    const { server, target } = await stdioServer({ versions: ["2026-07-28"] });
    const eraStore = new MemoryEraStore();
    await (await probe(target, { eraStore })).client.close();
    const second = await probe(target, { eraStore });
    expect(second.client.negotiated.version).toBe("2026-07-28");
    expect(server.frames("server/discover")).toHaveLength(2);
    expect(server.frames("initialize")).toEqual([]);
  });

  it("probe/stale-record-reprobes-once", async () => {
    // the record says legacy 2025-06-18 over stdio; the server has since become modern-only
    const { server, target } = await stdioServer({ versions: ["2026-07-28"] });
    const stateDir = await tempDir();
    const eraStore = new FileEraStore(stateDir);
    const stale: EraRecord = {
      revision: "2025-06-18",
      transport: "stdio",
      probedAt: "2025-01-01T00:00:00.000Z",
    };
    await eraStore.set("up", targetFingerprint(target), stale);
    const deleted: string[] = [];
    const store = Object.assign(Object.create(eraStore) as FileEraStore, {
      get: eraStore.get.bind(eraStore),
      set: eraStore.set.bind(eraStore),
      delete: async (name: string) => {
        deleted.push(name);
        await eraStore.delete(name);
      },
    });
    const { client, host } = await probe(target, { eraStore: store });
    expect(client.negotiated.version).toBe("2026-07-28");
    // the recorded era was tried (initialize, refused), deleted, and the probe ran once
    expect(methods(server)).toEqual(["initialize", "server/discover"]);
    expect(deleted).toEqual(["up"]);
    const written = (await new FileEraStore(stateDir).all()).up;
    expect(written).toMatchObject({ revision: "2026-07-28", transport: "stdio" });
    expect(written?.probedAt).not.toBe(stale.probedAt);
    expect(host.events.filter((e) => e.type === "era.resolved")).toEqual([
      {
        type: "era.resolved",
        upstream: "up",
        era: expect.objectContaining({ revision: "2026-07-28" }),
        cached: false,
      },
    ]);
  });

  it("probe/stale-record-probe-fails-once", async () => {
    // a record that fails and a probe that fails: one probe, then the error; no loop, no record
    const { server, target } = await stdioServer({ versions: ["2025-06-18"] });
    server.on("initialize", () => ({ error: { code: -32603, message: "broken" } }));
    const eraStore = new MemoryEraStore();
    await eraStore.set("up", targetFingerprint(target), {
      revision: "2025-06-18",
      transport: "stdio",
      probedAt: new Date().toISOString(),
    });
    const err = await probe(target, { eraStore }).catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(methods(server)).toEqual(["initialize", "server/discover", "initialize"]);
    expect(await eraStore.get("up", targetFingerprint(target))).toBeUndefined();
  });

  it("probe/changed-target-reprobes", async () => {
    const { server, target } = await stdioServer({ versions: ["2025-06-18"] });
    const eraStore = new MemoryEraStore();
    await eraStore.set("up", "another-target", {
      revision: "2026-07-28",
      transport: "stdio",
      probedAt: new Date().toISOString(),
    });
    const { client } = await probe(target, { eraStore });
    expect(client.negotiated.version).toBe("2025-06-18");
    expect(methods(server)[0]).toBe("server/discover");
  });

  it("probe/pinned-revision-skips-probe-and-record", async () => {
    const { server, target } = await stdioServer({ versions: ["2025-06-18", "2025-03-26"] });
    const eraStore = new MemoryEraStore();
    const host = await testHost();
    const client = await connectUpstream({
      target,
      env: host,
      settings: settings(),
      eraStore,
      revision: "2025-03-26",
    });
    afterThisTest(() => client.close());
    expect(client.negotiated.version).toBe("2025-03-26");
    expect(server.frames("server/discover")).toEqual([]);
    expect(await eraStore.get("up", targetFingerprint(target))).toBeUndefined();
  });

  it("probe/era-resolved-hook-and-event", async () => {
    const host = await testHost();
    const hooked: [string, EraRecord, boolean][] = [];
    host.hooks.eraResolved.tap("test", (upstream, era, cached) => {
      hooked.push([upstream, era, cached]);
    });
    const eraStore = new MemoryEraStore();
    for (const [rev, transport] of [
      ["2025-11-25", "streamable-http"],
      ["2026-07-28", "stdio"],
    ] as const) {
      const { target } =
        transport === "stdio"
          ? await stdioServer({ versions: [rev] })
          : await httpServer({ versions: [rev] });
      const named = { ...target, name: `up-${rev}` };
      for (let i = 0; i < 2; i++) {
        const { client } = await probe(named, { eraStore, host });
        await client.close();
      }
    }
    const summary = (era: EraRecord) => ({ revision: era.revision, transport: era.transport });
    expect(hooked.map(([u, era, cached]) => [u, summary(era), cached])).toEqual([
      ["up-2025-11-25", { revision: "2025-11-25", transport: "streamable-http" }, false],
      ["up-2025-11-25", { revision: "2025-11-25", transport: "streamable-http" }, true],
      ["up-2026-07-28", { revision: "2026-07-28", transport: "stdio" }, false],
      ["up-2026-07-28", { revision: "2026-07-28", transport: "stdio" }, true],
    ]);
    for (const [, era] of hooked) expect(Date.parse(era.probedAt)).not.toBeNaN();
    const named = (e: LifecycleEvent) =>
      e.type === "upstream.connected"
        ? [e.type, e.upstream, e.revision, e.transport]
        : e.type === "era.resolved"
          ? [e.type, e.upstream, e.era.revision, e.era.transport, e.cached]
          : undefined;
    expect(host.events.map(named).filter((x) => x !== undefined)).toEqual([
      ["era.resolved", "up-2025-11-25", "2025-11-25", "streamable-http", false],
      ["upstream.connected", "up-2025-11-25", "2025-11-25", "streamable-http"],
      ["era.resolved", "up-2025-11-25", "2025-11-25", "streamable-http", true],
      ["upstream.connected", "up-2025-11-25", "2025-11-25", "streamable-http"],
      ["era.resolved", "up-2026-07-28", "2026-07-28", "stdio", false],
      ["upstream.connected", "up-2026-07-28", "2026-07-28", "stdio"],
      ["era.resolved", "up-2026-07-28", "2026-07-28", "stdio", true],
      ["upstream.connected", "up-2026-07-28", "2026-07-28", "stdio"],
    ]);
  });
});

describe("FileEraStore", () => {
  const era = (revision: string, transport: TransportKind): EraRecord => ({
    revision,
    transport,
    probedAt: new Date().toISOString(),
  });

  it("era-store/atomic-write-leaves-no-temp-files", async () => {
    const stateDir = join(await tempDir(), "nested", "state");
    const a = new FileEraStore(stateDir);
    const b = new FileEraStore(stateDir);
    // concurrent writers, in this store and another on the same directory
    await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => a.set(`a${i}`, "f", era("2025-06-18", "stdio"))),
      ...Array.from({ length: 20 }, (_, i) => b.set(`b${i}`, "f", era("2026-07-28", "streamable-http"))),
    ]);
    expect(await readdir(stateDir)).toEqual(["eras.json"]);
    // stores of one file in one process take turns: every write is there, the file always whole
    const all = await new FileEraStore(stateDir).all();
    expect(Object.keys(all)).toHaveLength(40);
    expect(JSON.parse(await readFile(join(stateDir, "eras.json"), "utf8"))).toHaveProperty("eras");
    await a.delete("a0");
    await a.clear();
    expect(await readdir(stateDir)).toEqual(["eras.json"]);
    expect(await a.all()).toEqual({});
  });

  it("era-store/records-made-at-once-are-all-kept-in-order", async () => {
    // 100 upstreams connecting at once: their records are batched into few writes, none is lost,
    // and the changes of one batch apply in the order they were made.
    const stateDir = await tempDir();
    const store = new FileEraStore(stateDir);
    const first = Array.from({ length: 100 }, (_, i) => store.set(`u${i}`, "f", era("2025-11-25", "stdio")));
    const more = [
      store.set("gone", "f", era("2025-11-25", "stdio")),
      store.delete("gone"),
      store.set("u0", "g", era("2026-07-28", "streamable-http")),
    ];
    await first[0];
    // made while a write ran: it waits for the next one
    const late = store.set("late", "f", era("2025-11-25", "stdio"));
    await Promise.all([...first, ...more, late]);
    const all = await new FileEraStore(stateDir).all();
    expect(Object.keys(all).sort()).toEqual(
      [...Array.from({ length: 100 }, (_, i) => `u${i}`), "late"].sort(),
    );
    expect(all.u0).toMatchObject({ fingerprint: "g", revision: "2026-07-28" });
    expect(await readdir(stateDir)).toEqual(["eras.json"]);
  });

  it("era-store/survives-a-damaged-file", async () => {
    const stateDir = await tempDir();
    const file = join(stateDir, "eras.json");
    for (const damage of [
      '{"eras": {"up": {"revis',
      "",
      "null",
      "[1,2]",
      '{"eras": 7}',
      '{"eras": {"up": {"revision": 5}}}',
      '{"eras": {"up": null}}',
    ]) {
      await writeFile(file, damage);
      const store = new FileEraStore(stateDir);
      expect(await store.get("up", "f"), damage).toBeUndefined();
      await store.set("up", "f", era("2025-11-25", "stdio"));
      expect(await store.get("up", "f"), damage).toMatchObject({
        revision: "2025-11-25",
        transport: "stdio",
      });
      expect(await readdir(stateDir)).toEqual(["eras.json"]);
    }
  });

  it("era-store/records-hold-no-credentials", async () => {
    const stateDir = await tempDir();
    const store = new FileEraStore(stateDir);
    await store.set("up", "f", era("2025-11-25", "streamable-http"));
    const text = await readFile(join(stateDir, "eras.json"), "utf8");
    expect(Object.keys(JSON.parse(text).eras.up).sort()).toEqual([
      "fingerprint",
      "probedAt",
      "revision",
      "transport",
    ]);
  });
});

describe("the state directory", () => {
  it("state-dir/xdg-state-home-default", () => {
    const env = { XDG_STATE_HOME: "/var/xdg-state", HOME: "/home/ada" };
    expect(parseConfig({ servers: {} }, { path: "/etc/mcpx/mcpx.json", env }).stateDir).toBe(
      "/var/xdg-state/mcpx",
    );
    // without XDG_STATE_HOME: ~/.local/state/mcpx
    expect(
      parseConfig({ servers: {} }, { path: "/etc/mcpx/mcpx.json", env: { HOME: "/home/ada" } }).stateDir,
    ).toBe("/home/ada/.local/state/mcpx");
    // a relative XDG_STATE_HOME is invalid (XDG Base Directory spec) and ignored
    expect(
      parseConfig(
        { servers: {} },
        { path: "/etc/mcpx/mcpx.json", env: { XDG_STATE_HOME: "rel", HOME: "/home/ada" } },
      ).stateDir,
    ).toBe("/home/ada/.local/state/mcpx");
    // the config's own stateDir wins, relative to the config file
    expect(
      parseConfig({ servers: {}, stateDir: "state" }, { path: "/etc/mcpx/mcpx.json", env }).stateDir,
    ).toBe("/etc/mcpx/state");
  });

  it("state-dir/cli-uses-xdg-and-state-dir-option", async () => {
    const { target } = await stdioServer({ versions: ["2025-11-25"] });
    const dir = await configDir({ servers: { up: { command: target.command, args: target.args } } });
    const xdg = join(dir, "xdg");
    const env = { XDG_STATE_HOME: xdg };
    const listed = await mcpx(dir, { env }, "tools", "list");
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(xdg, "mcpx", "eras.json"), "utf8")).eras.up).toMatchObject({
      revision: "2025-11-25",
      transport: "stdio",
    });
    const shown = await mcpx(dir, { env }, "era", "show");
    expect(shown.stdout).toMatch(/^up: 2025-11-25 over stdio \(probed .+\)$/m);

    // --state-dir: tools list, call, resources and prompts keep the record there instead
    const elsewhere = join(dir, "elsewhere");
    for (const argv of [
      ["tools", "list"],
      ["call", "up__echo", '{"text":"x"}'],
      ["resources", "list"],
      ["prompts", "list"],
    ]) {
      const out = await mcpx(dir, { env }, ...argv, "--state-dir", elsewhere);
      expect(out.code, `${argv.join(" ")}: ${out.stderr}`).toBe(0);
    }
    expect(Object.keys((await new FileEraStore(elsewhere).all()) ?? {})).toEqual(["up"]);
    expect((await mcpx(dir, { env }, "era", "show", "--state-dir", elsewhere)).stdout).toMatch(
      /^up: 2025-11-25/m,
    );
    expect((await mcpx(dir, { env }, "era", "forget", "up", "--state-dir", elsewhere)).code).toBe(0);
    expect(await new FileEraStore(elsewhere).all()).toEqual({});
    // the XDG one is untouched
    expect(Object.keys(await new FileEraStore(join(xdg, "mcpx")).all())).toEqual(["up"]);
  });
});

describe("the era probe against the official SDK's servers (no pin)", () => {
  for (const [mode, transport] of [
    ["stateful", "streamable-http"],
    ["stateless", "streamable-http"],
    ["sse", "http+sse"],
  ] as const) {
    const name = mode === "sse" ? "probe/sdk-v1-http-sse" : `probe/sdk-v1-streamable-http-${mode}`;
    it(name, async () => {
      const peer = await startSdkPeer(mode as SdkMode);
      afterThisTest(() => peer.close());
      const eraStore = new MemoryEraStore();
      const target = { name: "sdk", url: peer.url };
      const { client } = await probe(target, {
        eraStore,
        settings: { requestTimeout: 15_000, handshakeTimeout: 15_000 },
      });
      expect(client.transport.kind).toBe(transport);
      expect(client.negotiated.version).toBe(mode === "sse" ? "2024-11-05" : "2025-11-25");
      expect(client.negotiated.serverInfo?.name).toBe("sdk-http-fixture");
      expect(await client.callTool("echo", { text: "probed" })).toMatchObject({
        content: [{ type: "text", text: "echo: probed" }],
      });
      await client.close();
      // and again from the record
      const again = await probe(target, { eraStore });
      expect(again.client.transport.kind).toBe(transport);
      expect(again.host.events.find((e) => e.type === "era.resolved")).toMatchObject({ cached: true });
      expect((await again.client.listTools()).map((t) => t.name).sort()).toEqual(["ask_name", "echo"]);
    });
  }

  it("probe/sdk-v1-stdio", async () => {
    const eraStore = new MemoryEraStore();
    const target = { name: "sdk", command: process.execPath, args: [sdkStdioServer] };
    const { client } = await probe(target, {
      eraStore,
      settings: { requestTimeout: 15_000, handshakeTimeout: 15_000 },
    });
    expect(client.transport.kind).toBe("stdio");
    expect(client.negotiated.version).toBe("2025-11-25");
    expect(client.negotiated.serverInfo?.name).toBe("sdk-fixture");
    expect(await client.callTool("echo", { text: "probed" })).toMatchObject({
      content: [{ type: "text", text: "echo: probed" }],
    });
    expect(await eraStore.get("sdk", targetFingerprint(target))).toMatchObject({
      revision: "2025-11-25",
      transport: "stdio",
    });
  });
});
