/** mcpx's downstream HTTP server: its security checks (Origin, Host, token, body, media types, bind). */
import { request as httpRequest } from "node:http";
import { createMcpHttpHandler, startHttpServer } from "@mcpx/gateway";
import { describe, expect, it } from "vitest";
import { afterThisTest, scriptedGateway } from "../src/index.js";
import { echo, httpGateway, legacySession, mirrored, modernBody, post } from "./gateway-http.helpers.js";

const list = () => modernBody("tools/list");
const plain = { "content-type": "application/json", accept: "application/json, text/event-stream" };

describe("gateway over HTTP: security", () => {
  it("security/origin-refused", async () => {
    const { url } = await httpGateway([{ name: "a", versions: ["2025-06-18"], tools: [echo] }], {
      allowedOrigins: ["https://app.example.com"],
    });
    const evil = await post(url, list(), { ...mirrored("tools/list"), origin: "http://evil.example:7333" });
    expect(evil.status).toBe(403);
    const body = (await evil.json()) as { error: { code: number; message: string }; id?: unknown };
    expect(body.error.message).toContain("http://evil.example:7333");
    expect(body).not.toHaveProperty("id");
    // a page served from the null origin is refused as well
    expect((await post(url, list(), { ...mirrored("tools/list"), origin: "null" })).status).toBe(403);
    // loopback origins and the configured ones pass
    for (const origin of ["http://localhost:5173", "http://127.0.0.1:9999", "https://app.example.com"]) {
      const ok = await post(url, list(), { ...mirrored("tools/list"), origin });
      expect(ok.status, origin).toBe(200);
    }
  });

  it("security/host-refused", async () => {
    const { base } = await httpGateway([{ name: "a", versions: ["2025-06-18"], tools: [echo] }]);
    const { port } = new URL(base);
    // DNS rebinding: a page at evil.example, resolved to 127.0.0.1, sends Host: evil.example
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port,
          path: "/mcp",
          method: "POST",
          headers: { ...plain, host: "evil.example" },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify(list()));
    });
    expect(status).toBe(403);
  });

  it("security/bearer-token", async () => {
    const { url, gateway } = await httpGateway([{ name: "a", versions: ["2025-06-18"], tools: [echo] }], {
      token: "s3cret-token",
    });
    const none = await post(url, list(), mirrored("tools/list"));
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(((await none.json()) as { error: { message: string } }).error.message).toContain("Bearer");
    const wrong = await post(url, list(), { ...mirrored("tools/list"), authorization: "Bearer nope" });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toContain("invalid_token");
    const ok = await post(url, list(), { ...mirrored("tools/list"), authorization: "Bearer s3cret-token" });
    expect(ok.status).toBe(200);
    // a legacy session's authorization context is derived from its credentials, never the token itself
    const init = await post(
      url,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {} },
      },
      { ...plain, authorization: "Bearer s3cret-token" },
    );
    expect(init.status).toBe(200);
    const peer = gateway.peers.at(-1)!;
    expect(peer.authContext).toMatch(/^bearer:[0-9a-f]{32}$/);
    expect(peer.authContext).not.toContain("s3cret");
  });

  it("security/body-size", async () => {
    const { url } = await httpGateway([{ name: "a", versions: ["2025-06-18"], tools: [echo] }], {
      maxBodyBytes: 1024,
    });
    const big = modernBody("tools/call", { name: "a__echo", arguments: { text: "x".repeat(4000) } });
    const res = await post(url, big, mirrored("tools/call", "a__echo"));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("1024");
    // a chunked body (no Content-Length) is cut off as soon as it passes the limit
    const chunks = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 8; i++) c.enqueue(new TextEncoder().encode("x".repeat(512)));
        c.close();
      },
    });
    const streamed = await fetch(url, {
      method: "POST",
      headers: mirrored("tools/list"),
      body: chunks,
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    // and the server still answers
    expect((await post(url, list(), mirrored("tools/list"))).status).toBe(200);
  });

  it("security/bad-json", async () => {
    const { url } = await httpGateway([{ name: "a", versions: ["2025-06-18"], tools: [echo] }]);
    const parse = await post(url, "{not json", mirrored("tools/list"));
    expect(parse.status).toBe(400);
    expect(((await parse.json()) as { error: { code: number } }).error.code).toBe(-32700);
    const notRpc = await post(url, { hello: "world" }, mirrored("tools/list"));
    expect(notRpc.status).toBe(400);
    const err = ((await notRpc.json()) as { error: { code: number; message: string } }).error;
    expect(err.code).toBe(-32600);
    expect(err.message).toContain('"jsonrpc" must be "2.0"');
    const badParams = await post(url, { jsonrpc: "2.0", id: 1, method: "tools/list", params: [1] }, plain);
    expect(badParams.status).toBe(400);
    expect(((await badParams.json()) as { error: { message: string } }).error.message).toContain('"params"');
  });

  it("security/content-type-and-accept", async () => {
    const { url } = await httpGateway([{ name: "a", versions: ["2025-06-18"], tools: [echo] }]);
    const text = await post(url, list(), { ...mirrored("tools/list"), "content-type": "text/plain" });
    expect(text.status).toBe(415);
    const html = await post(url, list(), { ...mirrored("tools/list"), accept: "text/html" });
    expect(html.status).toBe(406);
    // GET (a legacy session's stream) must take text/event-stream
    const s = await legacySession(url, "2025-11-25");
    const getJson = await fetch(url, { headers: { ...s.headers, accept: "application/json" } });
    expect(getJson.status).toBe(406);
  });

  it("security/loopback-only-by-default", async () => {
    const { gateway } = await scriptedGateway([]);
    await expect(startHttpServer(gateway, { host: "0.0.0.0", port: 0 })).rejects.toThrow(/allowNonLoopback/);
  });

  it("downstream/handler-mounts-beside-other-routes", async () => {
    const { gateway } = await scriptedGateway([{ name: "a", versions: ["2025-06-18"], tools: [echo] }]);
    const handler = createMcpHttpHandler(gateway);
    afterThisTest(() => handler.close());
    const http = await startHttpServer(gateway, {
      port: 0,
      extraHandlers: [
        (req, res) => {
          if (req.url !== "/control/status") return false;
          res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
          return true;
        },
      ],
    });
    afterThisTest(() => http.close());
    const base = http.url.replace(/\/mcp$/, "");
    expect(await (await fetch(`${base}/control/status`)).json()).toEqual({ ok: true });
    expect((await fetch(`${base}/elsewhere`)).status).toBe(404);
    expect((await post(http.url, list(), mirrored("tools/list"))).status).toBe(200);
  });
});
