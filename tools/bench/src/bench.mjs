// What a call through mcpx costs. The same tools/call (server-everything's echo, over stdio) is made
// N times directly (mcpx's own client, no gateway) and through `mcpx serve` by a 2026-07-28 client
// and a 2025-11-25 client over HTTP keep-alive, and through `mcpx stdio`. Reported as time and CPU
// per call, and as ratios against the direct connection — never asserted: machines are shared and
// noisy. Memory: the gateway's RSS and heap before and after the run.
//   node tools/bench/src/bench.mjs [--calls 2000] [--json]
import { createRequire } from "node:module";
import { PassThrough } from "node:stream";
import { UpstreamClient } from "@mcpx/client";
import { createHost, DEFAULT_UPSTREAM_SETTINGS, silentLogger } from "@mcpx/core";
import { builtinPlugins } from "@mcpx/daemon";
import { Gateway, StdioServer, startHttpServer } from "@mcpx/gateway";
import { Agent, request } from "undici";

const args = process.argv.slice(2);
const CALLS = Number(args[args.indexOf("--calls") + 1]) || 2000;
const WARMUP = Math.min(200, CALLS);
const everything = createRequire(import.meta.url).resolve(
  "@modelcontextprotocol/server-everything/dist/index.js",
);
const target = { name: "everything", command: process.execPath, args: [everything, "stdio"] };

async function host() {
  const h = createHost({ log: silentLogger });
  for (const p of builtinPlugins) await h.use(p);
  return h;
}

/** Per-call wall time and this process's CPU, over `CALLS` sequential calls after a warm-up. */
async function measure(name, call) {
  for (let i = 0; i < WARMUP; i++) await call(i);
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) await call(i);
  const wall = Number(process.hrtime.bigint() - t0) / 1e6 / CALLS;
  const c = process.cpuUsage(cpu0);
  return { name, msPerCall: wall, cpuMsPerCall: (c.user + c.system) / 1000 / CALLS };
}

async function direct() {
  const client = await UpstreamClient.connect({
    target,
    env: await host(),
    settings: DEFAULT_UPSTREAM_SETTINGS,
  });
  try {
    return await measure("direct (mcpx client → stdio)", (i) =>
      client.callTool("echo", { message: `m${i}` }),
    );
  } finally {
    await client.close();
  }
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
  const http = await startHttpServer(g, { port: 0 });
  const agent = new Agent({ connections: 1, keepAliveTimeout: 10_000 });
  const url = http.url;
  const post = async (body, headers) => {
    const res = await request(url, {
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
  try {
    return await measure(
      modern ? "mcpx serve, 2026-07-28 client (HTTP)" : "mcpx serve, 2025-11-25 client (HTTP)",
      (i) => {
        const params = { name: "ev__echo", arguments: { message: `m${i}` } };
        if (!modern) return post({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params }, headers);
        return post(
          { jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { ...params, _meta: meta } },
          {
            ...headers,
            "mcp-protocol-version": "2026-07-28",
            "mcp-method": "tools/call",
            "mcp-name": "ev__echo",
          },
        );
      },
    );
  } finally {
    await agent.close();
    await http.close();
  }
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
  try {
    return await measure("mcpx stdio, 2025-11-25 client (in-process pipe)", (i) =>
      call({
        jsonrpc: "2.0",
        id: i,
        method: "tools/call",
        params: { name: "ev__echo", arguments: { message: `m${i}` } },
      }),
    );
  } finally {
    await server.close();
  }
}

const memory = () => {
  const m = process.memoryUsage();
  return { rssMiB: +(m.rss / 2 ** 20).toFixed(1), heapMiB: +(m.heapUsed / 2 ** 20).toFixed(1) };
};

// --only modern|legacy|stdio runs one path (and the direct baseline), for profiling it alone.
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : undefined;
const base = await direct();
const g = await gateway();
const before = memory();
const rows = [base];
if (!only || only === "modern") rows.push(await throughHttp(g, true));
if (!only || only === "legacy") rows.push(await throughHttp(g, false));
if (!only || only === "stdio") rows.push(await throughStdio(g));
const after = memory();
await g.stop();
const result = {
  calls: CALLS,
  rows: rows.map((r) => ({ ...r, ratio: +(r.msPerCall / base.msPerCall).toFixed(2) })),
  memory: { before, after },
};
if (args.includes("--json")) {
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} else {
  process.stdout.write(`${CALLS} sequential tools/call each (after ${WARMUP} to warm up)\n`);
  for (const r of result.rows) {
    process.stdout.write(
      `${r.name.padEnd(50)} ${r.msPerCall.toFixed(3).padStart(7)} ms/call  ${r.cpuMsPerCall.toFixed(3).padStart(7)} ms CPU/call  ×${r.ratio}\n`,
    );
  }
  process.stdout.write(
    `memory of the process holding the gateway: before ${JSON.stringify(before)}, after ${JSON.stringify(after)}\n`,
  );
}
