// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${env:NAME} is the config's own syntax
/**
 * No credential in anything a client sees. An upstream's error may quote what it received (an
 * Authorization header, a query parameter, a header, an env value): the error mcpx passes on must
 * say "[redacted]" in its place, in whatever form the upstream wrote it (raw, JSON-escaped,
 * percent-encoded). Through the real daemon (config with ${env:NAME}, the auth plugins, applyAuth,
 * the gateway) to downstream clients of both eras over HTTP and stdio, and through @mcpx/client alone.
 */
import { join } from "node:path";
import { type AuthConfig, applyAuth, UpstreamClient } from "@mcpx/client";
import { HttpStatusError, type JSONObject, McpError } from "@mcpx/core";
import { type Serving, serve } from "@mcpx/daemon";
import { type HttpScript, httpScript, ScriptedServer, stdioScript } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { afterThisTest, configDir, freePort, settings, stdioClient, TOOLS, testHost } from "../src/index.js";
import { legacySession, mirrored, modernBody, post } from "./gateway-http.helpers.js";

const isCall = (r: { frames: { method?: string }[] }) => r.frames.some((f) => f.method === "tools/call");

/** A scripted server of `version` over Streamable HTTP. */
async function httpUpstream(version: string): Promise<HttpScript> {
  const script = await httpScript(new ScriptedServer({ versions: [version], tools: TOOLS }));
  afterThisTest(() => script.close());
  return script;
}

/** The last request the scripted HTTP server received (the one being answered). */
const last = (script: HttpScript) => script.requests[script.requests.length - 1]!;

/** `mcpx serve` in this process on a config of these servers, every upstream's first attempt done. */
async function daemon(servers: Record<string, JSONObject>, env: Record<string, string>): Promise<Serving> {
  const port = await freePort();
  const dir = await configDir({ listen: { host: "127.0.0.1", port }, servers, stateDir: ".state" });
  const serving = await serve({
    configFile: join(dir, "mcpx.json"),
    env,
    writeLog: () => {},
    logLevel: "error",
  });
  afterThisTest(() => serving.stop());
  await serving.runtime.gateway.pool.settled();
  for (const s of serving.runtime.gateway.pool.states()) expect(s.status, s.error).toBe("connected");
  return serving;
}

/** The error a client got: it says "[redacted]", and none of the secrets in any of these forms. */
function expectRedacted(error: unknown, ...secrets: string[]) {
  const text = JSON.stringify(error);
  expect(error, "an error reached the client").toBeDefined();
  expect(text).toContain("[redacted]");
  for (const s of secrets) expect(text).not.toContain(s);
}

describe("credentials quoted by an upstream never reach a client", () => {
  it("credentials/bearer-token-quoted-in-an-error-body-never-reaches-the-client", async () => {
    const token = "tok-Zx9-bearer-credential";
    const up = await httpUpstream("2026-07-28");
    const serving = await daemon(
      { up: { url: up.url, auth: { type: "bearer", token: "${env:TOKEN}" } } },
      { TOKEN: token },
    );
    // a proxy's error page that quotes the header it refused
    up.rawAnswer(isCall, {
      status: 401,
      contentType: "text/plain",
      body: () => `invalid credentials: Authorization: ${last(up).headers.authorization}`,
    });
    // a 2026-07-28 client over HTTP
    const res = await post(
      serving.url,
      modernBody("tools/call", { name: "up__echo", arguments: { text: "hi" } }),
      mirrored("tools/call", "up__echo"),
    );
    const body = (await res.json()) as { error?: { message: string } };
    expect(last(up).headers.authorization).toBe(`Bearer ${token}`);
    expect(body.error?.message).toMatch(/HTTP 401/);
    expectRedacted(body.error, token);
  });

  it("credentials/basic-auth-base64-quoted-in-an-error-body-never-reaches-the-client", async () => {
    const password = "pä:ss wörd-basic";
    const base64 = Buffer.from(`ada:${password}`, "utf8").toString("base64");
    const up = await httpUpstream("2025-06-18");
    const serving = await daemon(
      { up: { url: up.url, auth: { type: "basic", username: "ada", password: "${env:PASSWORD}" } } },
      { PASSWORD: password },
    );
    // a JSON body that is not JSON-RPC, quoting the header it was sent
    up.rawAnswer(isCall, {
      status: 403,
      contentType: "application/json",
      body: () => JSON.stringify({ detail: "forbidden", received: last(up).headers.authorization }),
    });
    // a 2025-06-18 client on `mcpx stdio`
    const c = stdioClient(serving.runtime.gateway);
    await c.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "test", version: "1" },
    });
    c.send({ method: "notifications/initialized" });
    const answer = await c.request("tools/call", { name: "up__echo", arguments: { text: "hi" } });
    expect(last(up).headers.authorization).toBe(`Basic ${base64}`);
    expect(answer.error?.message).toMatch(/HTTP 403/);
    expectRedacted(answer.error, base64, password);
  });

  it("credentials/query-parameter-quoted-in-an-error-body-never-reaches-the-client", async () => {
    const value = "k&y=1 2/ü-query";
    const up = await httpUpstream("2025-11-25");
    const serving = await daemon(
      { up: { url: up.url, auth: { type: "query", name: "api_key", value: "${env:KEY}" } } },
      { KEY: value },
    );
    // the request line, as received (percent-encoded), and the value as decoded
    up.rawAnswer(isCall, {
      status: 500,
      contentType: "text/plain",
      body: () => {
        const path = last(up).path;
        return `no route for ${path} (api_key=${new URL(path, "http://x").searchParams.get("api_key")})`;
      },
    });
    // a 2025-11-25 client over HTTP, in a session
    const s = await legacySession(serving.url, "2025-11-25");
    const call = await s.request("tools/call", { name: "up__echo", arguments: { text: "hi" } });
    const error = call.body.error as { message: string } | undefined;
    expect(new URL(last(up).path, "http://x").searchParams.get("api_key")).toBe(value);
    expect(error?.message).toMatch(/HTTP 500/);
    expectRedacted(error, value, encodeURIComponent(value), "k%26y%3D1+2%2F%C3%BC-query");
  });

  it("credentials/header-value-quoted-in-an-error-body-never-reaches-the-client", async () => {
    const key = "key-Q7-header-credential";
    const up = await httpUpstream("2026-07-28");
    const serving = await daemon(
      { up: { url: up.url, auth: { type: "header", name: "X-Api-Key", value: "${env:API_KEY}" } } },
      { API_KEY: key },
    );
    // a JSON-RPC error from the server itself, quoting the header in its message and its data
    up.server.on("tools/call", (_req, ctx) => ({
      error: {
        code: -32001,
        message: `unknown key ${ctx.headers?.["x-api-key"]}`,
        data: { received: ctx.headers?.["x-api-key"] },
      },
    }));
    // a 2026-07-28 client on `mcpx stdio`
    const c = stdioClient(serving.runtime.gateway);
    const answer = await c.request("tools/call", {
      name: "up__echo",
      arguments: { text: "hi" },
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    });
    expect(answer.error?.code).toBe(-32001);
    expect(answer.error?.message).toBe("unknown key [redacted]");
    expect(answer.error?.data).toEqual({ received: "[redacted]" });
    expectRedacted(answer.error, key);
  });

  it("credentials/json-escaped-secret-in-an-error-body-redacted", async () => {
    // `"`, `\` and `/` are escaped when a server quotes the value in JSON (`/` as `\/` by PHP's
    // json_encode), so the raw value is not in the body at all
    const key = 'k"e\\y/Secret-json';
    const up = await httpUpstream("2025-03-26");
    const serving = await daemon(
      { up: { url: up.url, auth: { type: "header", name: "X-Api-Key", value: "${env:API_KEY}" } } },
      { API_KEY: key },
    );
    up.rawAnswer(isCall, {
      status: 502,
      contentType: "application/json",
      body: () =>
        JSON.stringify({ error: "upstream refused", key: last(up).headers["x-api-key"] }).replaceAll(
          "/",
          "\\/",
        ),
    });
    const s = await legacySession(serving.url, "2025-03-26");
    const call = await s.request("tools/call", { name: "up__echo", arguments: { text: "hi" } });
    const error = call.body.error as { message: string } | undefined;
    expect(last(up).headers["x-api-key"]).toBe(key);
    expect(error?.message).toMatch(/HTTP 502/);
    expectRedacted(error, key, JSON.stringify(key).slice(1, -1), 'k\\"e\\\\y\\/Secret-json');
  });

  it("credentials/env-value-a-stdio-child-prints-never-reaches-the-client", async () => {
    // A server's own env from config (not an auth scheme): the client does not know it is a
    // credential, the gateway does (every ${env:…} of the config), and takes it out last.
    const secret = "ghp_env-credential-99";
    const server = new ScriptedServer({ versions: ["2025-11-25"], tools: TOOLS });
    const script = await stdioScript(server);
    afterThisTest(() => script.close());
    server.on("tools/call", () => ({
      error: { code: -32603, message: `GITHUB_TOKEN=${script.env?.GITHUB_TOKEN} was refused` },
    }));
    const serving = await daemon(
      { up: { command: script.command, args: script.args, env: { GITHUB_TOKEN: "${env:GH}" } } },
      { GH: secret },
    );
    expect(script.env?.GITHUB_TOKEN).toBe(secret);
    const s = await legacySession(serving.url, "2025-11-25");
    const call = await s.request("tools/call", { name: "up__echo", arguments: { text: "hi" } });
    expect((call.body.error as { message: string }).message).toBe("GITHUB_TOKEN=[redacted] was refused");
    expectRedacted(call.body.error, secret);
    // and through the control API (`mcpx call` against a daemon)
    const control = serving.url.replace(/\/mcp$/, "/.mcpx/call");
    const res = await fetch(control, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "up__echo", arguments: { text: "hi" } }),
    });
    expectRedacted(((await res.json()) as { error: unknown }).error, secret);
  });
});

describe("@mcpx/client alone", () => {
  it("credentials/client-library-errors-carry-no-credentials", async () => {
    const token = "tok-client-library-7Kq";
    const host = await testHost();
    const auth: AuthConfig = { type: "bearer", token };
    const connect = async (script: HttpScript, pin: { transport?: "http+sse"; revision?: string } = {}) => {
      const { target } = await applyAuth(
        host.registry,
        { name: "up", auth },
        { name: "up", url: script.url },
      );
      const client = await UpstreamClient.connect({ target, env: host, settings: settings(), ...pin });
      afterThisTest(() => client.close());
      return client;
    };
    const echoAuth = (script: HttpScript) => () => `refused ${last(script).headers.authorization}`;

    // connect: every POST of the probe and of initialize refused, quoting the header
    const refusing = await httpUpstream("2025-11-25");
    refusing.rawAnswer(() => true, { status: 401, contentType: "text/plain", body: echoAuth(refusing) }, 10);
    const connectErr = await connect(refusing).catch((e: unknown) => e);
    expect(connectErr).toBeInstanceOf(HttpStatusError);
    expect((connectErr as HttpStatusError).status).toBe(401);
    expect((connectErr as HttpStatusError).body).toBe("refused [redacted]");
    expect((connectErr as Error).stack).not.toContain(token);
    expectRedacted(
      { message: (connectErr as Error).message, body: (connectErr as HttpStatusError).body },
      token,
    );

    // connect over HTTP+SSE: the GET that opens the stream, refused the same way (the transport's own open)
    const sse = await httpUpstream("2025-11-25");
    sse.rawAnswer((r) => r.httpMethod === "GET", {
      status: 403,
      contentType: "text/plain",
      body: echoAuth(sse),
    });
    const openErr = await connect(sse, { transport: "http+sse", revision: "2024-11-05" }).catch(
      (e: unknown) => e,
    );
    expect(openErr).toBeInstanceOf(HttpStatusError);
    expect((openErr as HttpStatusError).body).toBe("refused [redacted]");
    expectRedacted({ message: (openErr as Error).message, body: (openErr as HttpStatusError).body }, token);

    // request: an HTTP error body, and a JSON-RPC error whose message and data quote it
    const up = await httpUpstream("2025-06-18");
    const client = await connect(up);
    up.rawAnswer(isCall, { status: 500, contentType: "text/plain", body: echoAuth(up) });
    const callErr = await client.callTool("echo", { text: "hi" }).catch((e: unknown) => e);
    expect(callErr).toBeInstanceOf(HttpStatusError);
    expect((callErr as HttpStatusError).code).toBe(-32009);
    expect((callErr as HttpStatusError).body).toBe("refused [redacted]");
    expectRedacted({ message: (callErr as Error).message, body: (callErr as HttpStatusError).body }, token);
    up.server.on("tools/list", (_req, ctx) => ({
      error: { code: -32001, message: `token ${ctx.headers?.authorization} expired`, data: [ctx.headers] },
    }));
    // list: all pages through request
    const listErr = await client.listTools().catch((e: unknown) => e);
    expect(listErr).toBeInstanceOf(McpError);
    expect((listErr as McpError).code).toBe(-32001);
    expect((listErr as Error).message).toBe("token [redacted] expired");
    expectRedacted({ message: (listErr as Error).message, data: (listErr as McpError).data }, token);
  });
});
