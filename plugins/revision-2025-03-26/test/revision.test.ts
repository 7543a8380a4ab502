import { type ConnectionInfo, notificationOf, requestOf, silentLogger } from "@mcpx/core";
import { createHost } from "@mcpx/host";
import { describe, expect, it } from "vitest";
import plugin, { revision } from "../src/index.js";

const conn: ConnectionInfo = {
  upstream: "up",
  transport: "streamable-http",
  version: "2025-03-26",
  clientInfo: { name: "mcpx", version: "0" },
  capabilities: {},
};

describe("revision 2025-03-26", () => {
  it("2025-03-26/plugin/registers", async () => {
    const host = createHost({ log: silentLogger });
    await host.use(plugin);
    expect(host.registry.revision("2025-03-26")).toBe(revision);
    expect(revision.era).toBe("legacy");
  });

  it("2025-03-26/lifecycle/declared-capabilities", () => {
    expect(revision.capabilities({ elicitation: { form: false, url: false }, sampling: false })).toEqual({
      roots: { listChanged: false },
    });
    expect(revision.capabilities({ elicitation: { form: true, url: true }, sampling: true })).toEqual({
      roots: { listChanged: false },
      sampling: {},
    });
  });

  it("2025-03-26/headers/per-frame", () => {
    const init = { jsonrpc: "2.0" as const, id: 1, method: "initialize", params: {} };
    const list = { jsonrpc: "2.0" as const, id: 2, method: "tools/list" };
    expect(revision.headers(init, conn)).toBeUndefined();
    expect(revision.headers(list, conn)).toEqual(undefined);
  });

  it("2025-03-26/cancellation/rule", () => {
    expect(revision.cancel("initialize")).toBe("never");
    expect(revision.cancel("tools/call")).toBe("notify");
  });

  it("2025-03-26/pagination/rule", () => {
    expect(revision.paginationEnded(undefined, "c1")).toBe(false);
    expect(revision.paginationEnded(undefined, undefined)).toBe(true);
    expect(revision.paginationEnded(undefined, "")).toBe(true);
    expect(revision.paginationEnded("c1", "c1")).toBe(true);
  });

  it("revision-plugin/2025-03-26-serves-completions-and-no-elicitation", () => {
    // what mcpx declares to a client of this revision is cut to the capabilities it defines
    expect(revision.server.capabilities.includes("completions")).toBe(true);
    expect(requestOf(revision.methods, "completion/complete", "client")).toBeDefined();
    expect(requestOf(revision.methods, "elicitation/create", "server") !== undefined).toBe(false);
    expect(notificationOf(revision.methods, "notifications/elicitation/complete", "server")).toBeUndefined();
    expect(requestOf(revision.methods, "server/discover", "client")).toBeUndefined();
    expect(revision.server.samplingTools).toBe(false);
  });
});
