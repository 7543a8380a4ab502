import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { ForeignOriginError, HttpStatusError } from "@mcpx/core";
import { afterEach, describe, expect, it } from "vitest";
import { HttpClient, readSse, readText } from "../src/index.js";

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
    await readSse(answer.body, {
      event: (e) => events.push({ id: e.id, event: e.event, data: e.data }),
      retry: () => {},
      problem: () => {},
    });
    expect(events).toEqual([
      { id: "1", event: undefined, data: '{"a":1}' },
      { id: undefined, event: "endpoint", data: "/messages" },
    ]);
  });
});
