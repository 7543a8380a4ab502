/**
 * `mcpx auth login | status | logout` against a real authorization server (oidc-provider) and an
 * MCP upstream that takes only its tokens; and `mcpx status` of a daemon whose upstream needs a login.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { serve } from "@mcpx/daemon";
import { httpScript, ScriptedServer } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { afterThisTest, configDir, freePort, mcpx, TOOLS } from "../src/index.js";
import { login, loginCase, stateDirOf } from "./auth-login.helpers.js";

/** The token files of a state directory, and what they hold. */
async function tokenFiles(dir: string) {
  const oauth = join(stateDirOf(dir), "oauth");
  const names = (await readdir(oauth).catch(() => [] as string[])).filter((n) => n.endsWith(".json"));
  return Promise.all(
    names.map(async (n) => ({
      file: join(oauth, n),
      mode: (await stat(join(oauth, n))).mode & 0o777,
      grant: JSON.parse(await readFile(join(oauth, n), "utf8")) as {
        issuer: string;
        accessToken?: string;
        refreshToken?: string;
      },
    })),
  );
}

describe("mcpx auth", () => {
  it("cli/auth-login-stores-tokens-and-the-daemon-uses-them", { timeout: 40_000 }, async () => {
    const c = await loginCase();
    // Before: no login, so the upstream is refused with the command to run.
    const before = await mcpx(c.dir, "tools", "list", "--json");
    expect(before.code).toBe(3);
    expect(before.stdout).toContain("run `mcpx auth login docs`");

    const out = await login(c);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain("Open this URL to sign in to docs");
    expect(out.stdout).toContain("Signed in to docs");
    expect(out.page.status).toBe(200);
    expect(out.page.text).toContain("You can close this window");
    const files = await tokenFiles(c.dir);
    expect(files).toHaveLength(1);
    expect(files[0]?.mode).toBe(0o600);
    expect(files[0]?.grant.issuer).toBe(c.up.as.issuer);
    const token = files[0]?.grant.accessToken as string;
    expect(token).toMatch(/\S{20,}/);
    expect(out.stdout + out.stderr).not.toContain(token);
    expect(c.up.as.counts.authorization_code).toBe(1);

    // The one-shot commands apply the daemon's plugin (no authorizer): the stored token serves them.
    const listed = await mcpx(c.dir, "tools", "list", "--json");
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).servers[0]).toMatchObject({ server: "docs", status: "connected" });
    const called = await mcpx(c.dir, "call", "docs__echo", "text=hi", "--json");
    expect(called.code, called.stderr).toBe(0);
    // And a daemon on the same config and state directory.
    const serving = await serve({
      configFile: join(c.dir, "mcpx.json"),
      writeLog: () => {},
      logLevel: "error",
      stateDir: stateDirOf(c.dir),
    });
    afterThisTest(() => serving.stop());
    await serving.runtime.gateway.pool.settled();
    expect(serving.runtime.gateway.pool.states()[0]).toMatchObject({ name: "docs", status: "connected" });
    // Nobody signed in again.
    expect(c.up.as.counts.authorization_code).toBe(1);
    expect(c.up.scripted.failures).toEqual([]);
  });

  it("cli/auth-status-shows-no-token", { timeout: 40_000 }, async () => {
    const c = await loginCase();
    const none = await mcpx(c.dir, "auth", "status");
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toBe("docs: not signed in (mcpx auth login docs)\n");
    expect((await login(c)).code).toBe(0);
    const [file] = await tokenFiles(c.dir);
    const { accessToken, refreshToken } = file?.grant ?? {};
    const text = await mcpx(c.dir, "auth", "status");
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^docs: signed in\n/);
    expect(text.stdout).toContain(`at ${c.up.as.issuer} for ${c.up.url}`);
    expect(text.stdout).toContain("scopes mcp:read");
    expect(text.stdout).toMatch(/access token expires \d{4}-\d\d-\d\dT/);
    const json = await mcpx(c.dir, "auth", "status", "docs", "--json");
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      servers: [
        {
          server: "docs",
          signedIn: true,
          grants: [
            {
              issuer: c.up.as.issuer,
              resource: c.up.url,
              accessToken: true,
              expiresAt: expect.stringMatching(/^\d{4}-/),
            },
          ],
        },
      ],
    });
    for (const secret of [accessToken, refreshToken].filter((s): s is string => s !== undefined)) {
      expect(text.stdout).not.toContain(secret);
      expect(json.stdout).not.toContain(secret);
    }
  });

  it("cli/auth-logout-removes-the-tokens", { timeout: 40_000 }, async () => {
    const c = await loginCase();
    expect((await login(c)).code).toBe(0);
    expect(await tokenFiles(c.dir)).toHaveLength(1);
    const out = await mcpx(c.dir, "auth", "logout", "docs");
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toBe(
      `Signed out of docs: removed the tokens and client registration (dynamic) of ${c.up.as.issuer} for ${c.up.url}\n`,
    );
    expect(await tokenFiles(c.dir)).toEqual([]);
    // Idempotent.
    const again = await mcpx(c.dir, "auth", "logout", "docs", "--json");
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ server: "docs", removed: [] });
    // And the upstream needs a login again.
    const listed = await mcpx(c.dir, "tools", "list", "--json");
    expect(listed.code).toBe(3);
    expect(listed.stdout).toContain("run `mcpx auth login docs`");
  });

  it("cli/auth-login-busy-port-is-a-clear-error", async () => {
    const c = await loginCase();
    const port = Number(new URL(c.redirectUri).port);
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(port, "127.0.0.1", r));
    afterThisTest(() => new Promise<void>((r) => busy.close(() => r())));
    const out = await mcpx(c.dir, "auth", "login", "docs", "--no-browser");
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`mcpx: port ${port} on 127.0.0.1 is in use`);
    expect(out.stderr).toContain(c.redirectUri);
    expect(out.stdout).toBe("");
    // Nothing was asked of the authorization server.
    expect(c.up.as.counts.registration).toBeUndefined();
  });

  it("cli/auth-login-not-an-oauth-server-exit-2", async () => {
    const dir = await configDir({
      servers: {
        api: { url: "http://127.0.0.1:9/mcp", auth: { type: "bearer", token: "t" } },
        child: { command: "true" },
      },
    });
    const out = await mcpx(dir, "auth", "login", "api", "--no-browser");
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('api does not sign in with OAuth: it has auth type "bearer"');
    const child = await mcpx(dir, "auth", "logout", "child");
    expect(child.code).toBe(2);
    expect(child.stderr).toContain("child does not sign in with OAuth");
    const unknown = await mcpx(dir, "auth", "login", "nope");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("no server named nope");
  });
});

describe("mcpx status", () => {
  it("status/upstream-needing-login-says-which-command", async () => {
    const locked = await httpScript(new ScriptedServer({ versions: ["2025-11-25"], tools: TOOLS }));
    afterThisTest(() => locked.close());
    locked.rawAnswer(
      () => true,
      { status: 401, headers: { "WWW-Authenticate": 'Bearer error="invalid_token"' }, body: "" },
      1000,
    );
    const port = await freePort();
    const dir = await configDir({
      listen: { host: "127.0.0.1", port },
      servers: { up: { url: locked.url, auth: { type: "oauth" } } },
      stateDir: ".state",
    });
    const serving = await serve({
      configFile: join(dir, "mcpx.json"),
      writeLog: () => {},
      logLevel: "error",
    });
    afterThisTest(() => serving.stop());
    await serving.runtime.gateway.pool.settled();
    const text = await mcpx(dir, "status");
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.split("\n")).toContain("  up: needs login: run `mcpx auth login up`");
    const json = await mcpx(dir, "status", "--json");
    expect(JSON.parse(json.stdout).upstreams[0]).toMatchObject({ name: "up", needsLogin: true });
    // A call to its tools, never listed, is told which command signs in (exit 3: unreachable),
    // not that the tool does not exist.
    const called = await mcpx(dir, "call", "--daemon", "up__echo", "text=hi");
    expect(called.code, called.stderr).toBe(3);
    expect(called.stderr).toContain("mcpx auth login up");
    expect(called.stderr).not.toContain("has no tool");
    // A name no upstream claims is still a typo.
    const typo = await mcpx(dir, "call", "--daemon", "nope", "text=hi");
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("the daemon has no tool nope");
  });
});
