/**
 * Who may use mcpx, against clients that should not: a web page on another origin (or rebound to
 * 127.0.0.1 by DNS, so its Host is its own name) on every route, the control API included; a
 * cross-site "simple" POST (text/plain, a form) to the control API, which a browser sends without
 * asking first; wrong tokens in every shape when listen.token is set. (POST /mcp with a foreign
 * Origin or Host, and a missing or wrong token there, are in gateway-http.test.ts; forged sessions
 * are hostile-clients-sessions.test.ts.)
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { JSONObject } from "@mcpx/core";
import { createControlHandler } from "@mcpx/gateway";
import type { Handler } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { afterThisTest, type DaemonCase, daemonCase, scriptedGateway } from "../src/index.js";
import { echo, legacySession, mirrored, modernBody, post, sseReader } from "./gateway-http.helpers.js";
import { answerOf, expectRefusal, head, rawRequest, stillServes } from "./hostile-clients.helpers.js";

type Pairs = [string, string][];
const pairs = (h: Record<string, string>): Pairs => Object.entries(h);
const JSON_TYPE: Pairs = [["content-type", "application/json"]];

/** A tool that asks its client (mcpx, then whoever answers the broker) who it is. */
const ask: Handler = async (_req, ctx) => {
  const answer = await ctx.server.request(
    "elicitation/create",
    { message: "Who?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } },
    { push: ctx.push },
  );
  return { content: [{ type: "text", text: JSON.stringify(answer.result ?? answer.error) }] };
};
const echoOrAsk: Handler = (req, ctx) => {
  const params = req.params as JSONObject;
  if (params.name === "ask") return ask(req, ctx);
  return { content: [{ type: "text", text: JSON.stringify(params.arguments ?? {}) }] };
};
const a = {
  name: "a",
  versions: ["2025-06-18"],
  tools: [echo, { name: "ask", inputSchema: { type: "object" } }],
  handlers: { "tools/call": echoOrAsk },
};

/** Every route a client reaches on the daemon's port: [method, path, headers, body]. */
async function everyRoute(d: DaemonCase): Promise<[string, string, Pairs, string][]> {
  const s = await legacySession(d.url, "2025-11-25");
  const base = d.url.replace(/\/mcp$/, "");
  const sse = sseReader(await fetch(`${base}/sse`, { headers: { accept: "text/event-stream" } }));
  const messages = (await sse.next())?.data ?? "";
  const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
  const call = (text: string) => JSON.stringify({ name: "a__echo", arguments: { text } });
  return [
    [
      "POST",
      "/mcp",
      pairs(mirrored("tools/call", "a__echo")),
      JSON.stringify(modernBody("tools/call", { name: "a__echo", arguments: { text: "evil" } })),
    ],
    ["POST", "/mcp", pairs(s.headers), ping],
    ["GET", "/mcp", pairs({ ...s.headers, accept: "text/event-stream" }), ""],
    ["DELETE", "/mcp", pairs(s.headers), ""],
    ["GET", "/sse", [["accept", "text/event-stream"]], ""],
    ["POST", messages, JSON_TYPE, ping],
    ["GET", "/.mcpx/status", [], ""],
    ["GET", "/.mcpx/events", [], ""],
    ["GET", "/.mcpx/events?follow=1", [], ""],
    ["GET", "/.mcpx/list/tools", [], ""],
    ["GET", "/.mcpx/servers/tools", [], ""],
    ["GET", "/.mcpx/elicitations", [], ""],
    ["GET", "/.mcpx/elicitations/watch", [], ""],
    ["POST", "/.mcpx/call", JSON_TYPE, call("evil")],
    ["POST", "/.mcpx/read", JSON_TYPE, JSON.stringify({ uri: "mcpx://a/x" })],
    ["POST", "/.mcpx/prompt", JSON_TYPE, JSON.stringify({ name: "a__p" })],
    ["POST", "/.mcpx/elicitations/x/answer", JSON_TYPE, JSON.stringify({ action: "decline" })],
  ];
}

function send(d: DaemonCase, [method, path, headers, body]: [string, string, Pairs, string], extra: Pairs) {
  const port = Number(new URL(d.url).port);
  const length: Pairs = body ? [["content-length", String(Buffer.byteLength(body))]] : [];
  return rawRequest(port, head(method, path, [...headers, ...extra, ...length]), body);
}

describe("hostile clients: origins, tokens, sessions", () => {
  it("hostile-client/foreign-origin-and-rebound-host-refused-on-every-route", async () => {
    const d = await daemonCase([a]);
    const port = new URL(d.url).port;
    const routes = await everyRoute(d);
    const peers = d.serving.runtime.gateway.peers.length;
    const foreign: [Pairs, string][] = [
      [[["origin", "https://evil.example"]], "Forbidden: Origin https://evil.example is not allowed"],
      [[["origin", "null"]], "Forbidden: Origin null is not allowed"],
      [[["origin", "http://127.0.0.1.evil.example"]], "Forbidden: Origin http://127.0.0.1.evil.example"],
      [[["host", `evil.example:${port}`]], `Forbidden: Host evil.example:${port} is not allowed`],
      [[["host", "localhost.evil.example"]], "Forbidden: Host localhost.evil.example is not allowed"],
    ];
    for (const route of routes) {
      for (const [extra, named] of foreign) {
        const answer = await send(d, route, extra);
        expect(answer.status, `${route[0]} ${route[1]} ${JSON.stringify(extra)}`).toBe(403);
        expectRefusal(answer, 403, named);
      }
    }
    // nothing reached an upstream, nothing ended (the DELETE included)
    expect(d.scripted.a!.frames("tools/call")).toEqual([]);
    expect(d.serving.runtime.gateway.peers).toHaveLength(peers);
    await stillServes(d.url);
  });

  it("hostile-client/cross-site-simple-posts-to-the-control-api-refused", async () => {
    const d = await daemonCase([a]);
    await d.watch();
    // a question waits for an answer: a page must not be able to give one
    const asked = post(
      d.url,
      modernBody("tools/call", { name: "a__ask", arguments: {} }),
      mirrored("tools/call", "a__ask"),
    );
    const [pending] = await d.pending();
    const id = String(pending?.id);
    const targets: [string, string][] = [
      ["/.mcpx/call", JSON.stringify({ name: "a__echo", arguments: { text: "cross-site" } })],
      ["/.mcpx/read", JSON.stringify({ uri: "mcpx://a/x" })],
      ["/.mcpx/prompt", JSON.stringify({ name: "a__p" })],
      [`/.mcpx/elicitations/${id}/answer`, JSON.stringify({ action: "accept", content: { name: "evil" } })],
    ];
    const simple = [
      "text/plain",
      "text/plain;charset=UTF-8",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      undefined,
    ];
    for (const [path, body] of targets) {
      for (const type of simple) {
        const ct: Pairs = type === undefined ? [] : [["content-type", type]];
        const answer = await send(d, ["POST", path, ct, body], [["origin", "http://localhost:1"]]);
        const got = type === undefined ? "no Content-Type" : JSON.stringify(type);
        expectRefusal(
          answer,
          415,
          `Unsupported Media Type: a POST body must be application/json (got ${got})`,
        );
      }
    }
    expect(d.scripted.a!.frames("tools/call").map((f) => (f.params as JSONObject).name)).toEqual(["ask"]);
    expect((await d.pending()).map((p) => p.id)).toEqual([pending?.id]);
    // the CLI's own JSON answer is taken
    const answered = await d.post(`elicitations/${id}/answer`, {
      action: "accept",
      content: { name: "Ada" },
    });
    expect(answered.status).toBe(200);
    const result = (await (await asked).json()) as { result: { content: { text: string }[] } };
    expect(JSON.parse(result.result.content[0]?.text ?? "")).toEqual({
      action: "accept",
      content: { name: "Ada" },
    });
    await stillServes(d.url);
  });

  it("hostile-client/control-list-named-like-a-prototype-member-is-unknown", async () => {
    const d = await daemonCase([a]);
    for (const kind of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      const answer = await answerOf(await fetch(`${d.control}list/${kind}`));
      expectRefusal(answer, 400, `unknown list ${JSON.stringify(kind)}`, -32602);
    }
    // nothing was asked of the upstream for them, and the real lists answer
    expect(d.scripted.a!.frames().filter((f) => f.method === undefined)).toEqual([]);
    const tools = await d.get<{ tools: { name: string }[] }>("list/tools");
    expect(tools.tools.map((t) => t.name)).toEqual(["a__echo", "a__ask"]);
  });

  it("hostile-client/wrong-tokens-refused-on-every-route", async () => {
    const token = "s3cret-Token-42";
    const d = await daemonCase([a], { listen: { token } });
    const authed = await daemonRoutesWith(d, `Bearer ${token}`);
    const wrong: [Pairs, string][] = [
      [[], "requires Authorization: Bearer <token>"],
      [[["authorization", "Bearer wrong"]], "the bearer token is not valid"],
      [[["authorization", `Bearer ${token.toUpperCase()}`]], "not valid"],
      [[["authorization", `Bearer ${token.toLowerCase()}`]], "not valid"],
      [[["authorization", `Bearer ${token}x`]], "not valid"],
      [[["authorization", `Bearer x${token}`]], "not valid"],
      [[["authorization", `Bearer ${token}%20`]], "not valid"],
      [[["authorization", `Bearer ${token}\u00a0`]], "requires Authorization: Bearer"],
      [[["authorization", `Bearer ${token} x`]], "requires Authorization: Bearer"],
      [
        [["authorization", `Basic ${Buffer.from(`user:${token}`).toString("base64")}`]],
        "requires Authorization: Bearer",
      ],
      [[["authorization", `Token ${token}`]], "requires Authorization: Bearer"],
      [[["authorization", token]], "requires Authorization: Bearer"],
      [
        [
          ["authorization", "Bearer wrong"],
          ["authorization", `Bearer ${token}`],
        ],
        "not valid",
      ],
      [
        [
          ["x-mcpx-token", token],
          ["cookie", `token=${token}`],
        ],
        "requires Authorization: Bearer",
      ],
    ];
    for (const [method, path, headers, body] of authed) {
      const clean = headers.filter(([k]) => k !== "authorization");
      for (const [extra, named] of wrong) {
        const answer = await send(d, [method, path, clean, body], extra);
        expectRefusal(answer, 401, named);
        expect(answer.headers["www-authenticate"]).toMatch(/^Bearer realm="mcpx"/);
      }
      // in the query string, the token is no token (it would end up in logs and history)
      const q = path.includes("?") ? "&" : "?";
      for (const name of ["access_token", "token"]) {
        const answer = await send(d, [method, `${path}${q}${name}=${token}`, clean, body], []);
        expectRefusal(answer, 401, "requires Authorization: Bearer <token>");
      }
    }
    // trailing whitespace is no part of a header's value (RFC 9110 §5.5): that is the token
    for (const pad of [" ", "\t", "  "]) {
      const padded: Pairs = [["authorization", `Bearer ${token}${pad}`]];
      expect((await send(d, ["GET", "/.mcpx/status", padded, ""], [])).status).toBe(200);
    }
    expect(d.scripted.a!.frames("tools/call")).toEqual([]);
    await stillServes(d.url, { authorization: `Bearer ${token}` });
  });
});

/** everyRoute, set up with credentials (a session needs them to be opened). */
async function daemonRoutesWith(d: DaemonCase, authorization: string) {
  const base = d.url.replace(/\/mcp$/, "");
  const auth = { authorization };
  const init = await post(
    d.url,
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {} },
    },
    { "content-type": "application/json", accept: "application/json", ...auth },
  );
  const sid = init.headers.get("mcp-session-id") ?? "";
  const s = {
    "mcp-session-id": sid,
    "mcp-protocol-version": "2025-11-25",
    "content-type": "application/json",
    ...auth,
  };
  const sse = sseReader(await fetch(`${base}/sse`, { headers: { accept: "text/event-stream", ...auth } }));
  const messages = (await sse.next())?.data ?? "";
  const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
  const json: Pairs = [...JSON_TYPE, ["authorization", authorization]];
  return [
    [
      "POST",
      "/mcp",
      pairs({ ...mirrored("tools/call", "a__echo"), ...auth }),
      JSON.stringify(modernBody("tools/call", { name: "a__echo", arguments: { text: "evil" } })),
    ],
    ["POST", "/mcp", pairs(s), ping],
    ["GET", "/mcp", pairs({ ...s, accept: "text/event-stream" }), ""],
    ["DELETE", "/mcp", pairs(s), ""],
    [
      "GET",
      "/sse",
      [
        ["accept", "text/event-stream"],
        ["authorization", authorization],
      ],
      "",
    ],
    ["POST", messages, json, ping],
    ["GET", "/.mcpx/status", [["authorization", authorization]], ""],
    ["GET", "/.mcpx/events?follow=1", [["authorization", authorization]], ""],
    ["GET", "/.mcpx/elicitations", [["authorization", authorization]], ""],
    ["POST", "/.mcpx/call", json, JSON.stringify({ name: "a__echo", arguments: { text: "evil" } })],
    ["POST", "/.mcpx/elicitations/x/answer", json, JSON.stringify({ action: "decline" })],
  ] as [string, string, Pairs, string][];
}

describe("the control API beyond loopback", () => {
  it("hostile-client/control-api-refuses-callers-beyond-loopback", async () => {
    // mcpx binds loopback, so no test here can connect from elsewhere: the caller's address is what
    // the socket reports, set here to one outside the machine, as a daemon listening beyond
    // loopback would see it. Even with Origin and Host in order, the control API refuses.
    const { gateway, scripted } = await scriptedGateway([
      { name: "a", versions: ["2025-06-18"], tools: [echo] },
    ]);
    const control = createControlHandler(gateway, { info: { version: "test", startedAt: "now" } });
    const server = createServer((req, res) => {
      Object.defineProperty(req.socket, "remoteAddress", { value: "203.0.113.7", configurable: true });
      void control(req, res).then((handled) => handled || res.writeHead(404).end());
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    afterThisTest(() => new Promise<void>((r) => server.close(() => r())));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.mcpx`;
    for (const [method, route, body] of [
      ["GET", "/status", undefined],
      ["GET", "/list/tools", undefined],
      ["POST", "/call", JSON.stringify({ name: "a__echo", arguments: { text: "from afar" } })],
    ] as const) {
      const res = await fetch(`${base}${route}`, {
        method,
        headers: { "content-type": "application/json" },
        ...(body ? { body } : {}),
      });
      const { status, json } = await answerOf(res);
      expect(status, `${method} ${route}`).toBe(403);
      expect(json?.error?.message).toBe("Forbidden: the control API answers loopback callers only");
    }
    expect(scripted.a?.received.some((r) => r.frame.method === "tools/call")).toBe(false);
  });
});
