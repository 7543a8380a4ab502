import { type ConnectionInfo, silentLogger } from "@mcpx/core";
import { createHost } from "@mcpx/host";
import { describe, expect, it } from "vitest";
import plugin, { revision } from "../src/index.js";

const conn: ConnectionInfo = {
  upstream: "up",
  transport: "streamable-http",
  version: "2025-11-25",
  clientInfo: { name: "mcpx", version: "0" },
  capabilities: {},
};

describe("revision 2025-11-25", () => {
  it("2025-11-25/plugin/registers", async () => {
    const host = createHost({ log: silentLogger });
    await host.use(plugin);
    expect(host.registry.revision("2025-11-25")).toBe(revision);
    expect(revision.era).toBe("legacy");
  });

  it("2025-11-25/lifecycle/declared-capabilities", () => {
    expect(revision.capabilities({ elicitation: { form: false, url: false }, sampling: false })).toEqual({
      roots: { listChanged: false },
      elicitation: { form: {} },
    });
    expect(revision.capabilities({ elicitation: { form: true, url: true }, sampling: true })).toEqual({
      roots: { listChanged: false },
      sampling: {},
      elicitation: { form: {}, url: {} },
    });
  });

  it("2025-11-25/headers/per-frame", () => {
    const init = { jsonrpc: "2.0" as const, id: 1, method: "initialize", params: {} };
    const list = { jsonrpc: "2.0" as const, id: 2, method: "tools/list" };
    expect(revision.headers(init, conn)).toBeUndefined();
    expect(revision.headers(list, conn)).toEqual({ "MCP-Protocol-Version": "2025-11-25" });
  });

  it("2025-11-25/cancellation/rule", () => {
    expect(revision.cancel("initialize")).toBe("never");
    expect(revision.cancel("tools/call")).toBe("notify");
  });

  it("2025-11-25/pagination/rule", () => {
    expect(revision.paginationEnded(undefined, "c1")).toBe(false);
    expect(revision.paginationEnded(undefined, undefined)).toBe(true);
    expect(revision.paginationEnded(undefined, "")).toBe(true);
    expect(revision.paginationEnded("c1", "c1")).toBe(true);
  });
});
