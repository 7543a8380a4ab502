/** The control API's paths: a malformed percent-encoding is the caller's mistake (400), not mcpx's (500). */
import { createControlHandler, startHttpServer } from "@mcpx/gateway";
import { describe, expect, it } from "vitest";
import { afterThisTest, scriptedGateway, TOOLS } from "../src/index.js";

describe("control API paths", () => {
  it("control/malformed-percent-encoding-is-400", async () => {
    const { gateway } = await scriptedGateway([{ name: "a", versions: ["2025-06-18"], tools: TOOLS }]);
    // a plugin's route with a parameter, beside the built-in ones: every route decodes the same way
    const control = createControlHandler(gateway, {
      info: { version: "test", startedAt: new Date().toISOString() },
      routes: [{ method: "GET", path: "things/:id", handle: (req) => ({ id: req.params.id }) }],
    });
    const http = await startHttpServer(gateway, { port: 0, keepAliveMs: 0, extraHandlers: [control] });
    afterThisTest(() => http.close());
    const base = http.url.replace(/\/mcp$/, "");

    for (const path of ["/.mcpx/list/%E0%A4%A", "/.mcpx/things/%zz", "/.mcpx/things/%E0%A4"]) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(400);
      expect(res.headers.get("content-type")).toBe("application/json");
      const body = (await res.json()) as { error: { code: number; message: string } };
      const segment = path.slice(path.lastIndexOf("/") + 1);
      expect(body.error.code).toBe(-32600);
      expect(body.error.message).toContain(JSON.stringify(segment));
      expect(body.error.message).toMatch(/not valid percent-encoding/);
    }
    // a well-formed one is decoded, and the routes still answer
    expect(await (await fetch(`${base}/.mcpx/things/a%20b%C3%BC`)).json()).toEqual({ id: "a bü" });
    const tools = (await (await fetch(`${base}/.mcpx/list/tools`)).json()) as { tools: { name: string }[] };
    expect(tools.tools.map((t) => t.name)).toContain("a__echo");
    // the MCP endpoint compares its paths undecoded: a malformed escape there is a path it does not have
    expect((await fetch(`${base}/mcp%E0%A4%A`)).status).toBe(404);
  });
});
