/** The initialize handshake every legacy revision shares. */
import {
  DEFAULT_UPSTREAM_SETTINGS,
  type HandshakeContext,
  InvalidResultError,
  type Result,
  type Revision,
} from "@mcpx/core";
import { describe, expect, it } from "vitest";
import { initializeHandshake, LEGACY_BASE, legacyCapabilities } from "../src/index.js";

const rev = (version: string): Revision =>
  ({
    version,
    era: "legacy",
    features: LEGACY_BASE,
    capabilities: (installed) => legacyCapabilities(LEGACY_BASE, installed),
  }) as Revision;

function context(answer: Result) {
  const trail: string[] = [];
  const ctx: HandshakeContext = {
    upstream: "up",
    transport: "stdio",
    clientInfo: { name: "mcpx", version: "0.1.0" },
    handlers: { elicitation: { form: true, url: false }, sampling: false },
    settings: DEFAULT_UPSTREAM_SETTINGS,
    request: async (method, params, opts) => {
      trail.push(`${method} ${String(params.protocolVersion)} cancellable=${String(opts?.cancellable)}`);
      return answer;
    },
    notify: async (method) => {
      trail.push(method);
    },
    resolve: (version) => rev(version),
    agreed: (_r, version) => {
      trail.push(`agreed ${version}`);
    },
    spoken: () => ["2025-11-25", "2025-06-18"],
  };
  return { ctx, trail };
}

describe("initialize", () => {
  it("lifecycle/initialize-then-agreed-then-initialized", async () => {
    const { ctx, trail } = context({
      protocolVersion: "2025-06-18",
      capabilities: { tools: {} },
      serverInfo: { name: "s", version: "1" },
    });
    const negotiated = await initializeHandshake(rev("2025-11-25"), ctx);
    expect(negotiated.version).toBe("2025-06-18");
    expect(negotiated.serverInfo).toEqual({ name: "s", version: "1" });
    // initialize is never cancellable; initialized already speaks the negotiated version
    expect(trail).toEqual([
      "initialize 2025-11-25 cancellable=false",
      "agreed 2025-06-18",
      "notifications/initialized",
    ]);
  });

  it("lifecycle/no-protocol-version-no-initialized", async () => {
    const { ctx, trail } = context({ capabilities: {} });
    await expect(initializeHandshake(rev("2025-11-25"), ctx)).rejects.toBeInstanceOf(InvalidResultError);
    expect(trail).toEqual(["initialize 2025-11-25 cancellable=false"]);
  });
});
