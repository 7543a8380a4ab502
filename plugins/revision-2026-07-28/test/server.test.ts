/** 2026-07-28 as mcpx serves it: its method table, its server facet, and its x-mcp-header rules. */
import {
  ErrorCode,
  HeaderMismatchError,
  InvalidParamsError,
  type JSONObject,
  type JSONRPCRequest,
  MetaKey,
  type ParamHeader,
  ParamHeaderError,
  ResourceNotFoundError,
  type Revision,
  requestOf,
  type ServeContext,
  UnsupportedProtocolVersionError,
} from "@mcpx/core";
import { describe, expect, it } from "vitest";
import { revision } from "../src/index.js";

/** An initialize-era revision as the registry would hold one (this plugin imports no other). */
const legacy = {
  version: "2025-11-25",
  era: "legacy",
  features: { initialize: true },
} as unknown as Revision;
const supported = ["2026-07-28", "2025-11-25"];

function request(method: string, params: JSONObject = {}, meta?: JSONObject): JSONRPCRequest {
  return { jsonrpc: "2.0", id: 1, method, params: meta ? { ...params, _meta: meta } : params };
}

const meta = (version = "2026-07-28"): JSONObject => ({
  [MetaKey.protocolVersion]: version,
  [MetaKey.clientCapabilities]: { elicitation: { form: {} } },
  [MetaKey.clientInfo]: { name: "c", version: "1" },
});

function serve(headers: Record<string, string> = {}): ServeContext {
  return { served: [revision, legacy], supported, header: (name) => headers[name] };
}

/** The error a call throws. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error("did not throw");
}

describe("2026-07-28 method table", () => {
  it("revision-plugin/modern-methods-absent-from-the-table-are-not-the-revisions", () => {
    for (const method of [
      "initialize",
      "ping",
      "logging/setLevel",
      "resources/subscribe",
      "resources/unsubscribe",
    ]) {
      expect(requestOf(revision.methods, method, "client"), method).toBeUndefined();
    }
    // the server sends no JSON-RPC requests: its questions travel in input_required
    for (const method of ["elicitation/create", "sampling/createMessage", "roots/list"]) {
      expect(requestOf(revision.methods, method, "server"), method).toBeUndefined();
    }
    expect(requestOf(revision.methods, "server/discover", "client")).toEqual({ from: "client" });
    expect(requestOf(revision.methods, "subscriptions/listen", "client")).toEqual({ from: "client" });
    // own keys only: a method named like an Object.prototype member is no method
    expect(requestOf(revision.methods, "constructor", "client")).toBeUndefined();
  });

  it("revision-plugin/modern-name-and-uri-mirrored-by-the-table", () => {
    expect(requestOf(revision.methods, "tools/call", "client")?.names).toBe("name");
    expect(requestOf(revision.methods, "prompts/get", "client")?.names).toBe("name");
    expect(requestOf(revision.methods, "resources/read", "client")?.names).toBe("uri");
    expect(requestOf(revision.methods, "tools/list", "client")?.names).toBeUndefined();
    const conn = {
      upstream: "u",
      transport: "streamable-http" as const,
      version: "2026-07-28",
      clientInfo: { name: "m", version: "0" },
      capabilities: {},
    };
    expect(revision.headers(request("resources/read", { uri: "file:///a" }), conn)).toEqual({
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": "resources/read",
      "Mcp-Name": "file:///a",
    });
  });

  it("revision-plugin/modern-own-keys-are-its-result-keys", () => {
    expect(revision.methods.ownKeys.result).toEqual(["resultType", "ttlMs", "cacheScope"]);
    expect(revision.methods.ownKeys.meta).toEqual([MetaKey.serverInfo]);
  });
});

describe("2026-07-28 server facet", () => {
  it("revision-plugin/modern-a-request-opens-with-its-meta-version", () => {
    expect(revision.server.opens(request("tools/list", {}, meta()))).toBe(true);
    expect(revision.server.opens(request("tools/list"))).toBe(false);
    expect(revision.server.opens(request("initialize", { protocolVersion: "2025-11-25" }))).toBe(false);
  });

  it("revision-plugin/modern-negotiate-takes-a-served-modern-version-and-the-declaration", () => {
    const client = revision.server.negotiate(
      request("tools/list", {}, { ...meta(), [MetaKey.logLevel]: "info" }),
      serve(),
    );
    expect(client.revision).toBe(revision);
    expect(client.capabilities).toEqual({ elicitation: { form: {} } });
    expect(client.clientInfo).toEqual({ name: "c", version: "1" });
    expect(client.logLevel).toBe("info");
  });

  it("revision-plugin/modern-negotiate-refuses-what-the-revision-refuses", () => {
    // a version mcpx does not serve, or one of another era: -32022 listing every served version
    for (const version of ["2099-01-01", "2025-11-25"]) {
      const err = thrown(() => revision.server.negotiate(request("tools/list", {}, meta(version)), serve()));
      expect(err).toBeInstanceOf(UnsupportedProtocolVersionError);
      expect((err as UnsupportedProtocolVersionError).supported).toEqual(supported);
    }
    // no version, no capabilities: -32602 naming the key
    const noVersion = thrown(() => revision.server.negotiate(request("tools/list", {}, {}), serve()));
    expect(noVersion).toBeInstanceOf(InvalidParamsError);
    expect((noVersion as Error).message).toContain(MetaKey.protocolVersion);
    const noCaps = thrown(() =>
      revision.server.negotiate(
        request("tools/list", {}, { [MetaKey.protocolVersion]: "2026-07-28" }),
        serve(),
      ),
    );
    expect((noCaps as Error).message).toContain(MetaKey.clientCapabilities);
    // a version header that disagrees with _meta is a mismatch before the version is judged
    const mixed = thrown(() =>
      revision.server.negotiate(
        request("tools/list", {}, meta("2099-01-01")),
        serve({ "mcp-protocol-version": "2026-07-28" }),
      ),
    );
    expect(mixed).toBeInstanceOf(HeaderMismatchError);
  });

  it("revision-plugin/modern-mirrored-headers-checked-against-the-body", async () => {
    const region: ParamHeader = { name: "Region", path: ["where", "region"], type: "string" };
    const tools = async (tool: string) => (tool === "t" ? [region] : []);
    const call = request("tools/call", { name: "t", arguments: { where: { region: "eu" } } }, meta());
    const good = {
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "t",
      "mcp-param-region": "eu",
    };
    // async: a mismatch found before the tool's headers are needed throws at once.
    const check = async (headers: Record<string, string>) =>
      revision.server.checkHeaders(call, (name) => headers[name], tools);
    await expect(check(good)).resolves.toBeUndefined();
    const { "mcp-param-region": _r, ...noParam } = good;
    for (const [headers, named] of [
      [{ ...good, "mcp-method": "tools/list" }, "Mcp-Method"],
      [{ ...good, "mcp-name": "u" }, "Mcp-Name"],
      [{ ...good, "mcp-param-region": "us" }, "Mcp-Param-Region"],
      [noParam, "Mcp-Param-Region"],
      [{ ...good, "mcp-protocol-version": "2099-01-01" }, "MCP-Protocol-Version"],
    ] as const) {
      const err = await check(headers).catch((e: unknown) => e);
      expect(err, named).toBeInstanceOf(HeaderMismatchError);
      expect((err as Error).message).toContain(named);
    }
  });

  it("revision-plugin/modern-mirrored-headers-checked-without-waiting-when-the-tool-headers-are-known", async () => {
    const region: ParamHeader = { name: "Region", path: ["where", "region"], type: "string" };
    const call = request("tools/call", { name: "t", arguments: { where: { region: "eu" } } }, meta());
    const good = {
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "t",
      "mcp-param-region": "eu",
    };
    const read = (headers: Record<string, string>) => (name: string) => headers[name];
    // Known at once: checked at once, no promise to wait for; a mismatch throws.
    expect(revision.server.checkHeaders(call, read(good), () => [region])).toBeUndefined();
    expect(() =>
      revision.server.checkHeaders(call, read({ ...good, "mcp-param-region": "us" }), () => [region]),
    ).toThrow(HeaderMismatchError);
    // Still to be read: the check waits for them, then rejects a mismatch.
    const later = revision.server.checkHeaders(
      call,
      read({ ...good, "mcp-param-region": "us" }),
      async () => [region],
    );
    expect(later).toBeInstanceOf(Promise);
    await expect(later).rejects.toBeInstanceOf(HeaderMismatchError);
  });

  it("revision-plugin/modern-results-and-errors-as-2026-07-28-writes-them", () => {
    const info = { name: "mcpx", version: "0" };
    expect(revision.server.shapeResult("tools/list", { tools: [] }, info)).toEqual({
      resultType: "complete",
      tools: [],
      ttlMs: 0,
      cacheScope: "private",
      _meta: { [MetaKey.serverInfo]: info },
    });
    expect(revision.server.shapeResult("tools/call", { content: [] }, info)).toEqual({
      resultType: "complete",
      content: [],
      _meta: { [MetaKey.serverInfo]: info },
    });
    expect(revision.server.errorFor(new ResourceNotFoundError("gone", { uri: "x" }))).toEqual({
      code: ErrorCode.InvalidParams,
      message: "gone",
      data: { uri: "x" },
    });
    expect(revision.server.errorFor(new Error("boom"))).toMatchObject({ code: ErrorCode.InternalError });
    const discover = revision.server.handshakeResult({
      revision,
      capabilities: { tools: {} },
      serverInfo: info,
      supported,
    });
    expect(discover).toEqual({ supportedVersions: supported, capabilities: { tools: {} } });
    expect(revision.server.capabilities).toContain("completions");
    expect(revision.server.samplingTools).toBe(true);
  });
});

describe("2026-07-28 x-mcp-header", () => {
  it("param-headers/properties-chains-only", () => {
    const schema = {
      type: "object",
      properties: {
        region: { type: "string", "x-mcp-header": "Region" },
        nested: { type: "object", properties: { db: { type: "string", "x-mcp-header": "Db" } } },
        list: { type: "array", items: { type: "string", "x-mcp-header": "Nope" } },
        plain: { type: "string" },
      },
    };
    const declared = revision.toolHeaders.declared(schema);
    expect(declared.headers).toEqual([
      { name: "Region", path: ["region"], type: "string" },
      { name: "Db", path: ["nested", "db"], type: "string" },
    ]);
    expect(declared.problems).toEqual([
      'x-mcp-header at /properties/list/items is not on a property reachable through "properties" alone',
    ]);
    expect(revision.toolHeaders.declared(undefined)).toEqual({ headers: [], problems: [] });
  });

  it("revision-plugin/x-mcp-header-values-written-and-refused-by-the-revision", () => {
    const headers: ParamHeader[] = [
      { name: "Region", path: ["region"], type: "string" },
      { name: "Count", path: ["count"], type: "integer" },
    ];
    expect(revision.toolHeaders.values("t", headers, { region: "é", count: 3 })).toEqual({
      "Mcp-Param-Region": "=?base64?w6k=?=",
      "Mcp-Param-Count": "3",
    });
    expect(revision.toolHeaders.values("t", headers, { region: null })).toEqual({});
    expect(() => revision.toolHeaders.values("t", headers, { count: 1.5 })).toThrow(ParamHeaderError);
  });
});
