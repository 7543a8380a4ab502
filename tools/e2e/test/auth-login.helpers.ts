/// <reference path="../../../plugins/auth-oauth/test/helpers/oidc-provider.d.ts" />
/**
 * An MCP upstream behind OAuth, for `mcpx auth login`: a scripted Streamable HTTP server behind a
 * protected-resource front that serves its metadata (RFC 9728) and lets through only requests with a
 * JWT access token of the test authorization server (oidc-provider, the plugin's test helper) for
 * this resource, answering 401 with a Bearer challenge otherwise. And the login itself, driven as a
 * user would: the built CLI prints the URL, the plugin's test browser signs in and consents, and the
 * redirect goes to the CLI's loopback listener.
 */
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { httpScript, ScriptedServer } from "@mcpx/testkit";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { expect } from "vitest";
import {
  startAuthorizationServer,
  type TestAuthorizationServer,
} from "../../../plugins/auth-oauth/test/helpers/authorization-server.js";
import { testBrowser } from "../../../plugins/auth-oauth/test/helpers/browser.js";
import { exitedByItself, runBuiltMcpx } from "../src/built-cli.js";
import { afterThisTest, configDir, freePort, TOOLS } from "../src/index.js";
import { until } from "../src/wait.js";

export interface ProtectedUpstream {
  url: string;
  as: TestAuthorizationServer;
  scripted: ScriptedServer;
  /** Requests the front let through, and those it refused. */
  passed: number;
  refused: number;
}

export async function protectedUpstream(): Promise<ProtectedUpstream> {
  const as = await startAuthorizationServer();
  afterThisTest(() => as.close());
  const scripted = new ScriptedServer({ versions: ["2025-11-25"], tools: TOOLS });
  const script = await httpScript(scripted);
  afterThisTest(() => script.close());
  const inner = new URL(script.url);
  const jwks = createRemoteJWKSet(new URL(`${as.issuer}/jwks`));
  let origin = "";
  const up: ProtectedUpstream = { url: "", as, scripted, passed: 0, refused: 0 };
  const front = createServer(async (req, res) => {
    if (req.method === "GET" && req.url === "/.well-known/oauth-protected-resource/mcp") {
      res.writeHead(200, { "Content-Type": "application/json" }).end(
        JSON.stringify({
          resource: `${origin}/mcp`,
          authorization_servers: [as.issuer],
          scopes_supported: ["mcp:read"],
        }),
      );
      return;
    }
    const header = req.headers.authorization ?? "";
    try {
      await jwtVerify(header.replace(/^Bearer /, ""), jwks, { issuer: as.issuer, audience: `${origin}/mcp` });
    } catch {
      up.refused++;
      req.resume();
      res
        .writeHead(401, {
          "WWW-Authenticate": `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
        })
        .end();
      return;
    }
    up.passed++;
    const { authorization: _token, host: _host, ...headers } = req.headers;
    const out = request(
      { host: inner.hostname, port: inner.port, path: req.url, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on("error", () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((r) => front.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  afterThisTest(
    () =>
      new Promise<void>((r) => {
        front.closeAllConnections();
        front.close(() => r());
      }),
  );
  up.url = `${origin}/mcp`;
  return up;
}

export interface LoginCase {
  dir: string;
  up: ProtectedUpstream;
  redirectUri: string;
}

/** A config with the protected upstream as `docs`, its redirect on a free loopback port. */
export async function loginCase(): Promise<LoginCase> {
  const up = await protectedUpstream();
  const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
  const dir = await configDir({
    listen: { host: "127.0.0.1", port: await freePort() },
    servers: { docs: { url: up.url, auth: { type: "oauth", redirectUri } } },
    stateDir: ".state",
  });
  return { dir, up, redirectUri };
}

export const stateDirOf = (dir: string) => join(dir, ".state");

/**
 * `mcpx auth login docs --no-browser` with the built CLI, signed in through the test browser; the
 * exit code, what it printed, and what the listener answered the browser.
 */
export async function login(c: LoginCase, ...extra: string[]) {
  const run = runBuiltMcpx(["auth", "login", "docs", "--no-browser", ...extra], c.dir);
  await until(() => /\): http\S+\n/.test(run.stdout()) || run.hasExited(), 15_000);
  const url = /^Open this URL to sign in to docs \(at \S+\): (http\S+)$/m.exec(run.stdout())?.[1];
  expect(url, `no URL printed: ${run.stdout()} ${run.stderr()}`).toBeDefined();
  const params = await testBrowser().authorize({
    upstream: "docs",
    url: new URL(url as string),
    redirectUri: c.redirectUri,
    issuer: c.up.as.issuer,
  });
  // The test browser stops at the redirect: here it goes on to the CLI's listener, as a browser does.
  const page = await fetch(`${c.redirectUri}?${params}`);
  const pageText = await page.text();
  const code = await exitedByItself(run);
  return { code, stdout: run.stdout(), stderr: run.stderr(), page: { status: page.status, text: pageText } };
}
