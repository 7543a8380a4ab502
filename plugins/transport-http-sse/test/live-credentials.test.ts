/**
 * Credentials and the upstream's 401: a static scheme's refusal of the SSE GET is an HttpStatusError
 * after one request; live credentials (OAuth's) are told of it and the GET goes again, and so do
 * the POSTs.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type AuthChallenge,
  DEFAULT_UPSTREAM_SETTINGS,
  HttpStatusError,
  type LiveCredentials,
  silentLogger,
  type UpstreamTarget,
} from "@mcpx/core";
import { afterEach, describe, expect, it } from "vitest";
import { HttpSseTransport } from "../src/index.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

/** GET /sse and POSTs answer 401 unless the token is `good`. */
async function serve() {
  const seen: { method: string; authorization: string | undefined }[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    seen.push({ method: req.method ?? "", authorization: req.headers.authorization });
    if (req.headers.authorization !== "Bearer good") {
      res.writeHead(401, { "WWW-Authenticate": 'Bearer scope="sse"' }).end("no");
      return;
    }
    if (req.method === "GET") {
      res.writeHead(200, { "Content-Type": "text/event-stream" }).flushHeaders();
      res.write("event: endpoint\ndata: /messages\n\n");
      return;
    }
    req.resume();
    req.on("end", () => res.writeHead(202).end());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  cleanups.push(
    () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sse`, seen };
}

function transportFor(target: UpstreamTarget) {
  const transport = new HttpSseTransport(target, {
    upstream: target.name,
    log: silentLogger,
    settings: { ...DEFAULT_UPSTREAM_SETTINGS, handshakeTimeout: 2000 },
    sink: { message: () => {}, requestFailed: () => {}, closed: () => {} },
  });
  cleanups.push(() => transport.close());
  return transport;
}

describe("HTTP+SSE and credentials", () => {
  it("http-sse/static-credentials-no-challenge-handling", async () => {
    const s = await serve();
    const err = await transportFor({ name: "old", url: s.url, headers: { Authorization: "Bearer stale" } })
      .open()
      .catch((e: unknown) => e);
    expect((err as HttpStatusError).status).toBe(401);
    expect(err).toBeInstanceOf(HttpStatusError);
    expect(s.seen).toEqual([{ method: "GET", authorization: "Bearer stale" }]);
  });

  it("http-sse/live-credentials-renewed-on-challenge", async () => {
    const s = await serve();
    const challenges: AuthChallenge[] = [];
    let token = "stale";
    const auth: LiveCredentials = {
      headers: () => ({ Authorization: `Bearer ${token}` }),
      challenged: async (c) => {
        challenges.push(c);
        token = "good";
        return true;
      },
      redact: (text) => text,
    };
    const transport = transportFor({ name: "old", url: s.url, auth });
    await transport.open();
    await transport.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    expect(s.seen).toEqual([
      { method: "GET", authorization: "Bearer stale" },
      { method: "GET", authorization: "Bearer good" },
      { method: "POST", authorization: "Bearer good" },
    ]);
    expect(challenges).toEqual([
      {
        status: 401,
        wwwAuthenticate: 'Bearer scope="sse"',
        url: s.url,
        attempt: 0,
        authorization: "Bearer stale",
      },
    ]);
  });
});
