/** The HTTP server's pure pieces: Accept, event ids, loopback, the gatekeeper (x-mcp-header paths: revision-2026-07-28). */
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { accepts } from "../src/server/http/body.js";
import { parseEventId, ReplayStream } from "../src/server/http/replay-stream.js";
import { HttpRefusal } from "../src/server/http/reply.js";
import { authContextOf, Gatekeeper, isLoopbackHost } from "../src/server/http/security.js";

function req(headers: Record<string, string>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

function refusal(fn: () => unknown): HttpRefusal {
  try {
    fn();
  } catch (err) {
    if (err instanceof HttpRefusal) return err;
    throw err;
  }
  throw new Error("not refused");
}

describe("http pieces", () => {
  it("accept/what-the-client-takes", () => {
    expect(accepts(undefined)).toEqual({ json: true, sse: true, preferSse: false });
    expect(accepts("application/json, text/event-stream")).toEqual({
      json: true,
      sse: true,
      preferSse: false,
    });
    expect(accepts("text/event-stream")).toEqual({ json: false, sse: true, preferSse: true });
    expect(accepts("application/json;q=0.9")).toEqual({ json: true, sse: false, preferSse: false });
    expect(accepts("*/*")).toEqual({ json: true, sse: true, preferSse: false });
    expect(accepts("text/html, application/json;q=0")).toEqual({ json: false, sse: false, preferSse: false });
  });

  it("accept/the-client-prefers-sse", () => {
    // Listed first at the same q, or rated higher: the client would rather have SSE.
    expect(accepts("text/event-stream, application/json").preferSse).toBe(true);
    expect(accepts("application/json;q=0.5, text/event-stream").preferSse).toBe(true);
    expect(accepts("text/event-stream;q=0.5, application/json").preferSse).toBe(false);
    expect(accepts("*/*, text/event-stream").preferSse).toBe(false);
  });

  it("resumption/event-ids-name-their-stream", () => {
    expect(parseEventId("3_17")).toEqual({ key: "3", seq: 17 });
    expect(parseEventId("0_0")).toEqual({ key: "0", seq: 0 });
    expect(parseEventId("nope")).toBeUndefined();
    expect(parseEventId("3_x")).toBeUndefined();
  });

  it("resumption/replay-buffer-is-bounded", () => {
    const stream = new ReplayStream("1", 3);
    for (let i = 0; i < 10; i++) expect(stream.send({ jsonrpc: "2.0", method: `m${i}` })).toBe(false);
    const written: string[] = [];
    const res = {
      writableEnded: false,
      destroyed: false,
      writeHead() {},
      flushHeaders() {},
      on() {},
      once() {},
      write(text: string) {
        written.push(text);
        return true;
      },
    };
    stream.attach(res as never, { afterSeq: 0 });
    // only the last three were kept
    expect(written.map((t) => /"method":"(m\d)"/.exec(t)?.[1])).toEqual(["m7", "m8", "m9"]);
    expect(written[0]).toContain("id: 1_8\n");
  });

  it("security/loopback-names", () => {
    for (const h of [
      "localhost",
      "127.0.0.1",
      "127.1.2.3",
      "::1",
      "[::1]",
      "app.localhost",
      "::ffff:127.0.0.1",
    ]) {
      expect(isLoopbackHost(h), h).toBe(true);
    }
    for (const h of ["0.0.0.0", "192.168.1.2", "example.com", "localhost.example.com", "128.0.0.1"]) {
      expect(isLoopbackHost(h), h).toBe(false);
    }
  });

  it("security/gatekeeper", () => {
    const gate = new Gatekeeper({ token: "t0ken", allowedOrigins: ["https://app.example.com"] });
    const auth = { authorization: "Bearer t0ken" };
    expect(gate.check(req({ ...auth, host: "127.0.0.1:7333" }))).toBe(authContextOf("Bearer t0ken"));
    expect(gate.check(req({ ...auth, origin: "https://app.example.com", host: "app.example.com" }))).toMatch(
      /^bearer:/,
    );
    expect(refusal(() => gate.check(req({ ...auth, origin: "https://evil.example" }))).status).toBe(403);
    expect(refusal(() => gate.check(req({ ...auth, host: "evil.example:7333" }))).status).toBe(403);
    const missing = refusal(() => gate.check(req({ host: "localhost" })));
    expect(missing.status).toBe(401);
    expect(missing.headers?.["www-authenticate"]).toBe('Bearer realm="mcpx"');
    expect(refusal(() => gate.check(req({ authorization: "Bearer other" }))).status).toBe(401);
    expect(new Gatekeeper({}).check(req({ host: "localhost:1" }))).toBe("anonymous");
    // listening beyond loopback on purpose: any Host, unless a list is given
    expect(new Gatekeeper({ allowNonLoopback: true }).check(req({ host: "10.0.0.5:7333" }))).toBe(
      "anonymous",
    );
    expect(
      refusal(() =>
        new Gatekeeper({ allowNonLoopback: true, allowedHosts: ["mcpx.lan"] }).check(req({ host: "x.lan" })),
      ).status,
    ).toBe(403);
  });
});
