import { describe, expect, it } from "vitest";
import {
  createHost,
  definePlugin,
  type LifecycleEvent,
  PluginError,
  type PluginHost,
  type Revision,
  silentLogger,
  type TransportFactory,
} from "../src/index.js";

const fakeRevision = (version: string, era: "legacy" | "modern" = "legacy") =>
  ({ version, era }) as unknown as Revision;

describe("host", () => {
  it("plugins/apply-registers", async () => {
    const host = createHost({ log: silentLogger });
    await host.use(
      definePlugin({
        name: "rev-a",
        apiVersion: 1,
        apply(h) {
          h.registerRevision(fakeRevision("2025-06-18"));
          h.registerRevision(fakeRevision("2026-07-28", "modern"));
          h.registerRevision(fakeRevision("2024-11-05"));
        },
      }),
    );
    expect(host.registry.revisions().map((r) => r.version)).toEqual([
      "2026-07-28",
      "2025-06-18",
      "2024-11-05",
    ]);
    expect(host.registry.revisions("legacy").map((r) => r.version)).toEqual(["2025-06-18", "2024-11-05"]);
    expect(host.plugins).toEqual([{ name: "rev-a" }]);
  });

  it("plugins/api-version-checked", async () => {
    const host = createHost({ log: silentLogger });
    await expect(host.use({ name: "future", apiVersion: 2, apply() {} })).rejects.toThrow(
      "plugin future: needs plugin API version 2, this mcpx provides 1",
    );
  });

  it("plugins/wrong-export", async () => {
    const host = createHost({ log: silentLogger });
    const err = await host.use({ hello: 1 }, {}, "./my-plugin.js").catch((e) => e);
    expect(err).toBeInstanceOf(PluginError);
    expect(err.message).toBe(
      "plugin ./my-plugin.js: does not export a Plugin (an object with name, apiVersion and apply)",
    );
  });

  it("plugins/options-checked", async () => {
    const host = createHost({ log: silentLogger });
    let seen: unknown;
    const plugin = definePlugin<{ greeting: string; times: number }>({
      name: "greeter",
      apiVersion: 1,
      optionsSchema: {
        type: "object",
        properties: { greeting: { type: "string" }, times: { type: "integer", default: 1 } },
        required: ["greeting"],
        additionalProperties: false,
      },
      apply(_h, o) {
        seen = o;
      },
    });
    await expect(host.use(plugin, { greting: "hi" })).rejects.toThrow(
      "plugin greeter: invalid options: options.greeting: is required; options.greting: is not a known key",
    );
    await host.use(plugin, { greeting: "hi" });
    expect(seen).toEqual({ greeting: "hi", times: 1 });
  });

  it("plugins/throw-wrapped-with-name", async () => {
    const host = createHost({ log: silentLogger });
    const err = await host
      .use({
        name: "broken",
        apiVersion: 1,
        apply() {
          throw new Error("kaboom");
        },
      })
      .catch((e) => e);
    expect(err).toBeInstanceOf(PluginError);
    expect(err.plugin).toBe("broken");
    expect(err.message).toBe("plugin broken: apply failed: kaboom");
    expect(err.cause.message).toBe("kaboom");
  });

  it("plugins/duplicate-registration-named", async () => {
    const host = createHost({ log: silentLogger });
    const t: TransportFactory = { kind: "stdio", accepts: () => true, create: () => ({}) as never };
    await host.use({ name: "one", apiVersion: 1, apply: (h: PluginHost) => h.registerTransport(t) });
    await expect(
      host.use({ name: "two", apiVersion: 1, apply: (h: PluginHost) => h.registerTransport(t) }),
    ).rejects.toThrow("plugin two: transport stdio is already registered by plugin one");
  });

  it("hooks/frozen-and-tapped", async () => {
    const host = createHost({ log: silentLogger });
    expect(Object.isFrozen(host.hooks)).toBe(true);
    const events: LifecycleEvent[] = [];
    const warnings: string[] = [];
    host.hooks.lifecycle.tap("test", (e) => events.push(e));
    host.hooks.serverWarning.tap("test", (w) => warnings.push(w.message));
    host.warn({ upstream: "fs", message: "tool x is invalid", tool: "x", reason: "bad header" });
    expect(warnings).toEqual(["tool x is invalid"]);
    expect(events).toEqual([
      {
        type: "server.warning",
        upstream: "fs",
        message: "tool x is invalid",
        tool: "x",
        reason: "bad header",
      },
    ]);
    host.hooks.outgoingFrame.tap("test", (frame) => ({ ...frame, touched: true }) as never);
    const out = host.hooks.outgoingFrame.call(
      { jsonrpc: "2.0", method: "x" },
      {
        upstream: "fs",
        version: undefined,
        transport: "stdio",
      },
    );
    expect(out).toEqual({ jsonrpc: "2.0", method: "x", touched: true });
  });
});
