/** `mcpx reconnect <name>` against a real daemon: connected again now, or why not. */
import { describe, expect, it } from "vitest";
import { daemonCase, TOOLS } from "../src/index.js";

describe("mcpx reconnect", () => {
  it("cli/reconnect-connects-again", async () => {
    const d = await daemonCase([{ name: "fs", versions: ["2025-06-18"], tools: TOOLS }]);
    const out = await d.cli("reconnect", "fs");
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    expect(out.stdout).toBe("fs: connected 2025-06-18 over stdio\n");
    const json = await d.cli("reconnect", "fs", "--json");
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ name: "fs", status: "connected", attempts: 0 });
  });

  it("cli/reconnect-unknown-upstream-is-a-usage-error", async () => {
    const d = await daemonCase([{ name: "files", versions: ["2025-06-18"], tools: TOOLS }]);
    const out = await d.cli("reconnect", "filez");
    expect(out.code).toBe(2);
    expect(out.stdout).toBe("");
    expect(out.stderr).toContain("the daemon has no upstream filez");
    expect(out.stderr).toContain("files");
  });

  it("cli/reconnect-failed-upstream-exits-3", async () => {
    const d = await daemonCase([{ name: "old", versions: ["2025-06-18"], answerVersion: "1999-01-01" }]);
    const out = await d.cli("reconnect", "old");
    expect(out.code).toBe(3);
    expect(out.stdout).toBe("");
    expect(out.stderr).toMatch(/^mcpx: old did not connect: .+/);
  });
});
