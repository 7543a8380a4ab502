// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${env:NAME} is the config's own syntax
/**
 * Auth, through the real path: a config with `auth`, run by the mcpx command (config loading with
 * ${env:NAME}, the plugins, applyAuth, the era probe and store, the logger), against scripted
 * servers of every revision. Each scheme must arrive exactly as the server expects it, only at the
 * configured origin, and no credential may appear in anything mcpx writes.
 */

import { readdir, readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  defaultHandler,
  type Frame,
  httpScript,
  ScriptedServer,
  sseScript,
  stdioScript,
} from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { afterThisTest, configDir, mcpx, requirement, TOOLS } from "../src/index.js";

const pluginHello = fileURLToPath(new URL("../../../examples/plugin-hello", import.meta.url));

/** What a scripted HTTP server saw: each request's method, path (with its query) and lower-cased headers. */
interface Seen {
  method: string;
  path: string;
  headers: Record<string, string>;
  frames: Frame[];
}

interface HttpUpstream {
  url: string;
  server: ScriptedServer;
  /** HTTP+SSE (2024-11-05) or Streamable HTTP. */
  transport: "http+sse" | "streamable-http";
  requests(): Seen[];
}

/** A scripted server of `rev` over HTTP: 2024-11-05 over HTTP+SSE, the others over Streamable HTTP. */
async function httpUpstream(rev: string): Promise<HttpUpstream> {
  const server = new ScriptedServer({ versions: [rev], tools: TOOLS });
  if (rev === "2024-11-05") {
    // what a 2024-11-05 server does with a POST to its SSE URL: a bare 405
    const script = await sseScript(server, { refusePost: 405 });
    afterThisTest(() => script.close());
    return {
      url: script.url,
      server,
      transport: "http+sse",
      requests: () =>
        script.requests.map((r) => ({
          method: r.httpMethod,
          path: r.path,
          headers: r.headers,
          frames: r.frames,
        })),
    };
  }
  const script = await httpScript(server);
  afterThisTest(() => script.close());
  return {
    url: script.url,
    server,
    transport: "streamable-http",
    requests: () =>
      script.requests.map((r) => ({
        method: r.httpMethod,
        path: r.path,
        headers: r.headers,
        frames: r.frames,
      })),
  };
}

interface ListedServer {
  server: string;
  status: string;
  revision?: string;
  transport?: string;
  error?: string;
  tools: { name: string }[];
}

/** `mcpx tools list --json` on a config; the parsed listing and what was printed. */
async function toolsList(config: object, env: Record<string, string>, ...extra: string[]) {
  const dir = await configDir(config);
  const out = await mcpx(dir, { env }, "tools", "list", "--json", ...extra);
  let servers: ListedServer[] = [];
  try {
    servers = (JSON.parse(out.stdout) as { servers: ListedServer[] }).servers;
  } catch {
    // not JSON: the assertions on code and stderr say why
  }
  return { ...out, dir, servers };
}

function expectConnected(servers: ListedServer[], rev: string, transport: string) {
  expect(servers[0]).toMatchObject({ server: "up", status: "connected", revision: rev, transport });
  expect(servers[0]?.tools.map((t) => t.name)).toEqual(["up__echo", "up__add"]);
}

/** The fewest requests a tools list makes: a modern server hears server/discover and tools/list. */
const minimum = (rev: string) => (rev === "2026-07-28" ? 2 : 3);
const pathname = (p: string) => new URL(p, "http://x").pathname;
const queryOf = (p: string) => new URL(p, "http://x").searchParams;

/** For HTTP+SSE: the GET and the POSTs to the announced endpoint are all there. */
function expectSseShape(seen: Seen[]) {
  expect(seen.some((r) => r.method === "GET" && pathname(r.path) === "/sse")).toBe(true);
  const endpointPosts = seen.filter((r) => r.method === "POST" && pathname(r.path) === "/messages");
  expect(endpointPosts.map((r) => r.frames[0]?.method)).toEqual(
    expect.arrayContaining(["initialize", "notifications/initialized", "tools/list"]),
  );
}

describe("auth schemes arrive as the server expects them", () => {
  requirement(
    [
      "2024-11-05/auth/bearer",
      "2025-03-26/auth/bearer",
      "2025-06-18/auth/bearer",
      "2025-11-25/auth/bearer",
      "2026-07-28/auth/bearer",
    ],
    async (rev) => {
      const up = await httpUpstream(rev);
      const token = `tok-${rev}-Zx9`;
      const out = await toolsList(
        { servers: { up: { url: up.url, auth: { type: "bearer", token: "${env:TOKEN}" } } } },
        { TOKEN: token },
      );
      expect(out.code, out.stderr).toBe(0);
      expectConnected(out.servers, rev, up.transport);
      const seen = up.requests();
      expect(seen.length).toBeGreaterThanOrEqual(minimum(rev));
      for (const r of seen) expect(r.headers.authorization, `${r.method} ${r.path}`).toBe(`Bearer ${token}`);
      if (up.transport === "http+sse") expectSseShape(seen);
      expect(up.server.failures).toEqual([]);
    },
  );

  requirement(
    [
      "2024-11-05/auth/basic",
      "2025-03-26/auth/basic",
      "2025-06-18/auth/basic",
      "2025-11-25/auth/basic",
      "2026-07-28/auth/basic",
    ],
    async (rev) => {
      const up = await httpUpstream(rev);
      const password = "pä:ss wörd";
      const out = await toolsList(
        {
          servers: {
            up: { url: up.url, auth: { type: "basic", username: "ada", password: "${env:PASSWORD}" } },
          },
        },
        { PASSWORD: password },
      );
      expect(out.code, out.stderr).toBe(0);
      expectConnected(out.servers, rev, up.transport);
      // RFC 7617: base64 of the UTF-8 of user-id ":" password
      const expected = `Basic ${Buffer.from(`ada:${password}`, "utf8").toString("base64")}`;
      const seen = up.requests();
      expect(seen.length).toBeGreaterThanOrEqual(minimum(rev));
      for (const r of seen) expect(r.headers.authorization, `${r.method} ${r.path}`).toBe(expected);
      if (up.transport === "http+sse") expectSseShape(seen);
      expect(up.server.failures).toEqual([]);
    },
  );

  requirement(
    [
      "2024-11-05/auth/header",
      "2025-03-26/auth/header",
      "2025-06-18/auth/header",
      "2025-11-25/auth/header",
      "2026-07-28/auth/header",
    ],
    async (rev) => {
      const up = await httpUpstream(rev);
      const out = await toolsList(
        {
          servers: {
            up: {
              url: up.url,
              auth: { type: "header", headers: { "X-Api-Key": "${env:API_KEY}", "X-Tenant": "acme" } },
            },
          },
        },
        { API_KEY: "key-Q7" },
      );
      expect(out.code, out.stderr).toBe(0);
      expectConnected(out.servers, rev, up.transport);
      const seen = up.requests();
      expect(seen.length).toBeGreaterThanOrEqual(minimum(rev));
      for (const r of seen) {
        expect(r.headers["x-api-key"], `${r.method} ${r.path}`).toBe("key-Q7");
        expect(r.headers["x-tenant"], `${r.method} ${r.path}`).toBe("acme");
        expect(r.headers.authorization).toBeUndefined();
      }
      if (up.transport === "http+sse") expectSseShape(seen);
      expect(up.server.failures).toEqual([]);
    },
  );

  requirement(
    [
      "2024-11-05/auth/query",
      "2025-03-26/auth/query",
      "2025-06-18/auth/query",
      "2025-11-25/auth/query",
      "2026-07-28/auth/query",
    ],
    async (rev) => {
      const up = await httpUpstream(rev);
      const value = "k&y=1 2/ü";
      const out = await toolsList(
        {
          servers: {
            up: { url: `${up.url}?keep=me`, auth: { type: "query", name: "api_key", value: "${env:KEY}" } },
          },
        },
        { KEY: value },
      );
      expect(out.code, out.stderr).toBe(0);
      expectConnected(out.servers, rev, up.transport);
      const seen = up.requests();
      // every request to the configured URL carries it, encoded, beside the URL's own parameters
      const configured = seen.filter((r) => pathname(r.path) === pathname(up.url));
      expect(configured.length).toBeGreaterThanOrEqual(minimum(rev));
      for (const r of configured) {
        expect(queryOf(r.path).get("api_key"), `${r.method} ${r.path}`).toBe(value);
        expect(queryOf(r.path).get("keep")).toBe("me");
        expect(r.headers.authorization).toBeUndefined();
      }
      if (up.transport === "http+sse") {
        // the POSTs go to the endpoint the server named, as named
        expectSseShape(seen);
        for (const r of seen.filter((x) => pathname(x.path) === "/messages")) {
          expect(queryOf(r.path).has("sessionId")).toBe(true);
        }
      }

      expect(up.server.failures).toEqual([]);

      // only when declared: a server configured without auth gets no parameter and no header
      const bare = await httpUpstream(rev);
      const plain = await toolsList({ servers: { up: { url: `${bare.url}?keep=me` } } }, { KEY: value });
      expect(plain.code, plain.stderr).toBe(0);
      expect(bare.requests().length).toBeGreaterThanOrEqual(minimum(rev));
      for (const r of bare.requests()) {
        expect([...queryOf(r.path).keys()].filter((k) => k !== "sessionId")).toEqual(
          pathname(r.path) === pathname(bare.url) ? ["keep"] : [],
        );
        expect(r.headers.authorization).toBeUndefined();
      }
      expect(bare.server.failures).toEqual([]);
    },
  );

  requirement(
    [
      "2024-11-05/auth/env",
      "2025-03-26/auth/env",
      "2025-06-18/auth/env",
      "2025-11-25/auth/env",
      "2026-07-28/auth/env",
    ],
    async (rev) => {
      const server = new ScriptedServer({ versions: [rev], tools: TOOLS });
      const script = await stdioScript(server);
      afterThisTest(() => script.close());
      const out = await toolsList(
        {
          servers: {
            up: {
              command: script.command,
              args: script.args,
              env: { PLAIN: "plain", API_KEY: "overridden" },
              auth: { type: "env", env: { API_KEY: "${env:API_KEY}", SECOND: "literal-2" } },
            },
          },
        },
        { API_KEY: "child-key-8", MCPX_ONLY_SECRET: "not-for-children" },
      );
      expect(out.code, out.stderr).toBe(0);
      expectConnected(out.servers, rev, "stdio");
      expect(script.connections).toBe(1);
      const env = script.env ?? {};
      expect(env.API_KEY).toBe("child-key-8");
      expect(env.SECOND).toBe("literal-2");
      expect(env.PLAIN).toBe("plain");
      // mcpx's own environment is not handed on wholesale
      expect(env.MCPX_ONLY_SECRET).toBeUndefined();
      expect(server.failures).toEqual([]);
    },
  );

  requirement(
    [
      "2024-11-05/auth/oauth",
      "2025-03-26/auth/oauth",
      "2025-06-18/auth/oauth",
      "2025-11-25/auth/oauth",
      "2026-07-28/auth/oauth",
    ],
    async (rev) => {
      // A server that asks for nothing is reached as it is: no token goes out before one is asked for.
      const up = await httpUpstream(rev);
      const out = await toolsList({ servers: { up: { url: up.url, auth: { type: "oauth" } } } }, {});
      expect(out.code, out.stderr).toBe(0);
      expectConnected(out.servers, rev, up.transport);
      expect(up.requests().filter((r) => r.headers.authorization !== undefined)).toEqual([]);
      const check = await mcpx(out.dir, "config", "check");
      expect(check.code, check.stderr).toBe(0);
      if (rev === "2024-11-05") return;
      // A server that answers 401: nobody at a browser here (no daemon, no login yet), so the call
      // fails with the command that logs in, and nothing was registered anywhere.
      const locked = await httpScript(new ScriptedServer({ versions: [rev], tools: TOOLS }));
      afterThisTest(() => locked.close());
      locked.rawAnswer(
        () => true,
        { status: 401, headers: { "WWW-Authenticate": 'Bearer error="invalid_token"' }, body: "" },
        1000,
      );
      const refused = await toolsList({ servers: { up: { url: locked.url, auth: { type: "oauth" } } } }, {});
      expect(refused.code).toBe(3);
      expect(refused.servers[0]).toMatchObject({ server: "up", status: "failed" });
      expect(refused.servers[0]?.error).toContain("upstream up needs a login: run `mcpx auth login up`");
      expect(locked.requests.filter((r) => r.httpMethod === "POST" && pathname(r.path) !== "/mcp")).toEqual(
        [],
      );
    },
  );
});

describe("credentials go only to the configured origin", () => {
  it("auth/credentials-same-origin", async () => {
    // an HTTP+SSE endpoint on another origin gets nothing
    const server = new ScriptedServer({ versions: ["2024-11-05"], tools: TOOLS });
    const sse = await sseScript(server, { foreignEndpoint: true, refusePost: 405 });
    afterThisTest(() => sse.close());
    const out = await toolsList(
      { servers: { up: { url: sse.url, auth: { type: "bearer", token: "${env:TOKEN}" } } } },
      { TOKEN: "same-origin-only" },
    );
    expect(out.code).toBe(3);
    expect(out.servers[0]?.status).toBe("failed");
    expect(out.servers[0]?.error).toMatch(/another origin/);
    expect(sse.foreignRequests).toEqual([]);
    expect(sse.requests.filter((r) => pathname(r.path) !== "/sse")).toEqual([]);

    // a redirect to another origin is not followed, so the credential never goes there
    const foreign: { method?: string; headers: Record<string, unknown> }[] = [];
    const evil = createServer((req, res) => {
      foreign.push({ method: req.method, headers: req.headers });
      res.writeHead(200).end();
    });
    await new Promise<void>((r) => evil.listen(0, "127.0.0.2", r));
    afterThisTest(() => new Promise((r) => evil.close(() => r())));
    const evilUrl = `http://127.0.0.2:${(evil.address() as AddressInfo).port}/mcp`;
    const http = await httpScript(new ScriptedServer({ versions: ["2025-11-25"], tools: TOOLS }));
    afterThisTest(() => http.close());
    http.rawAnswer(() => true, { status: 307, headers: { Location: evilUrl } }, 100);
    const redirected = await toolsList(
      { servers: { up: { url: http.url, auth: { type: "bearer", token: "${env:TOKEN}" } } } },
      { TOKEN: "same-origin-only" },
    );
    expect(redirected.code).toBe(3);
    expect(redirected.servers[0]?.error).toMatch(/another origin/);
    expect(foreign).toEqual([]);
    expect(http.requests.length).toBeGreaterThan(0);
    for (const r of http.requests) expect(r.status).toBe(307);
  });
});

describe("auth config", () => {
  it("auth/unknown-type-config-error", async () => {
    const config = {
      servers: {
        good: { url: "http://127.0.0.1:9/mcp", auth: { type: "bearer", token: "t0ken" } },
        up: { url: "http://127.0.0.1:9/mcp", auth: { type: "kerberos", realm: "EXAMPLE" } },
      },
    };
    const dir = await configDir(config);
    for (const argv of [
      ["config", "check"],
      ["tools", "list"],
    ]) {
      const out = await mcpx(dir, ...argv);
      expect(out.code, argv.join(" ")).toBe(2);
      expect(out.stderr).toContain("servers.up.auth.type");
      expect(out.stderr).toContain('upstream up asks for auth type "kerberos"');
      expect(out.stderr).toContain("installed: basic, bearer, env, header, oauth, query");
      expect(out.stdout).toBe("");
    }
    // a third party's scheme is installed like the built-in ones, and a near miss is named
    const withPlugin = await configDir({
      servers: { up: { url: "http://127.0.0.1:9/mcp", auth: { type: "Bearer", token: "x" } } },
      plugins: [pluginHello],
    });
    const near = await mcpx(withPlugin, "config", "check");
    expect(near.code).toBe(2);
    expect(near.stderr).toContain('(did you mean "bearer"?)');
    expect(near.stderr).toContain("installed: basic, bearer, env, example-static, header, oauth, query");
  });

  it("auth/third-party-plugin", async () => {
    const server = new ScriptedServer({ versions: ["2025-11-25"], tools: TOOLS });
    const script = await httpScript(server);
    afterThisTest(() => script.close());
    const out = await toolsList(
      {
        servers: {
          up: {
            url: script.url,
            auth: { type: "example-static", header: "X-Static-Key", value: "${env:STATIC}" },
          },
        },
        plugins: [[pluginHello, { greeting: "hi" }]],
      },
      { STATIC: "static-V4lue" },
      "--log-level",
      "info",
    );
    expect(out.code, out.stderr).toBe(0);
    expectConnected(out.servers, "2025-11-25", "streamable-http");
    expect(script.requests.length).toBeGreaterThanOrEqual(3);
    for (const r of script.requests) expect(r.headers["x-static-key"]).toBe("static-V4lue");
    // the plugin's lifecycle listener ran too
    expect(out.stderr).toMatch(/hi, up/);
    expect(out.stderr + out.stdout).not.toContain("static-V4lue");
    expect(server.failures).toEqual([]);
  });
});

/** A plugin a config lists by path: it writes every lifecycle event and era resolution to a file. */
const RECORDER = `
import { appendFileSync } from "node:fs";
export default {
  name: "event-recorder",
  apiVersion: 1,
  apply(host, options) {
    const write = (x) => appendFileSync(options.file, JSON.stringify(x) + "\\n");
    host.hooks.lifecycle.tap("event-recorder", (event) => write(event));
    host.hooks.eraResolved.tap("event-recorder", (upstream, era, cached) => write({ upstream, era, cached }));
  },
};
`;

describe("no secret in any output", () => {
  it("auth/no-secret-in-any-output", async () => {
    const SECRET = "s3cr3t-Tok3n-4711";
    const basic64 = Buffer.from(`ada:${SECRET}`).toString("base64");
    const forbidden = [SECRET, basic64, encodeURIComponent(SECRET), Buffer.from(SECRET).toString("base64")];

    const web = await httpScript(new ScriptedServer({ versions: ["2025-11-25"], tools: TOOLS }));
    const basicWeb = await httpScript(new ScriptedServer({ versions: ["2025-06-18"], tools: TOOLS }));
    const queryWeb = await httpScript(new ScriptedServer({ versions: ["2026-07-28"], tools: TOOLS }));
    const sseServer = new ScriptedServer({ versions: ["2024-11-05"], tools: TOOLS });
    const sse = await sseScript(sseServer);
    // a server that refuses the credential and quotes it back
    const echo = await httpScript(new ScriptedServer({ versions: ["2025-11-25"], tools: TOOLS }));
    echo.rawAnswer(
      () => true,
      {
        status: 401,
        contentType: "text/plain",
        body: () => `invalid token: Bearer ${SECRET}`,
      },
      100,
    );
    // a server that connects, then fails a call quoting the credential it was sent
    const quotingServer = new ScriptedServer({ versions: ["2025-11-25"], tools: TOOLS });
    quotingServer.on("tools/call", (_req, ctx) => ({
      error: { code: -32603, message: `token ${ctx.headers?.authorization ?? "(none)"} is not allowed here` },
    }));
    const quoting = await httpScript(quotingServer);
    const childServer = new ScriptedServer({ versions: ["2025-03-26"], tools: TOOLS });
    const child = await stdioScript(childServer);
    // the child says its key on stderr: mcpx logs upstream stderr, redacted
    childServer.on("initialize", (req, ctx) => {
      child.stderr(`starting with API_KEY=${child.env?.API_KEY}`);
      return defaultHandler("initialize")(req, ctx);
    });
    for (const s of [web, basicWeb, queryWeb, sse, echo, quoting, child]) afterThisTest(() => s.close());

    const bearer = { type: "bearer", token: "${env:TOKEN}" };
    const config = {
      servers: {
        web: { url: web.url, auth: bearer },
        basic: { url: basicWeb.url, auth: { type: "basic", username: "ada", password: "${env:TOKEN}" } },
        query: { url: queryWeb.url, auth: { type: "query", name: "key", value: "${env:TOKEN}" } },
        legacy: { url: sse.url, auth: bearer },
        child: {
          command: child.command,
          args: child.args,
          auth: { type: "env", env: { API_KEY: "${env:TOKEN}" } },
        },
        echo: { url: echo.url, auth: bearer },
        quoting: { url: quoting.url, auth: bearer },
        // failing upstreams whose URL or command holds the secret
        "dead-url": { url: "http://127.0.0.1:9/${env:TOKEN}/mcp", auth: bearer },
        "dead-query": {
          url: "http://127.0.0.1:9/mcp",
          auth: { type: "query", name: "key", value: "${env:TOKEN}" },
        },
        "dead-command": { command: "/nonexistent/${env:TOKEN}/server", args: ["--token", "${env:TOKEN}"] },
        "dead-env": {
          command: "/nonexistent/server",
          auth: { type: "env", env: { API_KEY: "${env:TOKEN}" } },
        },
      },
      plugins: [["./recorder.mjs", { file: "events.jsonl" }]],
      log: { level: "debug" },
    };
    const dir = await configDir(config);
    await writeFile(join(dir, "recorder.mjs"), RECORDER);
    const eventsFile = join(dir, "events.jsonl");
    const env = { TOKEN: SECRET };
    // the plugin writes relative to the process's cwd: give it an absolute path
    config.plugins = [["./recorder.mjs", { file: eventsFile }]];
    await writeFile(join(dir, "mcpx.json"), JSON.stringify(config));

    const outputs: Record<string, string> = {};
    const runs = [
      ["tools", "list", "--log-level", "debug"],
      ["tools", "list", "--json", "--log-level", "debug"],
      // the second run goes to the recorded eras
      ["tools", "list", "--json", "--log-level", "debug"],
      ["call", "web__echo", '{"text":"hello"}', "--log-level", "debug"],
      ["call", "dead-url__echo", "{}", "--log-level", "debug"],
      ["call", "quoting__echo", "{}", "--log-level", "debug"],
      ["call", "quoting__echo", "{}", "--json"],
      ["resources", "list", "--log-level", "debug"],
      ["prompts", "list", "--json", "--log-level", "debug"],
      ["era", "show"],
      ["era", "show", "--json"],
      ["config", "check"],
      ["config", "check", "--json"],
      ["plugins", "list", "--json"],
    ];
    for (const argv of runs) {
      const out = await mcpx(dir, { env }, ...argv);
      outputs[`${argv.join(" ")} (stdout)`] = out.stdout;
      outputs[`${argv.join(" ")} (stderr)`] = out.stderr;
    }
    const listed = JSON.parse(outputs["tools list --json --log-level debug (stdout)"] ?? "{}")
      .servers as ListedServer[];
    const status = Object.fromEntries(listed.map((s) => [s.server, s.status]));
    // the run really did connect with the credentials, and really did fail where it should
    expect(status).toEqual({
      web: "connected",
      basic: "connected",
      query: "connected",
      legacy: "connected",
      child: "connected",
      echo: "failed",
      quoting: "connected",
      "dead-url": "failed",
      "dead-query": "failed",
      "dead-command": "failed",
      "dead-env": "failed",
    });
    expect(child.env?.API_KEY).toBe(SECRET);
    expect(web.requests[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
    // the quoting server's refusal reached the command line, without the credential (the header
    // it quoted goes whole: the longest form of a secret is taken out first)
    expect(quotingServer.frames("tools/call").length).toBeGreaterThan(0);
    expect(outputs["call quoting__echo {} --log-level debug (stderr)"]).toMatch(
      /token \[redacted\] is not allowed here/,
    );
    // the debug log is there, and it did see the child's stderr line (redacted)
    const debugLog = outputs["tools list --log-level debug (stderr)"] ?? "";
    expect(debugLog).toMatch(/mcpx debug /);
    expect(debugLog).toMatch(/starting with API_KEY=\[redacted\]/);

    // the lifecycle events and era resolutions, as a plugin saw them
    outputs["lifecycle events"] = await readFile(eventsFile, "utf8");
    expect(outputs["lifecycle events"]).toMatch(/"upstream.failed"/);
    expect(outputs["lifecycle events"]).toMatch(/"upstream.connected"/);
    // the state directory: every file in it
    const stateDir = join(dir, ".state", "mcpx");
    for (const f of await readdir(stateDir))
      outputs[`state ${f}`] = await readFile(join(stateDir, f), "utf8");
    expect(Object.keys(outputs)).toContain("state eras.json");

    for (const [where, text] of Object.entries(outputs)) {
      for (const secret of forbidden) expect(text, `${where} holds a secret`).not.toContain(secret);
    }
  });
});
