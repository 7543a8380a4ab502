/**
 * The strict validators' revisions are the installed revision plugins' (a host's registry), each
 * with the testkit's schema file where there is one. A revision derived from another (a third
 * party's copy of a built-in revision under a date of its own) has none: asked for, the testkit says
 * so, and validates it as the revision it derives from when told to.
 */
import { readFileSync } from "node:fs";
import { type Plugin, silentLogger } from "@mcpx/core";
import { createHost } from "@mcpx/host";
import { describe, expect, it } from "vitest";
import { checkClientFrames, INSTALLED, REVISIONS, strictRevisions, validatorFor } from "../src/index.js";

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  dependencies: Record<string, string>;
};

/** A third party's revision: 2025-11-25's behaviour under a date of its own, cloned through the host. */
const derived: Plugin<unknown> = {
  name: "derived-revision",
  apiVersion: 1,
  apply(host) {
    const base = host.registry.revision("2025-11-25");
    if (!base) throw new Error("2025-11-25 is not installed");
    host.registerRevision({ ...base, version: "2099-01-01" });
  },
};

const initialize = (protocolVersion: string, capabilities: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion, capabilities, clientInfo: { name: "mcpx", version: "0.1.0" } },
});

describe("revisions", () => {
  it("testkit/revisions-come-from-the-installed-plugins", async () => {
    // The revision plugins the testkit depends on, applied to a host of this test's own.
    const host = createHost({ log: silentLogger });
    const plugins = Object.keys(manifest.dependencies).filter((d) => d.startsWith("@mcpx/revision-"));
    expect(plugins.length).toBeGreaterThan(0);
    for (const name of plugins) await host.use(((await import(name)) as { default: unknown }).default);
    const versions = host.registry
      .revisions()
      .map((r) => r.version)
      .reverse();
    expect(INSTALLED.map((r) => r.version)).toEqual(versions);
    // Each has its schema file, so each is validated strictly.
    expect(REVISIONS).toEqual(versions);
    for (const r of INSTALLED) expect(r.schemaFile).toMatch(new RegExp(`schemas/${r.version}\\.json$`));
    // No list of dates is written in the testkit's source.
    const source = readFileSync(new URL("../src/revisions.ts", import.meta.url), "utf8");
    expect(source).not.toMatch(/["'`]\d{4}-\d{2}-\d{2}["'`]/);

    // A derived revision is installed with no schema file of its own ...
    await host.use(derived);
    expect(strictRevisions(host.registry).at(-1)).toEqual({ version: "2099-01-01", schemaFile: undefined });
    // ... so it cannot be validated as itself, and the error says what to do.
    expect(() => validatorFor("2099-01-01")).toThrow(
      'unknown MCP revision "2099-01-01": no installed revision plugin provides it and the testkit has no schema for it (known: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28); a revision derived from one of them is validated as that one: validatorFor("2099-01-01", { validateAs: "<its base>" })',
    );
    expect(() => validatorFor("2099-01-01", { validateAs: "2098-01-01" })).toThrow(
      'cannot validate 2099-01-01 as "2098-01-01": the testkit has no schema for "2098-01-01"',
    );

    // Validated as the revision it derives from: its frames pass, and the strict rule still holds.
    const v = validatorFor("2099-01-01", { validateAs: "2025-11-25" });
    expect([v.revision, v.validatedAs]).toEqual(["2099-01-01", "2025-11-25"]);
    expect(v.clientMessage(initialize("2099-01-01"))).toEqual({ ok: true });
    const modernOnly = initialize("2099-01-01", { extensions: {} });
    expect(v.clientMessage(modernOnly)).toEqual({
      ok: false,
      reason: "invalid",
      errors: ["params.capabilities.extensions: key defined by 2026-07-28, not by 2025-11-25"],
    });
    expect(() => v.assertClientMessage(modernOnly)).toThrow(/2099-01-01 \(as 2025-11-25\) client message/);
    expect(checkClientFrames("2099-01-01", [initialize("2099-01-01")], { validateAs: "2025-11-25" })).toEqual(
      [],
    );
  });
});
