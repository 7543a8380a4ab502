import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { ConnectionClosedError, ForeignOriginError, FrameTooLargeError, HttpStatusError } from "@mcpx/core";
import { afterEach, describe, expect, it } from "vitest";
import { HttpClient, readBounded, readSse, readText } from "../src/index.js";

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  servers.push({ close: () => server.close() });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("http", () => {
  it("memory/http-client-closed-before-its-first-request-sends-nothing", async () => {
    let connections = 0;
    const server = createServer((_req, res) => res.end("ok"));
    server.on("connection", () => connections++);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    servers.push({ close: () => server.close() });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = new HttpClient("up");
    await client.destroy();
    // The agent is made on the first request; destroyed before one, the client has none to open.
    await expect(client.send("GET", new URL(`${base}/`), {})).rejects.toThrow(ConnectionClosedError);
    await expect(client.send("GET", new URL(`${base}/`), {})).rejects.toThrow(/is closed/);
    expect(connections).toBe(0);
  });

  it("http/same-origin-redirect-followed", async () => {
    const seen: IncomingHttpHeaders[] = [];
    const base = await serve((req, res) => {
      seen.push(req.headers);
      if (req.url === "/old") res.writeHead(307, { location: "/new" }).end();
      else res.writeHead(200, { "content-type": "text/plain" }).end("moved here");
    });
    const client = new HttpClient("up");
    const answer = await client.send("POST", new URL(`${base}/old`), { authorization: "Bearer t" }, "{}");
    expect(answer.status).toBe(200);
    expect(await readText(answer.body)).toBe("moved here");
    expect(seen.map((h) => h.authorization)).toEqual(["Bearer t", "Bearer t"]);
  });

  it("http/foreign-redirect-refused", async () => {
    let foreignHits = 0;
    const foreign = await serve((_req, res) => {
      foreignHits++;
      res.end();
    });
    const base = await serve((_req, res) =>
      res.writeHead(307, { location: `${foreign.replace("127.0.0.1", "localhost")}/x` }).end(),
    );
    const err = await new HttpClient("up")
      .send("POST", new URL(`${base}/mcp`), { authorization: "Bearer t" }, "{}")
      .catch((e) => e);
    expect(err).toBeInstanceOf(ForeignOriginError);
    expect(err.message).toContain("another origin");
    expect(foreignHits).toBe(0);
  });

  it("http/other-redirect-is-an-error", async () => {
    const base = await serve((_req, res) => res.writeHead(302, { location: "/elsewhere" }).end());
    const err = await new HttpClient("up").send("GET", new URL(`${base}/mcp`), {}).catch((e) => e);
    expect(err).toBeInstanceOf(HttpStatusError);
    expect(err.status).toBe(302);
  });

  it("http/sse-events-read", async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end('id: 1\ndata: {"a":1}\n\n: keep-alive\n\nevent: endpoint\ndata: /messages\n\n');
    });
    const answer = await new HttpClient("up").send("GET", new URL(base), {});
    const events: { id?: string; event?: string; data: string }[] = [];
    await readSse(
      answer.body,
      {
        event: (e) => events.push({ id: e.id, event: e.event, data: e.data }),
        retry: () => {},
        problem: () => {},
      },
      { upstream: "up", maxEventBytes: 1024 },
    );
    expect(events).toEqual([
      { id: "1", event: undefined, data: '{"a":1}' },
      { id: undefined, event: "endpoint", data: "/messages" },
    ]);
  });

  it("http/body-read-up-to-the-limit", async () => {
    let sent = 0;
    let streamClosed: () => void = () => {};
    const closed = new Promise<void>((r) => {
      streamClosed = r;
    });
    const base = await serve((req, res) => {
      if (req.url === "/small") return void res.writeHead(200).end('{"a":1}');
      if (req.url === "/declared") {
        res.writeHead(200, { "content-length": String(8 * 1024 * 1024) });
        return void res.write("{");
      }
      // a body without Content-Length that would go on for 64 MiB
      res.writeHead(200);
      let open = true;
      res.on("close", () => {
        open = false;
        streamClosed();
      });
      const piece = Buffer.alloc(64 * 1024, "x");
      const more = () => {
        while (open && sent < 64 * 1024 * 1024) {
          sent += piece.length;
          if (!res.write(piece)) return void res.once("drain", more);
        }
        res.end();
      };
      more();
    });
    const client = new HttpClient("up");
    const streamed = await client.send("GET", new URL(`${base}/streamed`), {});
    const read = await readBounded(streamed.body, 100_000);
    expect(read.cut).toBe(true);
    expect(read.declared).toBeUndefined();
    expect(read.text).toBe("x".repeat(100_000));
    // it stopped reading: the connection went long before the server's 64 MiB
    await closed;
    expect(sent).toBeLessThan(16 * 1024 * 1024);
    // a Content-Length over the limit is refused without reading
    const declared = await client.send("GET", new URL(`${base}/declared`), {});
    expect(await readBounded(declared.body, 1024, "8388608")).toEqual({
      text: "",
      cut: true,
      declared: 8388608,
    });
    // within the limit, the whole body
    const small = await client.send("GET", new URL(`${base}/small`), {});
    expect(await readBounded(small.body, 1024, "7")).toEqual({ text: '{"a":1}', cut: false });
    await client.destroy();
  });

  it("http/error-body-read-only-up-to-a-small-cap", async () => {
    const base = await serve((_req, res) => res.writeHead(500).end("e".repeat(1024 * 1024)));
    const answer = await new HttpClient("up").send("GET", new URL(base), {});
    const text = await readText(answer.body);
    expect(text).toBe("e".repeat(64 * 1024));
  });

  it("http/sse-event-over-the-limit-fails-naming-it", async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write('data: {"small":1}\n\n');
      res.write(`data: ${"x".repeat(4096)}`);
      res.end("\n\n");
    });
    const answer = await new HttpClient("up").send("GET", new URL(base), {});
    const events: string[] = [];
    const err = await readSse(
      answer.body,
      { event: (e) => events.push(e.data), retry: () => {}, problem: () => {} },
      { upstream: "up", maxEventBytes: 1024 },
    ).catch((e) => e);
    expect(events).toEqual(['{"small":1}']);
    expect(err).toBeInstanceOf(FrameTooLargeError);
    expect(err.message).toBe(
      "upstream up sent an SSE event of more than 1 KiB, over upstream.maxFrameBytes (1 KiB); it was dropped",
    );
  });
});
