import type { AddressInfo } from "node:net";
import { createServer, type Socket } from "node:net";
import { ConnectionClosedError } from "@mcpx/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HttpClient, readText } from "../src/index.js";

/**
 * What the upstream does with one request: answer it, or close the socket at the worst moment for a
 * keep-alive client (`end`: FIN, "other side closed"; `reset`: RST, ECONNRESET; `partial`: a status
 * line, then FIN). `nth` counts requests on the socket from 1, `overall` across sockets.
 */
type Move = "answer" | "end" | "reset" | "partial";

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** A raw HTTP/1.1 upstream on 127.0.0.1 keeping sockets alive, so it can drop one between requests. */
async function upstream(decide: (nth: number, overall: number) => Move) {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    let buffer = Buffer.alloc(0);
    let nth = 0;
    socket.on("data", (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf("\r\n\r\n");
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString("latin1");
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffer.length < end + 4 + length) return;
        const body = buffer.subarray(end + 4, end + 4 + length).toString("utf8");
        buffer = buffer.subarray(end + 4 + length);
        nth++;
        seen.push(body);
        const move = decide(nth, seen.length);
        if (move === "end") return void socket.end();
        if (move === "reset") return void socket.resetAndDestroy();
        if (move === "partial") return void socket.end("HTTP/1.1 200 OK\r\n");
        const answer = `ok ${seen.length}`;
        socket.write(
          `HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ${answer.length}\r\nConnection: keep-alive\r\nKeep-Alive: timeout=60\r\n\r\n${answer}`,
        );
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  closers.push(() => {
    for (const s of sockets) s.destroy();
    server.close();
  });
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  return { url, seen, open: () => sockets.size };
}

function client(): HttpClient {
  const c = new HttpClient("up");
  closers.push(() => void c.destroy());
  return c;
}

/**
 * Lets the pool take the first answer's socket back: undici checks an idle socket on the next turn of
 * the event loop (for pending FIN/RST) before lending it again, and opens a new one meanwhile.
 */
const idle = () => new Promise((r) => setTimeout(r, 20));

async function post(c: HttpClient, url: URL, body: string): Promise<string> {
  const answer = await c.send("POST", url, { "content-type": "application/json" }, body);
  return readText(answer.body);
}

/**
 * The second request on a socket meets a socket the upstream is closing (`end`) or resetting: it
 * never reads it. Dropped unread, then answered on a new connection: the tool call ran once.
 */
async function expectRetriedOnce(second: "end" | "reset"): Promise<void> {
  const up = await upstream((nth) => (nth === 2 ? second : "answer"));
  const c = client();
  expect(await post(c, up.url, "first")).toBe("ok 1");
  await idle();
  expect(await post(c, up.url, "second")).toBe("ok 3");
  expect(up.seen).toEqual(["first", "second", "second"]);
}

describe("http keep-alive", () => {
  it("http/reused-connection-closed-by-the-upstream-is-retried-once", () => expectRetriedOnce("end"));

  it("http/reused-connection-reset-by-the-upstream-is-retried-once", () => expectRetriedOnce("reset"));

  it("http/reset-on-a-fresh-connection-is-not-retried", async () => {
    const up = await upstream(() => "reset");
    const err = await post(client(), up.url, "only").catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionClosedError);
    expect(up.seen).toEqual(["only"]);
  });

  it("http/close-on-a-fresh-connection-is-not-retried", async () => {
    const up = await upstream(() => "end");
    const err = await post(client(), up.url, "only").catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionClosedError);
    expect((err as Error).message).toMatch(/other side closed/);
    expect(up.seen).toEqual(["only"]);
  });

  it("http/no-retry-after-response-bytes", async () => {
    // The upstream began answering the second request: it saw it, so it is not sent again.
    const up = await upstream((nth) => (nth === 2 ? "partial" : "answer"));
    const c = client();
    expect(await post(c, up.url, "first")).toBe("ok 1");
    await idle();
    const err = await post(c, up.url, "second").catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionClosedError);
    expect(up.seen).toEqual(["first", "second"]);
  });

  it("http/stale-connection-retried-never-a-second-time", async () => {
    // Every request after the first is dropped, the retry's fresh connection included.
    const up = await upstream((_nth, overall) => (overall === 1 ? "answer" : "end"));
    const c = client();
    expect(await post(c, up.url, "first")).toBe("ok 1");
    await idle();
    const err = await post(c, up.url, "second").catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionClosedError);
    expect(up.seen).toEqual(["first", "second", "second"]);
  });

  it("http/retry-connection-is-closed-with-its-answer", async () => {
    const up = await upstream((nth) => (nth === 2 ? "end" : "answer"));
    const c = client();
    await post(c, up.url, "first");
    await idle();
    expect(await post(c, up.url, "second")).toBe("ok 3");
    // The stale socket was closed by the upstream; the retry's own connection by mcpx once its answer
    // was read, with the client still open: no socket is left behind.
    await vi.waitFor(() => expect(up.open()).toBe(0));
  });
});
