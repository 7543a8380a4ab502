// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${env:NAME} is the config's own syntax
import { ConfigError } from "@mcpx/core";
import { describe, expect, it } from "vitest";
import { diffConfig, isEmptyDiff, parseConfig } from "../src/index.js";

const load = (config: object, env: Record<string, string> = {}) =>
  parseConfig(config, { path: "/tmp/mcpx.json", env });

const base = {
  servers: {
    a: { command: "node", args: ["a.js"] },
    b: { url: "http://127.0.0.1:9000/mcp", auth: { type: "bearer", token: "${env:TOKEN}" } },
    c: { command: "node", args: ["c.js"] },
  },
};

describe("config diff", () => {
  it("reload/diff-none", () => {
    const diff = diffConfig(load(base, { TOKEN: "t" }), load(base, { TOKEN: "t" }));
    expect(diff).toEqual({
      added: [],
      removed: [],
      changed: [],
      unchanged: ["a", "b", "c"],
      restartOnly: [],
    });
    expect(isEmptyDiff(diff)).toBe(true);
  });

  it("reload/diff-added-removed", () => {
    const next = { servers: { a: base.servers.a, d: { command: "node", args: ["d.js"] } } };
    const diff = diffConfig(load(base, { TOKEN: "t" }), load(next));
    expect(diff.added).toEqual(["d"]);
    expect(diff.removed).toEqual(["b", "c"]);
    expect(diff.unchanged).toEqual(["a"]);
    expect(isEmptyDiff(diff)).toBe(false);
  });

  it("reload/diff-changed-names-the-keys", () => {
    const next = {
      servers: {
        ...base.servers,
        a: { command: "node", args: ["a.js", "--verbose"], namespace: "alpha" },
        c: { command: "node", args: ["c.js"], timeouts: { request: 5000 } },
      },
    };
    const diff = diffConfig(load(base, { TOKEN: "t" }), load(next, { TOKEN: "t" }));
    expect(diff.changed).toEqual([
      { name: "a", keys: ["args", "namespace"] },
      { name: "c", keys: ["settings"] },
    ]);
    expect(diff.unchanged).toEqual(["b"]);
  });

  it("reload/diff-auth-change-is-a-change", () => {
    // The same text, a different credential behind ${env:TOKEN}: the upstream must reconnect.
    const diff = diffConfig(load(base, { TOKEN: "old" }), load(base, { TOKEN: "new" }));
    expect(diff.changed).toEqual([{ name: "b", keys: ["auth"] }]);
    // Named by key only: the values (secrets) appear nowhere in the diff.
    expect(JSON.stringify(diff)).not.toMatch(/old|new/);
  });

  it("reload/diff-global-upstream-settings-change-every-server", () => {
    const diff = diffConfig(
      load(base, { TOKEN: "t" }),
      load({ ...base, upstream: { timeouts: { request: 1234 } } }, { TOKEN: "t" }),
    );
    expect(diff.changed.map((c) => c.name)).toEqual(["a", "b", "c"]);
    expect(diff.changed.every((c) => c.keys.join() === "settings")).toBe(true);
  });

  it("reload/diff-disabling-removes-enabling-adds", () => {
    const disabled = { servers: { ...base.servers, c: { ...base.servers.c, disabled: true } } };
    const off = diffConfig(load(base, { TOKEN: "t" }), load(disabled, { TOKEN: "t" }));
    expect(off.removed).toEqual(["c"]);
    const on = diffConfig(load(disabled, { TOKEN: "t" }), load(base, { TOKEN: "t" }));
    expect(on.added).toEqual(["c"]);
  });

  it("reload/diff-restart-only-keys", () => {
    const next = {
      ...base,
      listen: { port: 9999 },
      console: false,
      stateDir: "elsewhere",
      store: { type: "redis", url: "redis://127.0.0.1:6379" },
      log: { level: "debug" },
      // Applied live: not restart-only.
      reload: { grace: 50 },
      readiness: { require: "any" },
      roots: [{ uri: "file:///tmp" }],
    };
    const diff = diffConfig(load(base, { TOKEN: "t" }), load(next, { TOKEN: "t" }));
    expect(diff.restartOnly).toEqual(["listen", "console", "stateDir", "store", "log"]);
    expect(diff.unchanged).toEqual(["a", "b", "c"]);
  });

  it("reload/diff-store-is-restart-only-named-by-key", () => {
    const redis = (url: string) => ({ ...base, store: { type: "redis", url } });
    const before = load(redis("${env:REDIS}"), { TOKEN: "t", REDIS: "redis://:old-pass@127.0.0.1:6379" });
    const after = load(redis("${env:REDIS}"), { TOKEN: "t", REDIS: "redis://:new-pass@127.0.0.1:6379" });
    const diff = diffConfig(before, after);
    expect(diff.restartOnly).toEqual(["store"]);
    expect(JSON.stringify(diff)).not.toContain("pass");
    // Same store, nothing to report; the embedded one (no `store`) is a change too.
    expect(diffConfig(before, before).restartOnly).toEqual([]);
    expect(diffConfig(load(base, { TOKEN: "t" }), before).restartOnly).toEqual(["store"]);
  });

  it("reload/diff-readiness-names-known-servers", () => {
    expect(load({ ...base, readiness: { require: ["a", "c"] } }, { TOKEN: "t" }).readiness.require).toEqual([
      "a",
      "c",
    ]);
    let error: unknown;
    try {
      load({ ...base, readiness: { require: ["a", "zz"] } }, { TOKEN: "t" });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'readiness.require[1]: "zz" is not a server of this config',
    ]);
  });

  it("reload/diff-reload-defaults", () => {
    expect(load(base, { TOKEN: "t" }).reload).toEqual({ watch: true, debounce: 200, grace: 10_000 });
    expect(load(base, { TOKEN: "t" }).readiness).toEqual({ require: "all" });
  });
});
