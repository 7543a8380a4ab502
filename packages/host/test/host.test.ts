import {
  type ControlRoute,
  definePlugin,
  type JSONObject,
  type LifecycleEvent,
  PluginError,
  type PluginHost,
  type Revision,
  silentLogger,
  type TransportFactory,
} from "@mcpx/core";
import { describe, expect, it } from "vitest";
import { createHost } from "../src/index.js";

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

  it("host/options-checked-before-apply", async () => {
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
    // refused before apply: the plugin never ran, and is not among the applied ones
    expect(seen).toBeUndefined();
    expect(host.plugins).toEqual([]);
    await host.use(plugin, { greeting: "hi" });
    expect(seen).toEqual({ greeting: "hi", times: 1 });
  });

  it("host/plugin-without-options-gets-what-ajv-would-give-it", async () => {
    const schema = {
      type: "object",
      additionalProperties: false,
      properties: {
        timeoutMs: { type: "integer", default: 5 },
        hold: { type: "boolean", default: false },
        nested: { type: "object", default: { a: 1 }, properties: { b: { type: "string", default: "x" } } },
        list: { type: "array", default: ["one"] },
        free: { type: "string" },
      },
    };
    const seen: unknown[] = [];
    const plugin = (name: string, optionsSchema: JSONObject) =>
      definePlugin<JSONObject>({ name, apiVersion: 1, optionsSchema, apply: (_h, o) => void seen.push(o) });
    const host = createHost({ log: silentLogger });
    // No options: the defaults without ajv; `{}` given: ajv's useDefaults. The same either way.
    await host.use(plugin("plain", schema as JSONObject));
    await host.use(plugin("given", schema as JSONObject), {});
    expect(seen[0]).toEqual({ timeoutMs: 5, hold: false, nested: { a: 1, b: "x" }, list: ["one"] });
    expect(seen[1]).toEqual(seen[0]);
    // A schema `{}` may fail (a required key) is still validated, options or not.
    await expect(
      host.use(plugin("needs", { type: "object", properties: { k: { type: "string" } }, required: ["k"] })),
    ).rejects.toThrow("plugin needs: invalid options: options.k: is required");
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

  it("host/plugins-see-a-read-only-registry", async () => {
    const host = createHost({ log: silentLogger });
    await host.use(
      definePlugin({
        name: "first",
        apiVersion: 1,
        apply: (h) => h.registerRevision(fakeRevision("2025-06-18")),
      }),
    );
    let view: PluginHost["registry"] | undefined;
    let seen: Revision | undefined;
    await host.use(
      definePlugin({
        name: "second",
        apiVersion: 1,
        apply(h) {
          view = h.registry;
          // what an earlier plugin registered is there to read
          seen = h.registry.revision("2025-06-18");
        },
      }),
    );
    expect(seen?.version).toBe("2025-06-18");
    const registry = view as PluginHost["registry"];
    expect(registry.revisions().map((r) => r.version)).toEqual(["2025-06-18"]);
    expect(registry.revisions("modern")).toEqual([]);
    expect(registry.transport("stdio")).toBeUndefined();
    expect(registry.authScheme("bearer")).toBeUndefined();
    // the read methods only, on a frozen object that is not the registry
    const writes = [
      "addRevision",
      "addTransport",
      "addAuthScheme",
      "addElicitationHandler",
      "addSamplingHandler",
      "addControlRoute",
    ];
    for (const name of writes) {
      expect(name in registry, name).toBe(false);
      expect(name in host.registry, name).toBe(false);
    }
    const cast = registry as unknown as { addRevision(r: Revision, plugin?: string): void };
    expect(() => cast.addRevision(fakeRevision("2099-01-01"))).toThrow(TypeError);
    expect(Object.isFrozen(registry)).toBe(true);
    expect(() => Object.assign(registry, { revision: () => fakeRevision("2099-01-01") })).toThrow(TypeError);
    // the lists it hands out are copies: adding to one adds nothing
    const route: ControlRoute = { method: "GET", path: "x", handle: () => ({}) };
    (registry.controlRoutes() as ControlRoute[]).push(route);
    expect(registry.controlRoutes()).toEqual([]);
    expect(registry.revision("2099-01-01")).toBeUndefined();
    // registering goes through the host, which names the plugin
    await expect(
      host.use(
        definePlugin({
          name: "third",
          apiVersion: 1,
          apply: (h) => h.registerRevision(fakeRevision("2025-06-18")),
        }),
      ),
    ).rejects.toThrow("plugin third: revision 2025-06-18 is already registered by plugin first");
  });

  it("hooks/built-in-events-are-taps-of-the-typed-hooks", () => {
    const host = createHost({ log: silentLogger });
    const events: LifecycleEvent[] = [];
    host.hooks.lifecycle.tap("test", (e) => events.push(e));
    // a third party's taps on the typed hooks, beside mcpx's own
    const seen: unknown[] = [];
    host.hooks.serverWarning.tap("test", (w) => seen.push(w));
    host.hooks.eraResolved.tap("test", (upstream, era, cached) => seen.push({ upstream, era, cached }));
    host.hooks.requestTimedOut.tap("test", (r) => seen.push(r));
    expect(host.hooks.serverWarning.taps.map((t) => t.name)).toEqual(["test", "mcpx:warning-events"]);
    expect(host.hooks.eraResolved.taps.map((t) => t.name)).toEqual(["test", "mcpx:era-events"]);
    expect(host.hooks.requestTimedOut.taps.map((t) => t.name)).toEqual(["test", "mcpx:timeout-events"]);

    const warning = { upstream: "fs", message: "tool x left out", tool: "x" };
    const era = { revision: "2025-06-18", transport: "stdio", probedAt: "2026-01-01T00:00:00.000Z" };
    const timedOut = { upstream: "fs", method: "tools/call", afterMs: 250, cancelled: "notify" as const };
    host.hooks.serverWarning.call(warning);
    host.hooks.eraResolved.call("fs", era, false);
    host.hooks.requestTimedOut.call(timedOut);
    expect(seen).toEqual([warning, { upstream: "fs", era, cached: false }, timedOut]);
    // each call of a typed hook is its one event, with what the tap saw
    expect(events).toEqual([
      { type: "server.warning", ...warning },
      { type: "era.resolved", upstream: "fs", era, cached: false },
      { type: "request.timedOut", upstream: "fs", method: "tools/call", afterMs: 250 },
    ]);
  });
});
