// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${env:NAME} is the config's own syntax
/**
 * GET /.mcpx/health and /.mcpx/ready on a real `mcpx serve`: for load balancers, so open without the
 * bearer token the rest of the daemon asks for, and answering upstream names and states only.
 */
import { join } from "node:path";
import type { JSONObject } from "@mcpx/core";
import { serve } from "@mcpx/daemon";
import { defaultHandler } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { afterThisTest, configDir, freePort, until } from "../src/index.js";
import { upstream } from "./reload.helpers.js";

async function daemon(
  servers: Record<string, JSONObject>,
  extra: JSONObject = {},
  env: Record<string, string> = {},
) {
  const port = await freePort();
  const listen = { host: "127.0.0.1", port, token: "the-token", ...(extra.listen as JSONObject | undefined) };
  const dir = await configDir({ ...extra, listen, servers, stateDir: ".state", reload: { watch: false } });
  const serving = await serve({
    configFile: join(dir, "mcpx.json"),
    env,
    writeLog: () => {},
    logLevel: "error",
  });
  afterThisTest(() => serving.stop());
  const base = `http://127.0.0.1:${port}/.mcpx/`;
  const probe = async (route: "health" | "ready") => {
    const res = await fetch(`${base}${route}`);
    return { status: res.status, body: (await res.json()) as JSONObject };
  };
  return { serving, base, probe };
}

describe("health", () => {
  it("health/health-open", async () => {
    const a = await upstream("a");
    const d = await daemon({ a: a.entry() });
    // No token: a balancer has none.
    expect(await d.probe("health")).toEqual({ status: 200, body: { status: "ok" } });
    // The rest of /.mcpx/ still asks for it.
    expect((await fetch(`${d.base}status`)).status).toBe(401);
    expect(
      (
        await fetch(`${d.base}reload`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{}",
        })
      ).status,
    ).toBe(401);
    // GET only; and a web page of another origin cannot read it.
    expect((await fetch(`${d.base}health`, { method: "POST" })).status).toBe(405);
    expect((await fetch(`${d.base}health`, { headers: { origin: "https://evil.example" } })).status).toBe(
      403,
    );
  });

  it("health/ready-503-until-upstreams-ready", async () => {
    const a = await upstream("a");
    const slow = await upstream("slow");
    let letIn: (() => void) | undefined;
    const admitted = new Promise<void>((resolve) => {
      letIn = resolve;
    });
    // Its handshake waits for the test.
    slow.server.on("initialize", async (req, ctx) => {
      await admitted;
      return defaultHandler("initialize")(req, ctx);
    });
    const d = await daemon({ a: a.entry(), slow: slow.entry() });
    await until(() => a.script.connections === 1 && slow.script.connections === 1);
    const waiting = await d.probe("ready");
    expect(waiting.status).toBe(503);
    expect(waiting.body.ready).toBe(false);
    expect(waiting.body.upstreams).toContainEqual({ name: "slow", status: "connecting", required: true });
    // Health does not depend on the upstreams.
    expect((await d.probe("health")).status).toBe(200);
    letIn?.();
    await d.serving.runtime.gateway.pool.settled();
    const ready = await d.probe("ready");
    expect(ready).toEqual({
      status: 200,
      body: {
        ready: true,
        upstreams: [
          { name: "a", status: "connected", required: true },
          { name: "slow", status: "connected", required: true },
        ],
      },
    });
  });

  it("health/ready-200", async () => {
    const a = await upstream("a");
    const dead = { command: "/nonexistent/mcp-server" };
    // The default rule: every enabled upstream. A disabled one does not count.
    const all = await daemon({ a: a.entry(), off: { ...dead, disabled: true } });
    await all.serving.runtime.gateway.pool.settled();
    expect(await all.probe("ready")).toEqual({
      status: 200,
      body: { ready: true, upstreams: [{ name: "a", status: "connected", required: true }] },
    });
    // "any": one connected is enough, a dead one notwithstanding.
    const any = await daemon({ a: a.entry(), dead }, { readiness: { require: "any" } });
    await any.serving.runtime.gateway.pool.settled();
    const anyReady = await any.probe("ready");
    expect(anyReady.status).toBe(200);
    expect(anyReady.body.upstreams).toEqual([
      { name: "a", status: "connected", required: false },
      { name: "dead", status: "failed", required: false },
    ]);
    // Named ones: ready when those are, whatever the others do; not when a named one is down.
    const named = await daemon({ a: a.entry(), dead }, { readiness: { require: ["a"] } });
    await named.serving.runtime.gateway.pool.settled();
    expect((await named.probe("ready")).status).toBe(200);
    const needsDead = await daemon({ a: a.entry(), dead }, { readiness: { require: ["dead"] } });
    await needsDead.serving.runtime.gateway.pool.settled();
    expect((await needsDead.probe("ready")).status).toBe(503);
  });

  it("health/health-reveals-no-errors", async () => {
    const d = await daemon(
      {
        broken: {
          command: "/nonexistent/secret-dir/mcp-server",
          args: ["--key", "${env:UPSTREAM_KEY}"],
          env: { API_KEY: "${env:UPSTREAM_KEY}" },
        },
        api: { url: "http://127.0.0.1:9/mcp", auth: { type: "bearer", token: "${env:UPSTREAM_KEY}" } },
      },
      {},
      { UPSTREAM_KEY: "hunter2-key" },
    );
    await d.serving.runtime.gateway.pool.settled();
    // The daemon knows why they failed (its status, behind the token, says so)...
    const status = await fetch(`${d.base}status`, { headers: { authorization: "Bearer the-token" } });
    const states = ((await status.json()) as JSONObject).upstreams as JSONObject[];
    expect(states.every((s) => typeof s.error === "string" && s.error.length > 0)).toBe(true);
    // ...the open probes say only names and states.
    const ready = await d.probe("ready");
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({
      ready: false,
      upstreams: [
        { name: "broken", status: "failed", required: true },
        { name: "api", status: "failed", required: true },
      ],
    });
    const text = JSON.stringify([ready.body, (await d.probe("health")).body]);
    for (const leak of ["nonexistent", "secret-dir", "hunter2", "127.0.0.1:9", "error", "bearer"]) {
      expect(text).not.toContain(leak);
    }
  });
});
