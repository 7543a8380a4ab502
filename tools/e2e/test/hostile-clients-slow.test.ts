/**
 * Slow clients against mcpx's HTTP server: a client that sends its headers a byte at a time (or
 * nothing at all), its body a byte at a time, or a chunked body that never ends, is answered 408 and
 * closed once listen.headersTimeout / listen.requestTimeout pass, while other clients are served; a
 * connection past listen.maxConnections is closed at once. Node's defaults (60 s for the headers,
 * 300 s for the request, checked every 30 s, no cap) would hold them for minutes. The streams a
 * client asked for (GET stream, subscriptions/listen, HTTP+SSE, the control API's event stream)
 * live on past every bound.
 */
import type { Logger } from "@mcpx/core";
import { describe, expect, it } from "vitest";
import { daemonCase, sleep, until } from "../src/index.js";
import {
  echo,
  httpGateway,
  legacySession,
  mirrored,
  modernBody,
  post,
  sseReader,
} from "./gateway-http.helpers.js";
import { expectRefusal, rawSocket, stillServes } from "./hostile-clients.helpers.js";

const a = { name: "a", versions: ["2025-06-18"], tools: [echo] };
const REQUEST_TIMED_OUT = /^Request Timeout: the request did not arrive in time/;

/** A logger that keeps what mcpx reports at warn and error. */
function capturingLog(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = {
    lines,
    debug: () => {},
    info: () => {},
    warn: (m: string) => void lines.push(`warn ${m}`),
    error: (m: string) => void lines.push(`error ${m}`),
    child: () => log,
  };
  return log as unknown as Logger & { lines: string[] };
}

describe("hostile clients: slow ones", () => {
  it("hostile-client/slow-headers-closed-by-listen.headersTimeout-while-others-are-served", async () => {
    // Through config: the daemon's listen section sets the bound.
    const d = await daemonCase([a], { listen: { headersTimeout: 400 } });
    const port = Number(new URL(d.url).port);
    const silent = rawSocket(port);
    const dripping = rawSocket(port);
    dripping.drip(`GET /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\n${"x-slow: 1\r\n".repeat(1000)}`, 20);
    const halfDone = rawSocket(port);
    halfDone.write("POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n");
    // a well-behaved client is served while they hang on
    await stillServes(d.url);
    for (const slow of [silent, dripping, halfDone]) {
      expectRefusal(await slow.answer(), 408, REQUEST_TIMED_OUT);
    }
    expect((await silent.answer()).json.error?.message).toContain("listen.headersTimeout, 400 ms");
    await stillServes(d.url);
  });

  it("hostile-client/slow-and-endless-bodies-closed-by-listen.requestTimeout", async () => {
    const log = capturingLog();
    const { url, scripted } = await httpGateway([a], { requestTimeoutMs: 600, log });
    const port = Number(new URL(url).port);
    const call = JSON.stringify(modernBody("tools/call", { name: "a__echo", arguments: { text: "slow" } }));
    const headers = Object.entries(mirrored("tools/call", "a__echo"))
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("");
    // the body a byte at a time
    const trickle = rawSocket(port);
    trickle.write(
      `POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\n${headers}content-length: ${call.length}\r\n\r\n`,
    );
    trickle.drip(call, 50);
    // a chunked body that never ends: a chunk of whitespace every 20 ms
    const endless = rawSocket(port);
    endless.write(`POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\n${headers}transfer-encoding: chunked\r\n\r\n`);
    const timer = setInterval(() => endless.write("1\r\n \r\n"), 20);
    await stillServes(url);
    for (const slow of [trickle, endless]) expectRefusal(await slow.answer(), 408, REQUEST_TIMED_OUT);
    clearInterval(timer);
    // neither call went upstream, and a client that left is not mcpx's error
    expect(scripted.a?.frames("tools/call").filter((f) => JSON.stringify(f).includes("slow"))).toEqual([]);
    expect(log.lines.filter((l) => l.startsWith("error"))).toEqual([]);
    await stillServes(url);
  });

  it("hostile-client/connections-past-listen.maxConnections-closed-at-once", async () => {
    const d = await daemonCase([a], { listen: { maxConnections: 3, headersTimeout: 20_000 } });
    const port = Number(new URL(d.url).port);
    const held = [rawSocket(port), rawSocket(port), rawSocket(port)];
    // three idle connections hold every place: a fourth is closed unanswered
    const over = rawSocket(port);
    const answer = await over.answer();
    expect(answer.status).toBe(0);
    expect(answer.text).toBe("");
    await expect(fetch(d.url, { method: "POST" })).rejects.toThrow();
    // one leaves: the next client is served
    held[0]?.socket.destroy();
    await until(() => held[0]?.closed === true);
    // (mcpx learns of the close asynchronously: until then the newcomer is still one too many)
    const deadline = Date.now() + 10_000;
    for (;;) {
      const served = await stillServes(d.url).then(
        () => true,
        (err: Error) => (Date.now() > deadline ? Promise.reject(err) : false),
      );
      if (served) break;
      await sleep(20);
    }
  });

  it("hostile-client/long-lived-streams-outlive-every-bound", async () => {
    const d = await daemonCase([{ ...a, capabilities: { tools: { listChanged: true } } }], {
      listen: { headersTimeout: 150, requestTimeout: 300 },
    });
    const url = d.url;
    const base = url.replace(/\/mcp$/, "");
    // a legacy session's GET stream, a 2026-07-28 listen, an HTTP+SSE stream, the control API's events
    const s = await legacySession(url, "2025-11-25");
    const get = sseReader(await fetch(url, { headers: { ...s.headers, accept: "text/event-stream" } }));
    await get.next(); // primed
    const listen = sseReader(
      await post(
        url,
        modernBody("subscriptions/listen", { notifications: { toolsListChanged: true } }, "L"),
        mirrored("subscriptions/listen"),
      ),
    );
    await listen.frame(); // acknowledged
    const sse = sseReader(await fetch(`${base}/sse`, { headers: { accept: "text/event-stream" } }));
    const messages = `${base}${(await sse.next())?.data}`;
    const json = { "content-type": "application/json" };
    const init = { protocolVersion: "2024-11-05", capabilities: {} };
    await post(messages, { jsonrpc: "2.0", id: 1, method: "initialize", params: init }, json);
    await sse.next();
    await post(messages, { jsonrpc: "2.0", method: "notifications/initialized" }, json);
    const events = sseReader(await fetch(`${d.control}events?follow=1&since=${Number.MAX_SAFE_INTEGER}`));
    // Every bound passes while they are quiet: a slow client opened now is closed by them.
    const probe = rawSocket(Number(new URL(url).port));
    probe.write(
      "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 10\r\n\r\n",
    );
    expect((await probe.answer()).status).toBe(408);
    // and each stream still delivers
    d.scripted.a!.notify("notifications/tools/list_changed");
    const changed = { method: "notifications/tools/list_changed" };
    expect(JSON.parse((await get.next())?.data ?? "")).toMatchObject(changed);
    expect(await listen.frame()).toMatchObject(changed);
    const onSse = await sse.next();
    expect(onSse?.event).toBe("message");
    expect(JSON.parse(onSse?.data ?? "")).toMatchObject(changed);
    const warning = { type: "server.warning", upstream: "a", message: "still listening" } as const;
    d.serving.runtime.gateway.emit(warning);
    expect(JSON.parse((await events.next())?.data ?? "")).toMatchObject(warning);
    for (const r of [get, listen, sse, events]) await r.cancel();
  });
});
