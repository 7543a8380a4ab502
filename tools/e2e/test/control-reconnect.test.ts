/** POST /.mcpx/upstreams/:name/reconnect: the console's Reconnect button, behind the control API's gate. */
import type { JSONObject } from "@mcpx/core";
import { describe, expect, it } from "vitest";
import { daemonCase, TOOLS } from "../src/index.js";

const connected = (events: JSONObject[], name: string) =>
  events.filter((e) => e.type === "upstream.connected" && e.upstream === name).length;

describe("control: reconnect", () => {
  it("control/reconnect-route-reconnects", async () => {
    const d = await daemonCase([{ name: "a", versions: ["2025-06-18"], tools: TOOLS }]);
    const before = await d.get<{ events: JSONObject[] }>("events");
    expect(connected(before.events, "a")).toBe(1);
    const res = await d.post<JSONObject>("upstreams/a/reconnect", {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "a", status: "connected", attempts: 0, revision: "2025-06-18" });
    // Closed and connected again: a second connection, and the tools are there again.
    const after = await d.get<{ events: JSONObject[] }>("events");
    expect(connected(after.events, "a")).toBe(2);
    const tools = await d.get<{ tools: { name: string }[] }>("list/tools");
    expect(tools.tools.map((t) => t.name)).toContain("a__echo");
    // The same gate as every control route: a foreign Origin and a cross-site form body are refused.
    const foreign = await fetch(`${d.control}upstreams/a/reconnect`, {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/json" },
      body: "{}",
    });
    expect(foreign.status).toBe(403);
    const form = await fetch(`${d.control}upstreams/a/reconnect`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "{}",
    });
    expect(form.status).toBe(415);
    expect(connected((await d.get<{ events: JSONObject[] }>("events")).events, "a")).toBe(2);
  });

  it("control/reconnect-route-needs-the-token", async () => {
    const d = await daemonCase([{ name: "a", versions: ["2025-06-18"], tools: TOOLS }], {
      listen: { token: "reconnect-token" },
    });
    const bare = await fetch(`${d.control}upstreams/a/reconnect`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(bare.status).toBe(401);
    const withToken = await fetch(`${d.control}upstreams/a/reconnect`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer reconnect-token" },
      body: "{}",
    });
    expect(withToken.status).toBe(200);
    expect(await withToken.json()).toMatchObject({ name: "a", status: "connected" });
  });

  it("control/reconnect-route-unknown-upstream-404", async () => {
    const d = await daemonCase([{ name: "a", versions: ["2025-06-18"], tools: TOOLS }]);
    const res = await d.post<{ error: { code: number; message: string; data: unknown } }>(
      "upstreams/nope/reconnect",
      {},
    );
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe(-32602);
    expect(res.body.error.message).toBe('no upstream named "nope" (upstreams: a)');
    expect(res.body.error.data).toEqual({ upstream: "nope" });
  });
});
