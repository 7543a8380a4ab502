/**
 * What mcpx's /mcp answers to requests the official conformance suite's server leg sends: a
 * 2026-07-28 request is recognised by its MCP-Protocol-Version header even when its _meta is
 * missing (and refused as one, -32602), the version header is compared with _meta before the
 * version is judged (-32020 before -32022), initialize is a method 2026-07-28 does not have
 * (-32601, HTTP 404), and a legacy client that prefers SSE gets a primed stream with a retry delay.
 */
import { type JSONObject, MetaKey } from "@mcpx/core";
import { describe, expect, it } from "vitest";
import {
  echo,
  httpGateway,
  legacySession,
  MODERN,
  mirrored,
  modernBody,
  post,
  sseReader,
} from "./gateway-http.helpers.js";

type ErrorBody = { id?: unknown; error: { code: number; message: string } };

describe("gateway over HTTP: refusals and stream choices", () => {
  it("downstream/modern-meta-missing-is-32602", async () => {
    const { url, gateway } = await httpGateway([{ name: "a", versions: ["2025-06-18"], tools: [echo] }]);
    // no _meta at all, and _meta without its protocol version: 2026-07-28 requests by their header
    for (const [id, params] of [
      [101, {}],
      [102, { _meta: { [MetaKey.clientCapabilities]: {} } }],
    ] as const) {
      const res = await post(
        url,
        { jsonrpc: "2.0", id, method: "server/discover", params },
        mirrored("server/discover"),
      );
      expect(res.status).toBe(400);
      const body = (await res.json()) as ErrorBody;
      expect(body.id).toBe(id);
      expect(body.error.code).toBe(-32602);
      expect(body.error.message).toContain(MetaKey.protocolVersion);
    }
    // no session was opened for them
    expect(gateway.peers).toEqual([]);
    // without the header (and without _meta), a request is still a legacy one missing its session
    const plain = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const legacy = await post(url, { jsonrpc: "2.0", id: 5, method: "tools/list" }, plain);
    expect(legacy.status).toBe(400);
    expect(((await legacy.json()) as ErrorBody).error.code).toBe(-32600);
  });

  it("downstream/modern-version-header-mismatch-before-support", async () => {
    const { url } = await httpGateway([{ name: "a", versions: ["2025-06-18"], tools: [echo] }]);
    const body = modernBody("server/discover", { _meta: { [MetaKey.protocolVersion]: "v999.0.0" } });
    // header and body disagree: a mismatch, whatever the versions
    const mismatch = await post(url, body, mirrored("server/discover"));
    expect(mismatch.status).toBe(400);
    expect(((await mismatch.json()) as ErrorBody).error).toMatchObject({ code: -32020 });
    // header and body agree on a version mcpx does not serve: unsupported
    const unsupported = await post(url, body, {
      ...mirrored("server/discover"),
      "mcp-protocol-version": "v999.0.0",
    });
    expect(unsupported.status).toBe(400);
    expect(((await unsupported.json()) as ErrorBody).error).toMatchObject({ code: -32022 });
  });

  it("downstream/modern-initialize-404", async () => {
    const { url, gateway } = await httpGateway([{ name: "a", versions: ["2025-06-18"], tools: [echo] }]);
    const res = await post(url, modernBody("initialize", {}, 500), mirrored("initialize"));
    expect(res.status).toBe(404);
    expect(res.headers.get("mcp-session-id")).toBeNull();
    const body = (await res.json()) as ErrorBody;
    expect(body).toMatchObject({ id: 500, error: { code: -32601 } });
    expect(gateway.peers).toEqual([]);
    // a legacy initialize (no 2026-07-28 header, no _meta) still opens a session
    const s = await legacySession(url, "2025-11-25");
    expect(s.sessionId).toBeTruthy();
    expect(MODERN).toBe("2026-07-28");
  });

  it("downstream/legacy-sse-when-preferred-primed-with-retry", async () => {
    const { url } = await httpGateway([{ name: "a", versions: ["2025-06-18"], tools: [echo] }]);
    const s = await legacySession(url, "2025-11-25");
    const call = (id: number, accept: string) =>
      post(
        url,
        { jsonrpc: "2.0", id, method: "tools/call", params: { name: "a__echo", arguments: { text: "hi" } } },
        { ...s.headers, accept },
      );
    // both taken, JSON listed first: the cheaper JSON answer
    const json = await call(1, "application/json, text/event-stream");
    expect(json.headers.get("content-type")).toBe("application/json");
    expect(((await json.json()) as JSONObject).id).toBe(1);
    // SSE listed first (or rated higher): a stream, primed with an id, empty data and a retry delay
    for (const [id, accept] of [
      [2, "text/event-stream, application/json"],
      [3, "application/json;q=0.5, text/event-stream"],
    ] as const) {
      const res = await call(id, accept);
      expect(res.headers.get("content-type"), accept).toBe("text/event-stream");
      const sse = sseReader(res);
      const prime = await sse.next();
      expect(prime).toMatchObject({ data: "", retry: "1000" });
      expect(prime?.id).toMatch(/^\d+_\d+$/);
      const answer = await sse.next();
      expect(JSON.parse(answer!.data)).toMatchObject({ id, result: { content: [{ type: "text" }] } });
      expect(await sse.next()).toBeUndefined();
    }
  });
});
