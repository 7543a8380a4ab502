/**
 * Shared by the modern-http-* tests: 2026-07-28 scripted servers over Streamable HTTP, the POSTs they
 * received, a decoder of the Base64 sentinel written apart from mcpx's (so a test of the encoding does
 * not check mcpx against itself), and the stand-in newer modern revision for version retry.
 */
import { type JSONObject, MetaKey, type PluginHost } from "@mcpx/core";
import type { HttpRecord, HttpScript } from "@mcpx/testkit";
import { futureRevision, type HttpCase } from "../src/index.js";

export const M = ["2026-07-28"];

export { until } from "../src/index.js";

/** Every POST the scripted server received, in order. */
export function allPosts(script: HttpScript): HttpRecord[] {
  return script.requests.filter((r) => r.httpMethod === "POST");
}

/** The JSON-RPC method of a POST's (single) frame. */
export function methodOf(r: HttpRecord): string | undefined {
  return r.frames[0]?.method;
}

/** The _meta protocol version of a POST's (single) frame. */
export function metaVersionOf(r: HttpRecord): unknown {
  return (r.frames[0]?.params?._meta as JSONObject | undefined)?.[MetaKey.protocolVersion];
}

/** Decodes `=?base64?…?=` the way a server must (written here, not taken from mcpx). */
export function serverDecode(header: string): string {
  const m = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/.exec(header);
  return m ? Buffer.from(m[1] ?? "", "base64").toString("utf8") : header;
}

/** Installs the stand-in revision 2099-01-01, so the probe offers it first and retries with 2026-07-28. */
export async function withFutureRevision(c: HttpCase): Promise<void> {
  await c.host.use({
    name: "future-revision",
    apiVersion: 1,
    apply: (h: PluginHost) => h.registerRevision(futureRevision),
  });
}

/** A tool whose `region` (string) is mirrored into Mcp-Param-Region. */
export const REGION_TOOL = {
  name: "where",
  inputSchema: {
    type: "object",
    properties: { region: { type: "string", "x-mcp-header": "Region" }, query: { type: "string" } },
  },
};

/** The answer mode of the HTTP front: listen streams are SSE (they stay open), the rest JSON. */
export const listenSse = (method: string) => (method === "subscriptions/listen" ? "sse" : "json");
