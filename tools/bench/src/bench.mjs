// What a call through mcpx costs. The same tools/call (server-everything's echo, over stdio) is made
// directly (mcpx's own client, no gateway), through `mcpx serve` by a 2026-07-28 client and a
// 2025-11-25 client over HTTP keep-alive, and through `mcpx stdio`; a bare node:http JSON-RPC hop
// (undici → node:http answering at once) and a bare proxy (node:http → the same stdio upstream, no
// MCP logic) are measured beside them, since DESIGN.md's aim is "no more than 1.4× the bare hop plus
// the upstream" and the bare proxy is the least any HTTP gateway costs. Every path is warmed up first (V8 and the upstream's own
// JIT make the first thousands of calls several times slower), then measured in interleaved rounds
// and reported as the median round, so a burst of load from a neighbour moves one round, not a path.
// Ratios only, never asserted: machines are shared and noisy.
//   node tools/bench/src/bench.mjs [--calls 5000] [--rounds 5] [--warmup 3000] [--only modern] [--json]
import { spawn } from "node:child_process";
import http from "node:http";
import { createRequire } from "node:module";
import { PassThrough } from "node:stream";
import { UpstreamClient } from "@mcpx/client";
import { DEFAULT_UPSTREAM_SETTINGS, silentLogger } from "@mcpx/core";
import { loadBuiltinPlugins } from "@mcpx/daemon";
import { Gateway, StdioServer, startHttpServer } from "@mcpx/gateway";
import { createHost } from "@mcpx/host";
import { Agent, request } from "undici";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : args[i + 1];
};
const CALLS = Number(option("calls", 5000));
const ROUNDS = Number(option("rounds", 5));
const WARMUP = Number(option("warmup", 3000));
// --only modern|legacy|stdio measures one gateway path (and the baselines), for profiling it alone.
const ONLY = option("only", undefined);

const everything = createRequire(import.meta.url).resolve(
  "@modelcontextprotocol/server-everything/dist/index.js",
);
const target = { name: "everything", command: process.execPath, args: [everything, "stdio"] };
const echo = (i) => ({ name: "echo", arguments: { message: `m${i}` } });
/** The same call under the gateway's namespace for this upstream ("ev"). */
const namespacedEcho = (i) => ({ ...echo(i), name: "ev__echo" });

async function host() {
  const h = createHost({ log: silentLogger });
  for (const p of await loadBuiltinPlugins()) await h.use(p);
  return h;
}

/** One round: `CALLS` sequential calls; wall time and this process's CPU (user, system) per call. */
async function round(call) {
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) await call(i);
  const wall = Number(process.hrtime.bigint() - t0) / 1e6 / CALLS;
  const c = process.cpuUsage(cpu0);
  return { wall, user: c.user / 1000 / CALLS, system: c.system / 1000 / CALLS };
}

/** The direct connection every ratio is taken against: mcpx's client, no gateway. */
async function direct() {
  const client = await UpstreamClient.connect({
    target,
    env: await host(),
    settings: DEFAULT_UPSTREAM_SETTINGS,
  });
  return {
    name: "direct (mcpx client → stdio)",
    call: (i) => client.callTool("echo", echo(i).arguments),
    close: () => client.close(),
  };
}

/** A bare node:http JSON-RPC hop: undici keep-alive → node:http answering at once, no upstream. */
async function bareHop(answer) {
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", async () => {
      const msg = JSON.parse(body);
      const result = answer
        ? await answer(msg)
        : { content: [{ type: "text", text: `Echo: ${msg.params.arguments.message}` }] };
      const text = JSON.stringify({ jsonrpc: "2.0", id: msg.id, result });
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
      res.end(text);
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}/mcp`;
  const agent = new Agent({ connections: 1, keepAliveTimeout: 10_000 });
  return {
    name: "bare node:http hop (no upstream)",
    call: async (i) => {
      const res = await request(url, {
        method: "POST",
        dispatcher: agent,
        body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: echo(i) }),
        headers: { "content-type": "application/json" },
      });
      await res.body.text();
    },
    close: async () => {
      await agent.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * The least any HTTP gateway can do: node:http → the same stdio upstream, bytes passed with no MCP
 * logic (no namespaces, no checks, no revision). The floor mcpx's HTTP paths are read against.
 */
async function bareProxy() {
  const child = spawn(target.command, target.args, { stdio: ["pipe", "pipe", "ignore"] });
  const waiting = new Map();
  let buffer = "";
  let nextId = 1;
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    buffer += chunk;
    for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
      const msg = JSON.parse(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
      waiting.get(msg.id)?.(msg);
      waiting.delete(msg.id);
    }
  });
  const upstream = (method, params) =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  await upstream("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "bench", version: "1" },
  });
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  const hop = await bareHop(async (msg) => (await upstream(msg.method, msg.params)).result);
  return {
    ...hop,
    name: "bare proxy: node:http → stdio (no MCP logic)",
    overHttp: true,
    close: async () => {
      await hop.close();
      child.kill();
    },
  };
}

async function gateway() {
  const h = await host();
  const server = {
    kind: "command",
    name: "everything",
    namespace: "ev",
    namespacing: true,
    disabled: false,
    command: target.command,
    args: target.args,
    env: {},
    tools: {},
    settings: DEFAULT_UPSTREAM_SETTINGS,
  };
  const g = new Gateway({
    servers: [server],
    env: h,
    handlers: { elicitation: [], sampling: [], roots: () => [] },
    reconnect: false,
  });
  g.start();
  await g.pool.settled();
  return g;
}

async function throughHttp(g, modern) {
  const server = await startHttpServer(g, { port: 0 });
  const agent = new Agent({ connections: 1, keepAliveTimeout: 10_000 });
  const post = async (body, headers) => {
    const res = await request(server.url, {
      method: "POST",
      dispatcher: agent,
      body: JSON.stringify(body),
      headers,
    });
    const text = await res.body.text();
    return { headers: res.headers, text };
  };
  let headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
  };
  if (!modern) {
    const init = await post(
      {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "bench", version: "1" },
        },
      },
      headers,
    );
    headers = {
      ...headers,
      "mcp-session-id": String(init.headers["mcp-session-id"]),
      "mcp-protocol-version": "2025-11-25",
    };
    await post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers);
  }
  const modernHeaders = {
    ...headers,
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": "ev__echo",
  };
  return {
    name: modern ? "mcpx serve, 2026-07-28 client (HTTP)" : "mcpx serve, 2025-11-25 client (HTTP)",
    overHttp: true,
    call: modern
      ? (i) =>
          post(
            {
              jsonrpc: "2.0",
              id: i + 1,
              method: "tools/call",
              params: { ...namespacedEcho(i), _meta: meta },
            },
            modernHeaders,
          )
      : (i) => post({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: namespacedEcho(i) }, headers),
    close: async () => {
      await agent.close();
      await server.close();
    },
  };
}

async function throughStdio(g) {
  const input = new PassThrough();
  const output = new PassThrough();
  const server = new StdioServer(g, { input, output, log: silentLogger });
  server.start();
  const waiting = new Map();
  let buffer = "";
  output.setEncoding("utf8");
  output.on("data", (chunk) => {
    buffer += chunk;
    let nl = buffer.indexOf("\n");
    while (nl !== -1) {
      const msg = JSON.parse(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
      waiting.get(msg.id)?.(msg);
      nl = buffer.indexOf("\n");
    }
  });
  const call = (msg) =>
    new Promise((resolve) => {
      waiting.set(msg.id, resolve);
      input.write(`${JSON.stringify(msg)}\n`);
    });
  await call({
    jsonrpc: "2.0",
    id: "init",
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
  });
  input.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  return {
    name: "mcpx stdio, 2025-11-25 client (in-process pipe)",
    call: (i) => call({ jsonrpc: "2.0", id: i, method: "tools/call", params: namespacedEcho(i) }),
    close: () => server.close(),
  };
}

const memory = () => {
  const m = process.memoryUsage();
  return { rssMiB: +(m.rss / 2 ** 20).toFixed(1), heapMiB: +(m.heapUsed / 2 ** 20).toFixed(1) };
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const g = await gateway();
const paths = [await direct(), await bareHop(), await bareProxy()];
if (!ONLY || ONLY === "modern") paths.push(await throughHttp(g, true));
if (!ONLY || ONLY === "legacy") paths.push(await throughHttp(g, false));
if (!ONLY || ONLY === "stdio") paths.push(await throughStdio(g));

for (const p of paths) for (let i = 0; i < WARMUP; i++) await p.call(i);
globalThis.gc?.();
const before = memory();
const rounds = paths.map(() => []);
for (let r = 0; r < ROUNDS; r++) {
  for (const [i, p] of paths.entries()) rounds[i].push(await round(p.call));
}
globalThis.gc?.();
const after = memory();
for (const p of paths) await p.close();
await g.stop();

const rows = paths.map((p, i) => ({
  name: p.name,
  overHttp: Boolean(p.overHttp),
  msPerCall: median(rounds[i].map((x) => x.wall)),
  userMsPerCall: median(rounds[i].map((x) => x.user)),
  systemMsPerCall: median(rounds[i].map((x) => x.system)),
}));
const [base, hop, proxy] = rows;
for (const r of rows) {
  r.ratio = +(r.msPerCall / base.msPerCall).toFixed(2);
  if (!r.overHttp) continue;
  // DESIGN.md's aim, for the paths that add an HTTP hop: against the bare hop plus the upstream;
  // and against the bare proxy, the least any HTTP gateway in front of this upstream costs.
  r.ratioToHopPlusUpstream = +(r.msPerCall / (hop.msPerCall + base.msPerCall)).toFixed(2);
  if (r !== proxy) r.ratioToBareProxy = +(r.msPerCall / proxy.msPerCall).toFixed(2);
}
const result = { calls: CALLS, rounds: ROUNDS, warmup: WARMUP, rows, memory: { before, after } };
if (args.includes("--json")) {
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} else {
  const ms = (x) => x.toFixed(3).padStart(6);
  process.stdout.write(
    `median of ${ROUNDS} interleaved rounds of ${CALLS} sequential tools/call (after ${WARMUP} to warm up)\n`,
  );
  process.stdout.write(
    `${"path".padEnd(50)} ${"ms/call".padStart(7)}  ${"CPU user+sys".padStart(14)}  ×direct  ×(hop+upstream)  ×bare proxy\n`,
  );
  for (const r of rows) {
    process.stdout.write(
      `${r.name.padEnd(50)} ${ms(r.msPerCall)}   ${ms(r.userMsPerCall)}+${ms(r.systemMsPerCall).trim().padEnd(6)}  ${`×${r.ratio}`.padEnd(7)}  ${(r.ratioToHopPlusUpstream ? `×${r.ratioToHopPlusUpstream}` : "").padEnd(15)}  ${r.ratioToBareProxy ? `×${r.ratioToBareProxy}` : ""}\n`,
    );
  }
  process.stdout.write(
    `memory of the process holding the gateway (after GC when run with --expose-gc): before ${JSON.stringify(before)}, after ${JSON.stringify(after)}\n`,
  );
}
