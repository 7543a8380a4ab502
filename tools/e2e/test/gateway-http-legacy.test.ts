/** mcpx's downstream HTTP server for legacy clients: Streamable HTTP sessions and 2024-11-05 HTTP+SSE. */
import type { JSONObject } from "@mcpx/core";
import { describe, expect, it } from "vitest";
import { until } from "../src/index.js";
import {
  attached,
  echo,
  httpGateway,
  legacySession,
  post,
  sleep,
  sseReader,
} from "./gateway-http.helpers.js";

const json = { "content-type": "application/json", accept: "application/json, text/event-stream" };

describe("gateway over HTTP: legacy Streamable HTTP", () => {
  it("downstream/legacy-session-lifecycle", async () => {
    const { url, gateway } = await httpGateway([{ name: "a", versions: ["2025-06-18"], tools: [echo] }]);
    const s = await legacySession(url, "2025-06-18");
    expect(s.sessionId).toMatch(/^[\x21-\x7e]{16,}$/);
    expect(s.init.result).toMatchObject({ protocolVersion: "2025-06-18", serverInfo: { name: "mcpx" } });
    expect(gateway.peers).toHaveLength(1);
    expect(gateway.peers[0]?.revision).toMatchObject({ era: "legacy", version: "2025-06-18" });
    // the session id is a credential, not the peer's name
    expect(gateway.peers[0]?.id).not.toContain(s.sessionId);

    const listed = await s.request("tools/list");
    expect(listed.res.headers.get("content-type")).toBe("application/json");
    expect(listed.body.result).toEqual({ tools: [expect.objectContaining({ name: "a__echo" })] });
    const call = await s.request("tools/call", { name: "a__echo", arguments: { text: "hi" } });
    expect(call.body.result).toEqual({ content: [{ type: "text", text: '{"text":"hi"}' }] });

    // without the session id: 400; with an unknown one: 404
    const { "mcp-session-id": _sid, ...noSession } = s.headers;
    const missing = await post(url, { jsonrpc: "2.0", id: 5, method: "tools/list" }, noSession);
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toContain(
      "Mcp-Session-Id",
    );
    const unknown = await post(
      url,
      { jsonrpc: "2.0", id: 6, method: "tools/list" },
      { ...s.headers, "mcp-session-id": "nope" },
    );
    expect(unknown.status).toBe(404);
    // MCP-Protocol-Version: a value mcpx does not serve is refused (the gateway-http/version-header-*
    // tests below have the rest)
    const bogus = await s.request("tools/list", undefined, { "mcp-protocol-version": "1999-01-01" });
    expect(bogus.res.status).toBe(400);
    expect(JSON.stringify(bogus.body)).toContain("1999-01-01");
    // notifications and responses: 202
    const note = await post(url, { jsonrpc: "2.0", method: "notifications/roots/list_changed" }, s.headers);
    expect(note.status).toBe(202);
    const resp = await post(url, { jsonrpc: "2.0", id: "srv-1", result: {} }, s.headers);
    expect(resp.status).toBe(202);

    // DELETE ends the session
    const del = await fetch(url, { method: "DELETE", headers: s.headers });
    expect(del.status).toBe(200);
    expect(gateway.peers).toEqual([]);
    const after = await s.request("tools/list");
    expect(after.res.status).toBe(404);
    expect((await fetch(url, { method: "DELETE", headers: s.headers })).status).toBe(404);
  });

  // basic/transports "Protocol Version Header" (2025-06-18, 2025-11-25): without the header the
  // server relies on "the protocol version negotiated during initialization"; only "an invalid or
  // unsupported" value is answered 400.
  it("gateway-http/version-header-absent-uses-the-negotiated-version", async () => {
    const { url } = await httpGateway([{ name: "a", versions: ["2025-06-18"], tools: [echo] }]);
    for (const version of ["2025-06-18", "2025-11-25"]) {
      const s = await legacySession(url, version);
      const { "mcp-protocol-version": _v, ...noVersion } = s.headers;
      const listed = await post(url, { jsonrpc: "2.0", id: 1, method: "tools/list" }, noVersion);
      expect(listed.status).toBe(200);
      expect(((await listed.json()) as { result: JSONObject }).result).toEqual({
        tools: [expect.objectContaining({ name: "a__echo" })],
      });
      // taken for the session's version, not 2025-03-26: a batch (2025-03-26's alone) is still refused
      const batch = await post(url, [{ jsonrpc: "2.0", id: 2, method: "tools/list" }], noVersion);
      expect(batch.status).toBe(400);
      expect(JSON.stringify(await batch.json())).toContain(`JSON-RPC batches are not part of ${version}`);
      // the GET stream and the DELETE go the same way
      const abort = new AbortController();
      const get = await fetch(url, {
        headers: { accept: "text/event-stream", "mcp-session-id": s.sessionId },
        signal: abort.signal,
      });
      expect(get.status).toBe(200);
      expect(get.headers.get("content-type")).toContain("text/event-stream");
      abort.abort();
      const del = await fetch(url, { method: "DELETE", headers: { "mcp-session-id": s.sessionId } });
      expect(del.status).toBe(200);
    }
  });

  it("gateway-http/version-header-of-another-supported-revision-accepted", async () => {
    const { url } = await httpGateway([{ name: "a", versions: ["2025-06-18"], tools: [echo] }]);
    // as the official suite's server-sse-multiple-streams does: three concurrent POSTs on a
    // 2025-11-25 session, each saying 2025-03-26
    const s = await legacySession(url, "2025-11-25");
    const answers = await Promise.all(
      [0, 1, 2].map((i) =>
        post(
          url,
          { jsonrpc: "2.0", id: 1000 + i, method: "tools/list" },
          {
            ...s.headers,
            accept: "text/event-stream, application/json",
            "mcp-protocol-version": "2025-03-26",
          },
        ),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    for (const r of answers) await r.body?.cancel();
    for (const other of ["2024-11-05", "2025-06-18"]) {
      const listed = await s.request("tools/list", undefined, { "mcp-protocol-version": other });
      expect(listed.res.status).toBe(200);
      expect(listed.body.result).toEqual({ tools: [expect.objectContaining({ name: "a__echo" })] });
    }
    // the session's revision answers: the header names no new negotiation (no batch on 2025-11-25)
    const batch = await post(url, [{ jsonrpc: "2.0", id: 2, method: "tools/list" }], {
      ...s.headers,
      "mcp-protocol-version": "2025-03-26",
    });
    expect(batch.status).toBe(400);
    expect(JSON.stringify(await batch.json())).toContain("JSON-RPC batches are not part of 2025-11-25");
    const del = await fetch(url, {
      method: "DELETE",
      headers: { ...s.headers, "mcp-protocol-version": "2025-06-18" },
    });
    expect(del.status).toBe(200);
  });

  it("gateway-http/version-header-unsupported-refused-400", async () => {
    const { url } = await httpGateway([{ name: "a", versions: ["2025-06-18"], tools: [echo] }]);
    const s = await legacySession(url, "2025-11-25");
    // unknown, malformed, empty, and 2026-07-28 (served, but it has no sessions: no session speaks it)
    for (const value of ["1999-01-01", "v999.0.0", "", "2026-07-28"]) {
      const refused = await s.request("tools/list", undefined, { "mcp-protocol-version": value });
      expect(refused.res.status, value).toBe(400);
      expect(refused.body.error, value).toMatchObject({ code: -32600 });
      expect(String((refused.body.error as JSONObject).message), value).toContain(
        `unsupported MCP-Protocol-Version ${JSON.stringify(value)}`,
      );
    }
    const get = await fetch(url, {
      headers: {
        accept: "text/event-stream",
        "mcp-session-id": s.sessionId,
        "mcp-protocol-version": "1999-01-01",
      },
    });
    expect(get.status).toBe(400);
    // the session is unharmed
    expect((await s.request("tools/list")).res.status).toBe(200);
  });

  it("downstream/legacy-version-header-absent-2025-03-26", async () => {
    const { url } = await httpGateway([{ name: "a", versions: ["2025-06-18"], tools: [echo] }]);
    const s = await legacySession(url, "2025-03-26");
    const { "mcp-protocol-version": _v, ...noVersion } = s.headers;
    // a 2025-03-26 client predates the header: its absence is taken for 2025-03-26
    const res = await post(url, { jsonrpc: "2.0", id: 1, method: "tools/list" }, noVersion);
    expect(res.status).toBe(200);
    // batches are 2025-03-26's
    const batch = await post(
      url,
      [
        { jsonrpc: "2.0", id: 2, method: "tools/list" },
        { jsonrpc: "2.0", method: "notifications/roots/list_changed" },
        { jsonrpc: "2.0", id: 3, method: "ping" },
      ],
      s.headers,
    );
    expect(batch.status).toBe(200);
    const answers = (await batch.json()) as JSONObject[];
    // JSON-RPC lets a batch's responses come in any order
    expect(answers.map((a) => a.id).sort()).toEqual([2, 3]);
    const s2 = await legacySession(url, "2025-06-18");
    const refused = await post(url, [{ jsonrpc: "2.0", id: 2, method: "tools/list" }], s2.headers);
    expect(refused.status).toBe(400);
  });

  it("downstream/legacy-idle-expiry", async () => {
    const { url, gateway } = await httpGateway([{ name: "a", versions: ["2025-06-18"], tools: [echo] }], {
      sessionIdleMs: 150,
    });
    const s = await legacySession(url, "2025-11-25");
    expect(gateway.peers).toHaveLength(1);
    // swept after 150 ms idle (the sweeper runs every 75 ms)
    await until(() => gateway.peers.length === 0);
    expect((await s.request("tools/list")).res.status).toBe(404);
  });

  it("downstream/legacy-get-stream", async () => {
    const { url, scripted } = await httpGateway([
      {
        name: "a",
        versions: ["2025-06-18"],
        capabilities: { tools: { listChanged: true }, logging: {} },
        tools: [echo],
      },
    ]);
    const s = await legacySession(url, "2025-11-25");
    const get = await fetch(url, { headers: { ...s.headers, accept: "text/event-stream" } });
    expect(get.status).toBe(200);
    expect(get.headers.get("content-type")).toBe("text/event-stream");
    const sse = sseReader(get);
    // 2025-11-25: primed with an id and empty data
    const prime = await sse.next();
    expect(prime?.id).toMatch(/^0_\d+$/);
    expect(prime?.data).toBe("");
    // one GET stream per session
    const second = await fetch(url, { headers: { ...s.headers, accept: "text/event-stream" } });
    expect(second.status).toBe(409);
    scripted.a!.notify("notifications/tools/list_changed");
    const changed = await sse.next();
    expect(changed?.id).toMatch(/^0_\d+$/);
    expect(JSON.parse(changed!.data)).toEqual({
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
      params: {},
    });
    // log lines at the level the session set
    expect((await s.request("logging/setLevel", { level: "warning" })).body.result).toEqual({});
    scripted.a!.notify("notifications/message", { level: "info", data: "quiet" });
    scripted.a!.notify("notifications/message", { level: "error", data: "loud" });
    const log = JSON.parse((await sse.next())!.data);
    expect(log).toMatchObject({
      method: "notifications/message",
      params: { level: "error", data: "loud", logger: "a" },
    });
    // without a session id, GET is a 2026-07-28 client's: 405
    expect((await fetch(url, { headers: { accept: "text/event-stream" } })).status).toBe(405);
    await sse.cancel();
  });

  it("downstream/legacy-resume-last-event-id", async () => {
    let finish: (v: JSONObject) => void = () => {};
    let more = () => {};
    const { url, scripted, gateway } = await httpGateway([
      {
        name: "slow",
        versions: ["2025-06-18"],
        capabilities: { tools: { listChanged: true } },
        tools: [echo],
        handlers: {
          "tools/call": (req, ctx) => {
            const token = (req.params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
            ctx.push({
              jsonrpc: "2.0",
              method: "notifications/progress",
              params: { progressToken: token, progress: 1 },
            });
            more = () =>
              ctx.push({
                jsonrpc: "2.0",
                method: "notifications/progress",
                params: { progressToken: token, progress: 2 },
              });
            return new Promise((resolve) => {
              finish = resolve;
            });
          },
        },
      },
    ]);
    const s = await legacySession(url, "2025-11-25");
    const abort = new AbortController();
    const res = await post(
      url,
      {
        jsonrpc: "2.0",
        id: 41,
        method: "tools/call",
        params: { name: "slow__echo", arguments: {}, _meta: { progressToken: "t" } },
      },
      s.headers,
      abort.signal,
    );
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const sse = sseReader(res);
    const prime = await sse.next();
    expect(prime?.data).toBe("");
    const progress = await sse.next();
    expect(JSON.parse(progress!.data)).toMatchObject({
      method: "notifications/progress",
      params: { progressToken: "t" },
    });
    // the connection drops (not a cancellation in the legacy eras); the call goes on
    abort.abort();
    await until(() => !attached(gateway));
    // something else happens meanwhile on the GET stream, which must not be replayed on this one
    scripted.slow!.notify("notifications/tools/list_changed");
    more();
    finish({ content: [{ type: "text", text: "finished" }] });
    await sleep(100);
    expect(scripted.slow?.frames("notifications/cancelled")).toEqual([]);
    const resumed = await fetch(url, {
      headers: { ...s.headers, accept: "text/event-stream", "last-event-id": progress!.id! },
    });
    expect(resumed.status).toBe(200);
    const rest = sseReader(resumed);
    const events: JSONObject[] = [];
    for (let ev = await rest.next(); ev; ev = await rest.next()) events.push(JSON.parse(ev.data));
    expect(events.map((e) => e.method ?? `response ${String(e.id)}`)).toEqual([
      "notifications/progress",
      "response 41",
    ]);
    expect(events[1]).toMatchObject({ result: { content: [{ text: "finished" }] } });
    // an id this session never gave cannot be resumed
    const bad = await fetch(url, {
      headers: { ...s.headers, accept: "text/event-stream", "last-event-id": "99_1" },
    });
    expect(bad.status).toBe(400);
  });

  it("downstream/legacy-get-stream-resumed", async () => {
    const { url, scripted, gateway } = await httpGateway([
      {
        name: "a",
        versions: ["2025-06-18"],
        capabilities: { tools: { listChanged: true }, prompts: { listChanged: true } },
        tools: [echo],
      },
    ]);
    const s = await legacySession(url, "2025-11-25");
    const abort = new AbortController();
    const get = await fetch(url, {
      headers: { ...s.headers, accept: "text/event-stream" },
      signal: abort.signal,
    });
    const sse = sseReader(get);
    const prime = await sse.next();
    abort.abort();
    await until(() => !attached(gateway));
    scripted.a!.notify("notifications/prompts/list_changed");
    await sleep(50);
    const resumed = await fetch(url, {
      headers: { ...s.headers, accept: "text/event-stream", "last-event-id": prime!.id! },
    });
    const again = sseReader(resumed);
    expect(JSON.parse((await again.next())!.data)).toMatchObject({
      method: "notifications/prompts/list_changed",
    });
    // the resumed stream is the session's GET stream again
    scripted.a!.notify("notifications/tools/list_changed");
    expect(JSON.parse((await again.next())!.data)).toMatchObject({
      method: "notifications/tools/list_changed",
    });
    await again.cancel();
  });

  it("downstream/legacy-cancel-notification", async () => {
    const { url, scripted } = await httpGateway([
      {
        name: "slow",
        versions: ["2025-06-18"],
        tools: [echo],
        handlers: { "tools/call": () => new Promise(() => {}) },
      },
    ]);
    const s = await legacySession(url, "2025-06-18");
    const pending = post(
      url,
      { jsonrpc: "2.0", id: "c-1", method: "tools/call", params: { name: "slow__echo", arguments: {} } },
      s.headers,
    );
    await scripted.slow!.waitForMethod("tools/call");
    const note = await post(
      url,
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "c-1", reason: "enough" } },
      s.headers,
    );
    expect(note.status).toBe(202);
    const cancelled = await scripted.slow!.waitForMethod("notifications/cancelled");
    expect(cancelled.frame.params?.requestId).toBe(scripted.slow?.frames("tools/call")[0]?.id);
    // the cancelled request gets no response
    const res = await pending;
    expect(res.status).toBe(202);
    expect(await res.text()).toBe("");
  });

  it("downstream/legacy-sse-when-accept-only-sse", async () => {
    const { url } = await httpGateway([{ name: "a", versions: ["2025-06-18"], tools: [echo] }]);
    const s = await legacySession(url, "2025-06-18");
    const res = await post(
      url,
      { jsonrpc: "2.0", id: 3, method: "tools/list" },
      { ...s.headers, accept: "text/event-stream" },
    );
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const sse = sseReader(res);
    const ev = await sse.next();
    expect(ev?.id).toMatch(/^\d+_\d+$/);
    expect(JSON.parse(ev!.data)).toMatchObject({ id: 3, result: { tools: [{ name: "a__echo" }] } });
    expect(await sse.next()).toBeUndefined();
  });
});

describe("gateway over HTTP: 2024-11-05 HTTP+SSE", () => {
  it("downstream/http-sse-2024-11-05", async () => {
    const { base, gateway, scripted } = await httpGateway([
      { name: "a", versions: ["2024-11-05"], capabilities: { tools: { listChanged: true } }, tools: [echo] },
    ]);
    const abort = new AbortController();
    const stream = await fetch(`${base}/sse`, {
      headers: { accept: "text/event-stream" },
      signal: abort.signal,
    });
    expect(stream.status).toBe(200);
    const sse = sseReader(stream);
    const endpoint = await sse.next();
    expect(endpoint?.event).toBe("endpoint");
    expect(endpoint?.data).toMatch(/^\/messages\?sessionId=[\x21-\x7e]+$/);
    const messages = `${base}${endpoint!.data}`;
    const init = await post(
      messages,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2024-11-05",
          capabilities: {},
          clientInfo: { name: "old", version: "1" },
        },
      },
      json,
    );
    expect(init.status).toBe(202);
    const initAnswer = await sse.next();
    expect(initAnswer?.event).toBe("message");
    expect(JSON.parse(initAnswer!.data)).toMatchObject({
      id: 1,
      result: { protocolVersion: "2024-11-05", serverInfo: { name: "mcpx" } },
    });
    expect(JSON.parse(initAnswer!.data).result.capabilities).not.toHaveProperty("completions");
    expect((await post(messages, { jsonrpc: "2.0", method: "notifications/initialized" }, json)).status).toBe(
      202,
    );
    expect(
      (
        await post(
          messages,
          {
            jsonrpc: "2.0",
            id: 2,
            method: "tools/call",
            params: { name: "a__echo", arguments: { text: "old" } },
          },
          json,
        )
      ).status,
    ).toBe(202);
    const call = JSON.parse((await sse.next())!.data);
    expect(call).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { content: [{ type: "text", text: '{"text":"old"}' }] },
    });
    scripted.a!.notify("notifications/tools/list_changed");
    expect(JSON.parse((await sse.next())!.data)).toMatchObject({
      method: "notifications/tools/list_changed",
    });
    // a session id nobody holds, or none
    expect(
      (await post(`${base}/messages?sessionId=nope`, { jsonrpc: "2.0", id: 3, method: "ping" }, json)).status,
    ).toBe(404);
    expect((await post(`${base}/messages`, { jsonrpc: "2.0", id: 3, method: "ping" }, json)).status).toBe(
      400,
    );
    // a Streamable HTTP request cannot use an HTTP+SSE session id
    const sid = new URL(messages).searchParams.get("sessionId")!;
    expect(
      (
        await post(
          `${base}/mcp`,
          { jsonrpc: "2.0", id: 4, method: "tools/list" },
          { ...json, "mcp-session-id": sid },
        )
      ).status,
    ).toBe(404);
    expect(gateway.peers).toHaveLength(1);
    // the session ends with its stream
    abort.abort();
    await until(() => gateway.peers.length === 0);
    expect((await post(messages, { jsonrpc: "2.0", id: 5, method: "ping" }, json)).status).toBe(404);
  });
});
