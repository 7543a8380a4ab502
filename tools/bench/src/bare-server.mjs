// The baselines, each in a process of its own so its CPU and memory are read like a gateway's:
//   node bare-server.mjs hop                        node:http answering every JSON-RPC POST at once
//   node bare-server.mjs proxy <command> [args...]  node:http passing each frame to a stdio upstream
//                                                   and its answer back: no MCP logic at all
// Prints "listening <port>" once bound to 127.0.0.1.
import { spawn } from "node:child_process";
import http from "node:http";

const [mode, command, ...commandArgs] = process.argv.slice(2);

let forward;
if (mode === "proxy") {
  const child = spawn(command, commandArgs, { stdio: ["pipe", "pipe", "ignore"] });
  const waiting = new Map();
  // Buffers gathered until a newline, decoded once: a 16 MiB line is not re-scanned per chunk.
  const chunks = [];
  child.stdout.on("data", (chunk) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      chunks.push(chunk.subarray(start, nl));
      const line = Buffer.concat(chunks).toString("utf8");
      chunks.length = 0;
      start = nl + 1;
      const msg = JSON.parse(line);
      waiting.get(msg.id)?.(line);
      waiting.delete(msg.id);
    }
    if (start < chunk.length) chunks.push(chunk.subarray(start));
  });
  let nextId = 1;
  // The client's id is swapped for the proxy's own so concurrent clients cannot collide.
  forward = (msg) =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, (line) => resolve(JSON.parse(line)));
      child.stdin.write(`${JSON.stringify({ ...msg, id })}\n`);
    });
  await forward({
    jsonrpc: "2.0",
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "bare-proxy", version: "1" },
    },
  });
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  process.on("SIGTERM", () => {
    child.kill();
    process.exit(0);
  });
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", async () => {
    const msg = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    // Notifications are taken and a session's handshake answered here: only calls are measured.
    if (msg.id === undefined) return res.writeHead(202).end();
    const result =
      msg.method === "initialize"
        ? {
            protocolVersion: msg.params.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: "bare", version: "1" },
          }
        : forward
          ? (await forward(msg)).result
          : { content: [{ type: "text", text: `Echo: ${msg.params.arguments.message}` }] };
    const text = JSON.stringify({ jsonrpc: "2.0", id: msg.id, result });
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    res.end(text);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.stdout.write(`listening ${server.address().port}\n`));
