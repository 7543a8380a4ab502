/**
 * Each transport plugin declares what its transport can do, as data, and what a server entry needs
 * for it; the engine and the config check ask these, never the transport's kind. A transport that
 * declares nothing gets the conservative behaviour (that of stdio), never HTTP's.
 */
import {
  DEFAULT_UPSTREAM_SETTINGS,
  NO_TRANSPORT_CAPABILITIES,
  silentLogger,
  type Transport,
  transportCapabilities,
} from "@mcpx/core";
import { loadBuiltinPlugins } from "@mcpx/daemon";
import { createHost } from "@mcpx/host";
import { describe, expect, it } from "vitest";

const ctx = {
  upstream: "t",
  log: silentLogger,
  settings: DEFAULT_UPSTREAM_SETTINGS,
  sink: { message: () => {}, requestFailed: () => {}, closed: () => {} },
};

describe("transport capabilities", () => {
  it("transport/capabilities-declared-by-each-transport", async () => {
    const host = createHost({ log: silentLogger });
    for (const plugin of await loadBuiltinPlugins()) await host.use(plugin);
    const declared: Record<string, unknown> = {};
    const created: Transport[] = [];
    for (const factory of host.registry.transports()) {
      // Made, never opened: nothing is spawned or connected.
      const transport = factory.create({ name: "t", command: "node", url: "http://127.0.0.1:9/mcp" }, ctx);
      created.push(transport);
      // Declared by the plugin itself, not the default a transport that says nothing falls back to.
      expect(transport.capabilities, factory.kind).toBeDefined();
      declared[factory.kind] = { reaches: factory.reaches, ...transport.capabilities };
    }
    await Promise.all(created.map((t) => t.close()));
    expect(declared).toEqual({
      stdio: {
        reaches: "command",
        headers: false,
        abortableSends: false,
        perRequestStreams: false,
        sessions: false,
      },
      "streamable-http": {
        reaches: "url",
        headers: true,
        abortableSends: true,
        perRequestStreams: true,
        sessions: true,
      },
      // Every answer comes on the one SSE stream: closing a POST cancels nothing.
      "http+sse": {
        reaches: "url",
        headers: true,
        abortableSends: true,
        perRequestStreams: false,
        sessions: true,
      },
    });

    // A transport that declares nothing: the conservative behaviour, whatever its kind says.
    const silent = { kind: "streamable-http" } as Transport;
    expect(transportCapabilities(silent)).toBe(NO_TRANSPORT_CAPABILITIES);
    expect(NO_TRANSPORT_CAPABILITIES).toEqual({
      headers: false,
      abortableSends: false,
      perRequestStreams: false,
      sessions: false,
    });
  });
});
