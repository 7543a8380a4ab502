/** A test that never looks at `failures`, and one whose frames are all valid (run by strict-check.test.ts). */
import { expect, it } from "vitest";
import { ScriptedServer } from "../../src/index.js";

it("fixture/invalid-frame-the-test-never-looks-at", async () => {
  const server = new ScriptedServer({
    versions: ["2025-06-18"],
    serverInfo: { name: "forgetful", version: "1" },
  });
  // tools/call without its required `name`.
  await server.receive([{ jsonrpc: "2.0", id: 7, method: "tools/call", params: { arguments: {} } }]);
  expect(server.received).toHaveLength(1);
});

it("fixture/valid-frames-only", async () => {
  const server = new ScriptedServer({ versions: ["2025-06-18"] });
  await server.receive([{ jsonrpc: "2.0", id: 1, method: "ping" }]);
  expect(server.received).toHaveLength(1);
});
