/**
 * A round-robin load balancer for replica tests: each request goes to the next target in strict
 * alternation, with no session affinity, body and answer streamed (SSE included). 127.0.0.1 only.
 */
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

export interface Balancer {
  /** The balancer's origin, e.g. http://127.0.0.1:40123 (append the MCP path). */
  url: string;
  /** Requests sent to each target, in the order of `targets`. */
  readonly hits: number[];
  /** The target the next request goes to (an index into `targets`). */
  next: number;
  /** Targets out of the rotation (as a health check would take out a dead one), by index. */
  readonly down: Set<number>;
  close(): Promise<void>;
}

/** Targets are origins (http://127.0.0.1:port); a target that refuses the connection is 502. */
export async function startBalancer(targets: string[]): Promise<Balancer> {
  const hits = targets.map(() => 0);
  const balancer: Balancer = { url: "", hits, next: 0, down: new Set(), close: async () => {} };
  const server = createServer((req, res) => {
    let i = balancer.next;
    for (let n = 0; n < targets.length && balancer.down.has(i); n++) i = (i + 1) % targets.length;
    balancer.next = (i + 1) % targets.length;
    hits[i] = (hits[i] ?? 0) + 1;
    const headers = { ...req.headers };
    delete headers.connection;
    const out = request(new URL(req.url ?? "/", targets[i]), { method: req.method, headers }, (answer) => {
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
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  balancer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  balancer.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return balancer;
}
