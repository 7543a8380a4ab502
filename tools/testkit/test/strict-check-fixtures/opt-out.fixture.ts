/** Opted-out servers: one that saw the invalid frame it expects, one that saw none (run by strict-check.test.ts). */
import { expect, it } from "vitest";
import { ScriptedServer } from "../../src/index.js";

it("fixture/opted-out-server-with-its-invalid-frame", async () => {
  const server = new ScriptedServer({ versions: ["2025-06-18"], expectInvalidFrames: "proves the opt-out" });
  await server.receive([{ jsonrpc: "2.0", id: 7, method: "tools/call", params: { arguments: {} } }]);
  expect(server.failures).toHaveLength(1);
});

it("fixture/opted-out-server-that-saw-only-valid-frames", async () => {
  const server = new ScriptedServer({
    versions: ["2025-06-18"],
    serverInfo: { name: "stale", version: "1" },
    expectInvalidFrames: "a reason that no longer holds",
  });
  await server.receive([{ jsonrpc: "2.0", id: 1, method: "ping" }]);
  expect(server.failures).toEqual([]);
});
