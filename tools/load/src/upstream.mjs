// A small real upstream for the load run: the official SDK (v1) McpServer with two tools, over stdio
// or over Streamable HTTP on 127.0.0.1:<port> (stateful sessions, as most deployed servers are).
//   node upstream.mjs stdio            node upstream.mjs http <port>
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

const [mode, port] = process.argv.slice(2);

function server() {
  const s = new McpServer({ name: `load-${mode}`, version: "1.0.0" });
  s.registerTool(
    "echo",
    { description: "Echoes its text", inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  s.registerTool(
    "sleep",
    { description: "Answers after ms milliseconds", inputSchema: { ms: z.number(), text: z.string() } },
    async ({ ms, text }) => {
      await new Promise((r) => setTimeout(r, ms));
      return { content: [{ type: "text", text }] };
    },
  );
  return s;
}

if (mode === "stdio") {
  await server().connect(new StdioServerTransport());
} else if (mode === "http") {
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
    const id = req.headers["mcp-session-id"];
    let transport = typeof id === "string" ? sessions.get(id) : undefined;
    if (!transport) {
      if (id !== undefined || req.method !== "POST") {
        res.writeHead(404).end();
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (sid) => sessions.set(sid, transport),
      });
      transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
      await server().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  http.listen(Number(port), "127.0.0.1", () => process.stderr.write(`listening ${http.address().port}\n`));
} else {
  process.stderr.write("usage: upstream.mjs stdio | http <port>\n");
  process.exit(2);
}
