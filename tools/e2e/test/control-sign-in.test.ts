/**
 * POST /.mcpx/upstreams/:name/login, the console's Sign in: the daemon starts `mcpx auth login`'s
 * browser flow for an upstream waiting for a login and answers the authorization URL; once the user
 * signed in there (the plugin's test browser here), the upstream connects with the stored tokens.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { serve } from "@mcpx/daemon";
import { describe, expect, it } from "vitest";
import { testBrowser } from "../../../plugins/auth-oauth/test/helpers/browser.js";
import { afterThisTest, until } from "../src/index.js";
import { loginCase, stateDirOf } from "./auth-login.helpers.js";

async function daemonFor(dir: string) {
  // Pinned: the daemon's backoff may retry while the sign-in's connection is open, and one scripted
  // server keeps one negotiated revision, against which an era probe's server/discover is checked.
  const file = join(dir, "mcpx.json");
  const config = JSON.parse(await readFile(file, "utf8")) as {
    servers: Record<string, Record<string, unknown>>;
  };
  for (const server of Object.values(config.servers)) server.revision = "2025-11-25";
  await writeFile(file, JSON.stringify(config));
  const serving = await serve({ configFile: join(dir, "mcpx.json"), writeLog: () => {}, logLevel: "error" });
  afterThisTest(() => serving.stop());
  await serving.runtime.gateway.pool.settled();
  const { listen } = JSON.parse(await readFile(file, "utf8")) as { listen: { port: number } };
  const control = `http://127.0.0.1:${listen.port}/.mcpx/`;
  const post = async (route: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${control}${route}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: "{}",
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return { serving, post };
}

describe("control: sign-in", () => {
  it("control/sign-in-answers-the-url-and-the-upstream-connects", { timeout: 40_000 }, async () => {
    const c = await loginCase();
    const { serving, post } = await daemonFor(c.dir);
    const pool = serving.runtime.gateway.pool;
    expect(pool.states()[0]).toMatchObject({ name: "docs", status: "failed", needsLogin: true });
    const started = await post("upstreams/docs/login");
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ upstream: "docs", issuer: c.up.as.issuer });
    const url = new URL(String(started.body.url));
    expect(url.origin).toBe(new URL(c.up.as.issuer).origin);
    expect(url.searchParams.get("redirect_uri")).toBe(c.redirectUri);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    // A second click while it waits answers the same sign-in.
    expect((await post("upstreams/docs/login")).body.url).toBe(started.body.url);
    // The user signs in; the browser comes back to the daemon's loopback listener.
    const params = await testBrowser().authorize({
      upstream: "docs",
      url,
      redirectUri: c.redirectUri,
      issuer: c.up.as.issuer,
    });
    const page = await fetch(`${c.redirectUri}?${params}`);
    expect(page.status).toBe(200);
    await until(() => pool.states()[0]?.status === "connected", 20_000);
    expect(pool.states()[0]?.needsLogin).toBeUndefined();
    const tools = await serving.runtime.gateway.catalog.list("tools");
    expect(tools.map((t) => t.name)).toContain("docs__echo");
    expect(c.up.as.counts.authorization_code).toBe(1);
    // The tokens are in the state directory, for the next daemon too.
    const files = (await readdir(join(stateDirOf(c.dir), "oauth"))).filter((n) => n.endsWith(".json"));
    expect(files).toHaveLength(1);
  });

  it("control/sign-in-refuses-what-cannot-sign-in", async () => {
    const c = await loginCase();
    const { post } = await daemonFor(c.dir);
    const unknown = await post("upstreams/nope/login");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: { message: 'no upstream named "nope" (upstreams: docs)' } });
    // The same gate as every control route.
    expect((await post("upstreams/docs/login", { origin: "https://evil.example" })).status).toBe(403);
  });
});
