/** server/discover as the modern handshake: what counts as a DiscoverResult, and the version retry. */
import {
  DEFAULT_UPSTREAM_SETTINGS,
  type HandshakeContext,
  InvalidResultError,
  type JSONObject,
  type Result,
  type Revision,
  UnsupportedProtocolVersionError,
} from "@mcpx/core";
import { describe, expect, it } from "vitest";
import { discoverHandshake, revision } from "../src/index.js";

/** A context whose server answers each server/discover with the next of `answers` (a throw or a result). */
function context(answers: (Result | Error)[]) {
  const sent: JSONObject[] = [];
  const ctx: HandshakeContext = {
    upstream: "up",
    transport: "streamable-http",
    clientInfo: { name: "mcpx", version: "0.1.0" },
    handlers: { elicitation: { form: true, url: false }, sampling: false },
    settings: DEFAULT_UPSTREAM_SETTINGS,
    request: async (_method, params) => {
      sent.push(params);
      const next = answers.shift();
      if (next instanceof Error) throw next;
      return next ?? {};
    },
    notify: async () => {},
    resolve: (version): Revision => {
      if (version !== revision.version) throw new Error(`unknown ${version}`);
      return revision;
    },
    agreed: () => {},
    spoken: () => [revision.version, "2025-11-25"],
  };
  return { ctx, sent };
}

const version = (params: JSONObject | undefined) =>
  (params?._meta as JSONObject | undefined)?.["io.modelcontextprotocol/protocolVersion"];

describe("server/discover", () => {
  it("discover/a-discover-result-means-modern", async () => {
    const { ctx } = context([
      {
        supportedVersions: ["2026-07-28"],
        capabilities: { tools: {} },
        _meta: { "io.modelcontextprotocol/serverInfo": { name: "s", version: "1" } },
      },
    ]);
    const negotiated = await discoverHandshake(revision, ctx);
    expect(negotiated.version).toBe("2026-07-28");
    expect(negotiated.serverCapabilities).toEqual({ tools: {} });
    expect(negotiated.serverInfo).toEqual({ name: "s", version: "1" });
  });

  it("discover/a-result-without-supported-versions-is-not-modern", async () => {
    // What a legacy server that answers every unknown method with {} says: not a DiscoverResult.
    const { ctx, sent } = context([{}]);
    await expect(discoverHandshake(revision, ctx)).rejects.toBeInstanceOf(InvalidResultError);
    expect(sent).toHaveLength(1);
  });

  it("version-retry/the-rejected-version-listed-is-retried-once", async () => {
    const refusal = () =>
      new UnsupportedProtocolVersionError("unsupported", {
        supported: ["2026-07-28"],
        requested: "2026-07-28",
      });
    const ok = { supportedVersions: ["2026-07-28"], capabilities: {} };
    const retried = context([refusal(), ok]);
    expect((await discoverHandshake(revision, retried.ctx)).version).toBe("2026-07-28");
    expect(retried.sent.map(version)).toEqual(["2026-07-28", "2026-07-28"]);
    // each version at most versionAttempts (2) times: a server that keeps refusing ends it
    const refusing = context([refusal(), refusal(), refusal()]);
    await expect(discoverHandshake(revision, refusing.ctx)).rejects.toBeInstanceOf(
      UnsupportedProtocolVersionError,
    );
    expect(refusing.sent).toHaveLength(2);
  });
});
