// A round-robin load balancer with no session affinity, on 127.0.0.1: each request goes to the next
// replica in turn, body and answer streamed (SSE included). `node balancer.mjs <port> <origin>...`,
// or imported by start.mjs.
import { createServer, request } from "node:http";
import { fileURLToPath } from "node:url";

/** Listens on 127.0.0.1:port (0: any free port); resolves to the server once it listens. */
export function startBalancer(port, targets) {
  let next = 0;
  const server = createServer((req, res) => {
    const target = targets[next];
    next = (next + 1) % targets.length;
    const headers = { ...req.headers };
    delete headers.connection;
    const out = request(new URL(req.url ?? "/", target), { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      res.flushHeaders();
      answer.pipe(res);
    });
    out.on("error", () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    res.on("close", () => out.destroy());
    req.pipe(out);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [port, ...targets] = process.argv.slice(2);
  if (!port || targets.length === 0) {
    console.error("usage: node balancer.mjs <port> <http://127.0.0.1:PORT>...");
    process.exit(2);
  }
  const server = await startBalancer(Number(port), targets);
  console.log(`balancing http://127.0.0.1:${server.address().port} over ${targets.join(", ")}`);
}
