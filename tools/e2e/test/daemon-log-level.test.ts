/**
 * The daemon asks every upstream for info-level log lines (client-every-revision.md, Lifecycle): a
 * legacy upstream that declared `logging` gets logging/setLevel once its handshake is done, one
 * that did not is asked nothing (it would answer -32601), and a modern one carries the level in
 * every request's _meta (2026-07-28 removed logging/setLevel; without a level it MUST NOT log).
 */
import { MetaKey } from "@mcpx/core";
import { describe, expect, it } from "vitest";
import { daemonCase, metaOf, requirement, TOOLS } from "../src/index.js";

describe("the daemon's log level", () => {
  requirement(
    [
      "2024-11-05/lifecycle/daemon-asks-info",
      "2025-03-26/lifecycle/daemon-asks-info",
      "2025-06-18/lifecycle/daemon-asks-info",
      "2025-11-25/lifecycle/daemon-asks-info",
    ],
    async (rev) => {
      const d = await daemonCase([
        // the scripted server declares logging unless told otherwise
        { name: "logs", versions: [rev], tools: TOOLS },
        { name: "quiet", versions: [rev], tools: TOOLS, capabilities: { tools: {} } },
      ]);
      const logs = d.scripted.logs!;
      const quiet = d.scripted.quiet!;
      const set = await logs.waitForMethod("logging/setLevel");
      expect(set.frame.params).toEqual({ level: "info" });
      const methods = logs.frames().map((f) => f.method);
      expect(methods.indexOf("logging/setLevel")).toBeGreaterThan(
        methods.indexOf("notifications/initialized"),
      );
      // over stdio, frames arrive in the order sent: a list answered after the handshake means
      // everything the connection sent first has arrived
      await d.serving.runtime.gateway.pool.client("logs")?.listTools();
      await d.serving.runtime.gateway.pool.client("quiet")?.listTools();
      expect(logs.frames("logging/setLevel")).toHaveLength(1);
      expect(quiet.frames("logging/setLevel")).toEqual([]);
      expect(quiet.frames("tools/list").length).toBeGreaterThan(0);
      expect([...logs.failures, ...quiet.failures]).toEqual([]);
    },
  );

  it("2026-07-28/lifecycle/daemon-asks-info", async () => {
    const d = await daemonCase([{ name: "m", versions: ["2026-07-28"], tools: TOOLS }]);
    const client = d.serving.runtime.gateway.pool.client("m");
    await client?.listTools();
    await client?.callTool("echo", { text: "x" });
    const server = d.scripted.m!;
    expect(server.frames("logging/setLevel")).toEqual([]);
    const requests = server.frames().filter((f) => f.method !== undefined && f.id !== undefined);
    const [discover, ...later] = requests;
    expect(discover?.method).toBe("server/discover");
    expect(later.map((f) => f.method)).toEqual(expect.arrayContaining(["tools/list", "tools/call"]));
    for (const f of later) expect(metaOf(f)[MetaKey.logLevel], f.method).toBe("info");
    expect(server.failures).toEqual([]);
  });
});
