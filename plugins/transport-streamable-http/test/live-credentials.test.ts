/**
 * Credentials and the upstream's 401/403: a static scheme's headers go as they are and a refusal is
 * an HttpStatusError after one POST (nothing asks anyone); live credentials (core LiveCredentials,
 * OAuth's) are asked for headers, told of the refusal as data, and the POST goes again once per
 * renewal, at most AUTH_CHALLENGE_LIMIT times.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  AUTH_CHALLENGE_LIMIT,
  type AuthChallenge,
  DEFAULT_UPSTREAM_SETTINGS,
  HttpStatusError,
  type JSONRPCMessage,
  type LiveCredentials,
  silentLogger,
  type UpstreamTarget,
} from "@mcpx/core";
import { afterEach, describe, expect, it } from "vitest";
import { StreamableHttpTransport } from "../src/index.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

const CHALLENGE =
  'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource", scope="files:read"';

/** A server that answers 401 (with a body that must never reach the scheme) unless the token is `good`. */
async function upstream() {
  const seen: IncomingMessage["headers"][] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      seen.push(req.headers);
      if (req.headers.authorization !== "Bearer good") {
        res
          .writeHead(401, { "Content-Type": "application/json", "WWW-Authenticate": CHALLENGE })
          .end('{"error":"invalid_token","echo":"body-text"}');
        return;
      }
      const { id } = JSON.parse(body);
      res
        .writeHead(200, { "Content-Type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", id, result: {} }));
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
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return { url, seen };
}

function transportFor(target: UpstreamTarget) {
  const messages: JSONRPCMessage[] = [];
  const transport = new StreamableHttpTransport(target, {
    upstream: target.name,
    log: silentLogger,
    settings: DEFAULT_UPSTREAM_SETTINGS,
    sink: { message: (m) => messages.push(m), requestFailed: () => {}, closed: () => {} },
  });
  cleanups.push(() => transport.close());
  return { transport, messages };
}

/** Live credentials that start with `first` and renew to `next` when challenged (if `renew`). */
function live(first: string, next: string, renew = true) {
  const challenges: AuthChallenge[] = [];
  let token = first;
  const credentials: LiveCredentials = {
    headers: () => ({ Authorization: `Bearer ${token}` }),
    challenged: async (c) => {
      challenges.push(c);
      token = next;
      return renew;
    },
    redact: (text) => text,
  };
  return { credentials, challenges };
}

const ping = { jsonrpc: "2.0" as const, id: 1, method: "ping" };

describe("Streamable HTTP and credentials", () => {
  it("streamable-http/static-credentials-no-challenge-handling", async () => {
    const up = await upstream();
    const { transport } = transportFor({
      name: "up",
      url: up.url,
      headers: { Authorization: "Bearer stale" },
    });
    const err = await transport.send(ping).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpStatusError);
    expect((err as HttpStatusError).status).toBe(401);
    // One POST, with the configured header: a static scheme is not asked anything.
    expect(up.seen.map((h) => h.authorization)).toEqual(["Bearer stale"]);
  });

  it("streamable-http/live-credentials-renewed-on-challenge", async () => {
    const up = await upstream();
    const { credentials, challenges } = live("stale", "good");
    const { transport, messages } = transportFor({
      name: "up",
      url: up.url,
      headers: { authorization: "Bearer configured", "X-Static": "1" },
      auth: credentials,
    });
    await transport.send(ping);
    expect(messages).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
    // The live header replaced the static one of the same name; the others stayed.
    expect(up.seen.map((h) => [h.authorization, h["x-static"]])).toEqual([
      ["Bearer stale", "1"],
      ["Bearer good", "1"],
    ]);
    // The refusal as data: status, challenge, URL, attempt, what was sent; never the body.
    expect(challenges).toEqual([
      { status: 401, wwwAuthenticate: CHALLENGE, url: up.url, attempt: 0, authorization: "Bearer stale" },
    ]);
    expect(JSON.stringify(challenges)).not.toContain("body-text");
  });

  it("streamable-http/live-credentials-refusal-stands-when-not-renewed", async () => {
    const up = await upstream();
    const { credentials, challenges } = live("stale", "stale", false);
    const { transport } = transportFor({ name: "up", url: up.url, auth: credentials });
    const err = await transport.send(ping).catch((e: unknown) => e);
    expect((err as HttpStatusError).status).toBe(401);
    expect(up.seen).toHaveLength(1);
    expect(challenges).toHaveLength(1);
  });

  it("streamable-http/live-credentials-retry-limited", async () => {
    const up = await upstream();
    // Renews every time, to a token the server never takes.
    const { credentials, challenges } = live("stale", "still-bad");
    const { transport } = transportFor({ name: "up", url: up.url, auth: credentials });
    const err = await transport.send(ping).catch((e: unknown) => e);
    expect((err as HttpStatusError).status).toBe(401);
    expect(up.seen).toHaveLength(AUTH_CHALLENGE_LIMIT + 1);
    expect(challenges.map((c) => c.attempt)).toEqual([0, 1, 2]);
  });

  it("streamable-http/live-credentials-error-ends-the-send", async () => {
    const up = await upstream();
    const credentials: LiveCredentials = {
      headers: () => ({}),
      challenged: async () => {
        throw new Error("upstream up needs a login");
      },
      redact: (text) => text,
    };
    const { transport } = transportFor({ name: "up", url: up.url, auth: credentials });
    await expect(transport.send(ping)).rejects.toThrow("upstream up needs a login");
    expect(up.seen).toHaveLength(1);
  });
});
