/**
 * Forged legacy sessions: a session's id presented with other credentials (or none) is no session
 * (404), as are random, truncated, overlong and non-ASCII ids and another transport's ids; a
 * Last-Event-ID names a stream of the session that presents it, never another's, and one that is
 * malformed, huge or negative is 400. (Sessions that expire or are evicted: hostile-sessions.test.ts;
 * resuming a stream one lost: gateway-http-legacy.test.ts.)
 */
import type { JSONObject } from "@mcpx/core";
import type { Handler } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { until } from "../src/index.js";
import { attached, echo, httpGateway, legacySession, post, sseReader } from "./gateway-http.helpers.js";
import { answerOf, expectRefusal, head, rawRequest, stillServes } from "./hostile-clients.helpers.js";

type Pairs = [string, string][];
const pairs = (h: Record<string, string>): Pairs => Object.entries(h);
const a = { name: "a", versions: ["2025-06-18"], tools: [echo] };

describe("hostile clients: forged sessions", () => {
  it("hostile-client/session-id-bound-to-the-credentials-that-opened-it", async () => {
    const { url, base, gateway } = await httpGateway([a]);
    const alice = { authorization: "Bearer alice" };
    const init = await post(
      url,
      {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {} },
      },
      { "content-type": "application/json", accept: "application/json", ...alice },
    );
    const sid = init.headers.get("mcp-session-id") ?? "";
    const h = {
      "content-type": "application/json",
      accept: "application/json",
      "mcp-session-id": sid,
      "mcp-protocol-version": "2025-11-25",
    };
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
    const others: Record<string, string>[] = [
      { authorization: "Bearer mallory" },
      { authorization: "Basic YWxpY2U6" },
      {},
    ];
    for (const other of others) {
      for (const [method, body] of [
        ["POST", JSON.stringify(ping)],
        ["GET", undefined],
        ["DELETE", undefined],
      ] as const) {
        const headers = { ...h, ...other, ...(method === "GET" ? { accept: "text/event-stream" } : {}) };
        const res = await fetch(url, { method, headers, ...(body ? { body } : {}) });
        expectRefusal(await answerOf(res), 404, "no such session");
      }
    }
    // the session is alice's still: nothing above ended it
    const mine = await post(url, ping, { ...h, ...alice });
    expect(await mine.json()).toMatchObject({ id: 1, result: {} });
    // HTTP+SSE: the same for the messages endpoint
    const sse = sseReader(await fetch(`${base}/sse`, { headers: { accept: "text/event-stream", ...alice } }));
    const messages = `${base}${(await sse.next())?.data}`;
    for (const other of others) {
      const res = await post(messages, ping, { "content-type": "application/json", ...other });
      expectRefusal(await answerOf(res), 404, "no such session");
    }
    expect((await post(messages, ping, { "content-type": "application/json", ...alice })).status).toBe(202);
    expect(JSON.parse((await sse.next())?.data ?? "")).toMatchObject({ id: 1, result: {} });
    expect(gateway.peers).toHaveLength(1); // alice's streamable session (the HTTP+SSE one is not initialized)
    await sse.cancel();
    await stillServes(url);
  });

  it("hostile-client/forged-session-ids-are-404-and-open-nothing", async () => {
    const { url, base, gateway } = await httpGateway([a]);
    const port = Number(new URL(url).port);
    const s = await legacySession(url, "2025-11-25");
    const sse = sseReader(await fetch(`${base}/sse`, { headers: { accept: "text/event-stream" } }));
    const sseId = new URLSearchParams(((await sse.next())?.data ?? "").split("?")[1]).get("sessionId") ?? "";
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    const forged = [
      Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64url"),
      `${s.sessionId}x`,
      s.sessionId.slice(0, -1),
      s.sessionId.toUpperCase() === s.sessionId ? s.sessionId.toLowerCase() : s.sessionId.toUpperCase(),
      "x".repeat(8000),
      `${s.sessionId}\u00e9`,
      sseId, // an HTTP+SSE session's id on /mcp
    ];
    const before = gateway.peers.length;
    for (const id of forged) {
      for (const method of ["POST", "GET", "DELETE"]) {
        const h: Pairs = [
          ...pairs({ ...s.headers, accept: method === "GET" ? "text/event-stream" : "application/json" }),
        ].map(([k, v]) => [k, k === "mcp-session-id" ? id : v]);
        const body = method === "POST" ? ping : "";
        const length: Pairs = body ? [["content-length", String(body.length)]] : [];
        const answer = await rawRequest(port, head(method, "/mcp", [...h, ...length]), body);
        expectRefusal(answer, 404, "Not Found: no such session");
      }
    }
    // a streamable session's id is no HTTP+SSE session, nor is any other
    for (const id of [s.sessionId, "nope", ""]) {
      const answer = await answerOf(
        await post(`${base}/messages?sessionId=${encodeURIComponent(id)}`, ping, {
          "content-type": "application/json",
        }),
      );
      expectRefusal(answer, 404, "no such session");
    }
    // a control character is not HTTP at all
    const ctl = await rawRequest(
      port,
      head("POST", "/mcp", [
        ...pairs(s.headers).map(([k, v]): [string, string] => [k, k === "mcp-session-id" ? `${v}\u0001` : v]),
        ["content-length", String(ping.length)],
      ]),
      ping,
    );
    expectRefusal(ctl, 400, "not valid HTTP/1.1");
    expect(gateway.peers.length).toBe(before);
    expect((await s.request("ping")).body).toMatchObject({ result: {} });
    await sse.cancel();
    await stillServes(url);
  });

  it("hostile-client/forged-last-event-ids-never-replay-another-session", async () => {
    let release = () => {};
    const released = new Promise<void>((r) => {
      release = r;
    });
    const slow: Handler = async (req, ctx) => {
      const params = req.params as JSONObject;
      const args = params.arguments as JSONObject;
      if (args.who === undefined) return { content: [{ type: "text", text: JSON.stringify(args) }] };
      const token = (params._meta as JSONObject | undefined)?.progressToken;
      ctx.push({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: token, progress: 1 },
      });
      await released;
      return { content: [{ type: "text", text: `for ${String((params.arguments as JSONObject).who)}` }] };
    };
    const { url, gateway } = await httpGateway([{ ...a, handlers: { "tools/call": slow } }]);
    const alice = await legacySession(url, "2025-11-25");
    const bob = await legacySession(url, "2025-11-25");
    // each starts a streamed call and loses the connection before its answer
    const lost: Record<string, string> = {};
    for (const [who, s] of [
      ["alice", alice],
      ["bob", bob],
    ] as const) {
      const abort = new AbortController();
      const res = await post(
        url,
        {
          jsonrpc: "2.0",
          id: who,
          method: "tools/call",
          params: { name: "a__echo", arguments: { who }, _meta: { progressToken: who } },
        },
        s.headers,
        abort.signal,
      );
      const events = sseReader(res);
      await events.next(); // primed
      lost[who] = (await events.next())?.id ?? "";
      abort.abort();
    }
    await until(() => !attached(gateway));
    release();
    const resume = (s: typeof alice, id: string, extra: Record<string, string> = {}) =>
      fetch(url, { headers: { ...s.headers, accept: "text/event-stream", "last-event-id": id, ...extra } });
    // the same ids in both sessions ("1_2"): each names a stream of the session that presents it
    expect(lost.alice).toBe(lost.bob);
    const bobs = sseReader(await resume(bob, lost.alice ?? ""));
    expect(JSON.parse((await bobs.next())?.data ?? "")).toMatchObject({
      id: "bob",
      result: { content: [{ text: "for bob" }] },
    });
    expect(await bobs.next()).toBeUndefined();
    // ids of streams that never were, malformed, huge, negative: 400, naming the id
    for (const id of [
      "9_1",
      "1",
      "_1",
      "1_",
      "1_x",
      "1_-1",
      "-1_1",
      "1_1.5",
      `1_${"9".repeat(400)}`,
      "x".repeat(8000),
      "0_0_0",
    ]) {
      const answer = await answerOf(await resume(alice, id));
      expectRefusal(answer, 400, "names no stream this session can resume");
    }
    // alice's id with other credentials: no session at all
    expectRefusal(
      await answerOf(await resume(alice, lost.alice ?? "", { authorization: "Bearer mallory" })),
      404,
      "no such session",
    );
    // and alice's own answer is still hers to resume
    const alices = sseReader(await resume(alice, lost.alice ?? ""));
    expect(JSON.parse((await alices.next())?.data ?? "")).toMatchObject({
      id: "alice",
      result: { content: [{ text: "for alice" }] },
    });
    await stillServes(url);
  });
});
