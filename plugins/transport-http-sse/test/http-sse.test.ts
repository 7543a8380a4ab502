import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  ConnectionClosedError,
  DEFAULT_UPSTREAM_SETTINGS,
  ForeignOriginError,
  type JSONRPCMessage,
  silentLogger,
} from "@mcpx/core";
import { afterEach, describe, expect, it } from "vitest";
import { HttpSseTransport, httpSseTransport } from "../src/index.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

/** A server whose GET /sse stream starts with `first` (raw SSE text), and whose POSTs are recorded. */
async function serve(first: string) {
  const posts: string[] = [];
  const streams: ServerResponse[] = [];
  const server = createServer((req, res) => {
    if (req.method === "GET") {
      res.writeHead(200, { "Content-Type": "text/event-stream" }).flushHeaders();
      res.write(first);
      streams.push(res);
      return;
    }
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      posts.push(body);
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  cleanups.push(
    () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sse`;
  const messages: JSONRPCMessage[] = [];
  const transport = new HttpSseTransport(
    { name: "old", url },
    {
      upstream: "old",
      log: silentLogger,
      settings: { ...DEFAULT_UPSTREAM_SETTINGS, handshakeTimeout: 200 },
      sink: { message: (m) => messages.push(m), requestFailed: () => {}, closed: () => {} },
    },
  );
  cleanups.push(() => transport.close());
  return { url, transport, posts, streams, messages };
}

describe("HTTP+SSE transport", () => {
  it("is never chosen for a URL by itself", () => {
    expect(httpSseTransport.accepts({ name: "x", url: "http://127.0.0.1/sse" })).toBe(false);
  });

  it("resolves a relative endpoint against the stream and POSTs there", async () => {
    const s = await serve("event: endpoint\ndata: /messages?sessionId=abc\n\n");
    await s.transport.open();
    expect(s.transport.endpoint).toBe(new URL("/messages?sessionId=abc", s.url).href);
    await s.transport.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    expect(s.posts).toEqual(['{"jsonrpc":"2.0","id":1,"method":"ping"}']);
    s.streams[0]?.write(
      `event: message\ndata: ${JSON.stringify([{ jsonrpc: "2.0", id: 1, result: {} }])}\n\n`,
    );
    await expect.poll(() => s.messages).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
  });

  it("refuses an endpoint on another origin, naming both", async () => {
    const s = await serve("event: endpoint\ndata: http://127.0.0.2:9/evil\n\n");
    const err = await s.transport.open().catch((e) => e);
    expect(err).toBeInstanceOf(ForeignOriginError);
    expect(err.message).toContain("http://127.0.0.2:9");
    expect(err.message).toContain(new URL(s.url).origin);
    await expect(s.transport.send({ jsonrpc: "2.0", id: 1, method: "ping" })).rejects.toBeInstanceOf(
      ConnectionClosedError,
    );
  });

  it("gives up on a stream without an endpoint event after handshakeTimeout", async () => {
    const s = await serve(": just a comment\n\n");
    const err = await s.transport.open().catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionClosedError);
    expect(err.message).toMatch(/no endpoint event .* within 200 ms/);
  });
});
