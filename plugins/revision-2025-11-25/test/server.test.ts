/** 2025-11-25 as mcpx serves it (method table, server facet), and a revision derived from it. */
import {
  type ConnectionInfo,
  DEFAULT_UPSTREAM_SETTINGS,
  type HandshakeContext,
  type JSONObject,
  type JSONRPCRequest,
  notificationOf,
  ResourceNotFoundError,
  type Revision,
  requestOf,
  type ServeContext,
} from "@mcpx/core";
import { describe, expect, it } from "vitest";
import { revision } from "../src/index.js";

/** A revision of the other era, as the registry would hold one. */
const modern = {
  version: "2026-07-28",
  era: "modern",
  features: { initialize: false },
} as unknown as Revision;

function initialize(protocolVersion: unknown, extra: JSONObject = {}): JSONRPCRequest {
  return { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion, ...extra } };
}

function serve(served: readonly Revision[]): ServeContext {
  return { served, supported: served.map((r) => r.version), header: () => undefined };
}

describe("2025-11-25 method table", () => {
  it("revision-plugin/legacy-methods-of-2025-11-25", () => {
    for (const method of [
      "initialize",
      "ping",
      "logging/setLevel",
      "resources/subscribe",
      "completion/complete",
    ]) {
      expect(requestOf(revision.methods, method, "client"), method).toBeDefined();
    }
    expect(requestOf(revision.methods, "server/discover", "client")).toBeUndefined();
    expect(requestOf(revision.methods, "subscriptions/listen", "client")).toBeUndefined();
    // what the server sends: elicitation (form and url), and its completion notice
    expect(requestOf(revision.methods, "elicitation/create", "server")).toBeDefined();
    expect(requestOf(revision.methods, "elicitation/create", "client")).toBeUndefined();
    expect(notificationOf(revision.methods, "notifications/elicitation/complete", "server")).toBeDefined();
    // ping goes both ways
    expect(requestOf(revision.methods, "ping", "server")).toBeDefined();
    expect(revision.methods.ownKeys).toEqual({ result: [], meta: [] });
  });
});

describe("2025-11-25 server facet", () => {
  it("revision-plugin/legacy-initialize-opens-and-negotiates", () => {
    expect(revision.server.opens(initialize("2025-11-25"))).toBe(true);
    expect(revision.server.opens({ jsonrpc: "2.0", id: 1, method: "tools/list" })).toBe(false);
    const older = { ...revision, version: "2025-06-18" };
    const ctx = serve([modern, revision, older]);
    // the version offered, when served in this era
    const client = revision.server.negotiate(
      initialize("2025-06-18", { capabilities: { roots: {} }, clientInfo: { name: "c", version: "1" } }),
      ctx,
    );
    expect(client.revision).toBe(older);
    expect(client.capabilities).toEqual({ roots: {} });
    expect(client.clientInfo).toEqual({ name: "c", version: "1" });
    // otherwise the first served of the era: never the modern one, never an unknown one
    expect(revision.server.negotiate(initialize("2026-07-28"), ctx).revision).toBe(revision);
    expect(revision.server.negotiate(initialize("1999-01-01"), ctx).revision).toBe(revision);
    expect(revision.server.negotiate(initialize(undefined), ctx).capabilities).toEqual({});
  });

  it("revision-plugin/legacy-handshake-result-and-shaping", () => {
    const info = { name: "mcpx", version: "0" };
    expect(
      revision.server.handshakeResult({
        revision,
        capabilities: { tools: {} },
        serverInfo: info,
        instructions: "hi",
        supported: ["2025-11-25"],
      }),
    ).toEqual({
      protocolVersion: "2025-11-25",
      capabilities: { tools: {} },
      serverInfo: info,
      instructions: "hi",
    });
    const result = { content: [] };
    expect(revision.server.shapeResult("tools/call", result, info)).toBe(result);
    expect(revision.server.errorFor(new ResourceNotFoundError("gone"))).toEqual({
      code: -32002,
      message: "gone",
    });
    expect(revision.server.capabilities).toEqual(
      expect.arrayContaining(["tools", "prompts", "resources", "logging", "completions"]),
    );
    expect(revision.server.samplingTools).toBe(true);
  });
});

describe("a revision derived from 2025-11-25", () => {
  const derived: Revision = { ...revision, version: "2099-01-01" };

  it("revision-plugin/derived-revision-speaks-its-own-version-as-a-client", async () => {
    const offered: unknown[] = [];
    const ctx: HandshakeContext = {
      upstream: "up",
      transport: "stdio",
      clientInfo: { name: "mcpx", version: "0" },
      handlers: { elicitation: { form: true, url: true }, sampling: false },
      settings: DEFAULT_UPSTREAM_SETTINGS,
      request: async (_method, params) => {
        offered.push(params.protocolVersion);
        return { protocolVersion: "2099-01-01", capabilities: {} };
      },
      notify: async () => {},
      resolve: () => derived,
      agreed: () => {},
      spoken: () => ["2099-01-01"],
    };
    const negotiated = await derived.handshake(ctx);
    expect(offered).toEqual(["2099-01-01"]);
    expect(negotiated.revision).toBe(derived);
    const conn: ConnectionInfo = {
      upstream: "up",
      transport: "streamable-http",
      version: "2099-01-01",
      clientInfo: { name: "mcpx", version: "0" },
      capabilities: {},
    };
    expect(derived.headers({ jsonrpc: "2.0", id: 1, method: "tools/list" }, conn)).toEqual({
      "MCP-Protocol-Version": "2099-01-01",
    });
    // everything else is 2025-11-25's
    expect(derived.features).toBe(revision.features);
    expect(derived.capabilities({ elicitation: { form: true, url: true }, sampling: false })).toEqual(
      revision.capabilities({ elicitation: { form: true, url: true }, sampling: false }),
    );
  });

  it("revision-plugin/derived-revision-speaks-its-own-version-as-a-server", () => {
    const ctx = serve([derived, revision]);
    const client = derived.server.negotiate(initialize("2099-01-01"), ctx);
    expect(client.revision).toBe(derived);
    expect(
      derived.server.handshakeResult({
        revision: client.revision,
        capabilities: {},
        serverInfo: { name: "mcpx", version: "0" },
        supported: ctx.supported,
      }),
    ).toMatchObject({ protocolVersion: "2099-01-01" });
    // a client offering 2025-11-25 still gets 2025-11-25
    expect(derived.server.negotiate(initialize("2025-11-25"), ctx).revision).toBe(revision);
  });
});
