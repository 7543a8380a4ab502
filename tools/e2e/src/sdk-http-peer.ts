/**
 * The official TypeScript SDK (v1) as an HTTP server in the test process, on 127.0.0.1:0: Streamable
 * HTTP stateful (a session per initialize) or stateless (a server per request, GET and DELETE 405),
 * or the 2024-11-05 HTTP+SSE transport. Its tools: echo, and ask_name, which asks the client's name
 * with server.request() from inside the tool handler (so over Streamable HTTP on the GET stream).
 * Not exported from the index: only the real-peer tests load the SDK.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

export type SdkMode = "stateful" | "stateless" | "sse";

export interface SdkPeer {
  url: string;
  close(): Promise<void>;
}

function sdkServer(): McpServer {
  const server = new McpServer(
    { name: "sdk-http-fixture", version: "1.0.0" },
    { capabilities: { logging: {} } },
  );
  server.registerTool(
    "echo",
    { description: "Echoes its text", inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: "text", text: `echo: ${text}` }] }),
  );
  server.registerTool(
    "ask_name",
    { description: "Asks the client for a name (elicitation), then greets", inputSchema: {} },
    async () => {
      const answer = await server.server.elicitInput({
        message: "What is your name?",
        requestedSchema: { type: "object", properties: { name: { type: "string", default: "stranger" } } },
      });
      const name = answer.action === "accept" ? answer.content?.name : `(${answer.action})`;
      return { content: [{ type: "text", text: `hello ${String(name)}` }] };
    },
  );
  server.registerResource("readme", "file:///readme.txt", { mimeType: "text/plain" }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/plain", text: "read me" }],
  }));
  return server;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text ? JSON.parse(text) : undefined;
}

export async function startSdkPeer(mode: SdkMode): Promise<SdkPeer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const sse = new Map<string, SSEServerTransport>();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (mode === "sse") {
      if (req.method === "GET" && url.pathname === "/sse") {
        const transport = new SSEServerTransport("/messages", res);
        sse.set(transport.sessionId, transport);
        res.on("close", () => sse.delete(transport.sessionId));
        await sdkServer().connect(transport);
        return;
      }
      const transport = sse.get(url.searchParams.get("sessionId") ?? "");
      if (req.method === "POST" && url.pathname === "/messages" && transport) {
        return transport.handlePostMessage(req, res, await readBody(req));
      }
      return void res.writeHead(404).end();
    }
    if (url.pathname !== "/mcp") return void res.writeHead(404).end();
    if (mode === "stateless") {
      if (req.method !== "POST") return void res.writeHead(405).end();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      const server = sdkServer();
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      return transport.handleRequest(req, res, await readBody(req));
    }
    const body = req.method === "POST" ? await readBody(req) : undefined;
    const sid = req.headers["mcp-session-id"];
    let transport = typeof sid === "string" ? sessions.get(sid) : undefined;
    if (!transport) {
      if (typeof sid === "string") return void res.writeHead(404).end();
      if (req.method !== "POST" || !isInitializeRequest(body)) {
        return void res.writeHead(400, { "Content-Type": "application/json" }).end(
          JSON.stringify({
            jsonrpc: "2.0",
            id: null,
            error: { code: -32000, message: "Bad Request: no session" },
          }),
        );
      }
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, created),
      });
      created.onclose = () => {
        if (created.sessionId) sessions.delete(created.sessionId);
      };
      await sdkServer().connect(created);
      transport = created;
    }
    return transport.handleRequest(req, res, body);
  };
  const http = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      if (!res.headersSent) res.writeHead(500).end(err.message);
    });
  });
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
  const port = (http.address() as AddressInfo).port;
  return {
    url: mode === "sse" ? `http://127.0.0.1:${port}/sse` : `http://127.0.0.1:${port}/mcp`,
    async close() {
      for (const t of sessions.values()) await t.close().catch(() => {});
      for (const t of sse.values()) await t.close().catch(() => {});
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}
