// Every path the comparison measures, each started as processes of its own on 127.0.0.1, fronting
// the same @modelcontextprotocol/server-everything over stdio. A target is
// { name, group, pid (root of its process tree), own (the gateway's process, without upstreams), client, stop }.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { httpClient, stdioClient } from "./clients.mjs";

const require = createRequire(import.meta.url);
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const node = process.execPath;
const everything = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");
// server-everything's SDK refuses a stdio line over 10 MiB; the preload lifts that in the upstream
// (the same for every target) so the 16 MiB echo measures the hops in front of it.
const upstream = [node, "--import", here("./lift-stdio-limit.mjs"), everything, "stdio"];
const mcpxBin = here("../../../apps/cli/dist/bin.js");
const mcpProxyBin = join(require.resolve("mcp-proxy/package.json"), "..", "dist/bin/mcp-proxy.mjs");
const supergatewayBin = join(require.resolve("supergateway/package.json"), "..", "dist/index.js");

export async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves once something accepts connections on the port (the peers print nothing reliable). */
async function waitForPort(port, child, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited (${child.exitCode}) before listening`);
    const ok = await new Promise((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => resolve(socket.end() && true));
      socket.once("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`not listening on ${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function start(command, args, opts = {}) {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"], ...opts });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr = (stderr + d).slice(-2000);
  });
  child.stderr.lastLines = () => stderr;
  // A child that dies fails its calls (stdioClient rejects them); its closed stdin must not throw too.
  child.stdin.on("error", () => {});
  return child;
}

const stopper = (child, client) => async () => {
  await client?.close();
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
  await exited;
  clearTimeout(timer);
};

async function overHttp(child, port, path, era, tool) {
  child.stdout.resume(); // its log lines are not read, and must not fill the pipe
  try {
    await waitForPort(port, child);
    const client = await httpClient(`http://127.0.0.1:${port}${path}`, { era, tool });
    return { pid: child.pid, client, stop: stopper(child, client) };
  } catch (e) {
    await stopper(child)();
    throw new Error(`${e.message}; stderr: ${child.stderr.lastLines().trim().slice(-300)}`);
  }
}

export function mcpxConfig(extra = {}) {
  const dir = mkdtempSync(join(tmpdir(), "mcpx-bench-"));
  const file = join(dir, "mcpx.json");
  writeFileSync(
    file,
    JSON.stringify({
      // A body as large as the biggest payload measured (the default is 4 MiB).
      listen: { host: "127.0.0.1", port: 7333, maxBodyBytes: 64 * 2 ** 20 },
      servers: { everything: { command: upstream[0], args: upstream.slice(1), namespace: "ev" } },
      log: { level: "error" },
      ...extra,
    }),
  );
  return { file, stateDir: join(dir, "state") };
}

export const TARGETS = [
  {
    name: "direct (stdio, no gateway)",
    key: "direct",
    async start() {
      const child = start(upstream[0], upstream.slice(1));
      const client = await stdioClient(child, { tool: "echo" });
      return { pid: child.pid, client, stop: stopper(child, client) };
    },
  },
  {
    name: "bare node:http hop (no upstream)",
    key: "hop",
    async start() {
      const child = start(node, [here("./bare-server.mjs"), "hop"]);
      const port = await listeningPort(child);
      return overHttp(child, port, "/mcp", "2025-11-25", "echo");
    },
  },
  {
    name: "bare proxy (node:http → stdio)",
    key: "proxy",
    async start() {
      const child = start(node, [here("./bare-server.mjs"), "proxy", ...upstream]);
      const port = await listeningPort(child);
      return overHttp(child, port, "/mcp", "2025-11-25", "echo");
    },
  },
  ...["2026-07-28", "2025-11-25"].map((era) => ({
    name: `mcpx serve, ${era} client`,
    key: era === "2026-07-28" ? "mcpxModern" : "mcpxLegacy",
    mcpx: true,
    async start() {
      const { file, stateDir } = mcpxConfig();
      const port = await freePort();
      const child = start(node, [
        mcpxBin,
        "serve",
        "-c",
        file,
        "--port",
        String(port),
        "--state-dir",
        stateDir,
      ]);
      return overHttp(child, port, "/mcp", era, "ev__echo");
    },
  })),
  {
    // What telemetry costs on: every call gets its SERVER and CLIENT spans (all sampled, exported
    // nowhere, so the figure is the instrumentation, not a collector) and its metrics (Prometheus
    // reader, pulled by nobody). "Off" is the mcpxModern row.
    name: "mcpx serve (telemetry on), 2026-07-28 client",
    key: "mcpxTelemetry",
    mcpx: true,
    async start() {
      const { file, stateDir } = mcpxConfig({
        telemetry: { enabled: true, traces: { exporter: "none" }, metrics: { exporter: "prometheus" } },
      });
      const port = await freePort();
      const child = start(node, [
        mcpxBin,
        "serve",
        "-c",
        file,
        "--port",
        String(port),
        "--state-dir",
        stateDir,
      ]);
      return overHttp(child, port, "/mcp", "2026-07-28", "ev__echo");
    },
  },
  {
    name: "mcpx stdio, 2025-11-25 client",
    key: "mcpxStdio",
    mcpx: true,
    async start() {
      const { file, stateDir } = mcpxConfig();
      const child = start(node, [mcpxBin, "stdio", "-c", file, "--state-dir", stateDir]);
      const client = await stdioClient(child, { tool: "ev__echo" });
      return { pid: child.pid, client, stop: stopper(child, client) };
    },
  },
  {
    name: "mcp-proxy (stream), 2025-11-25 client",
    key: "mcpProxy",
    peer: true,
    async start() {
      const port = await freePort();
      // Its defaults, but for the address and a body limit as large as the biggest payload (10 MiB).
      const args = [
        "--host",
        "127.0.0.1",
        "--port",
        String(port),
        "--server",
        "stream",
        "--maxBodySize",
        "0",
      ];
      const child = start(node, [mcpProxyBin, ...args, "--", ...upstream]);
      return overHttp(child, port, "/mcp", "2025-11-25", "echo");
    },
  },
  {
    name: "supergateway --stateful, 2025-11-25 client",
    key: "supergateway",
    peer: true,
    async start() {
      const port = await freePort();
      const args = ["--stdio", upstream.join(" "), "--outputTransport", "streamableHttp", "--stateful"];
      const child = start(node, [
        "--require",
        here("./loopback.cjs"),
        supergatewayBin,
        ...args,
        "--port",
        String(port),
        "--logLevel",
        "none",
      ]);
      return overHttp(child, port, "/mcp", "2025-11-25", "echo");
    },
  },
];

/** The port a bare server prints once bound. */
function listeningPort(child) {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (d) => {
      out += d;
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once("exit", (code) => reject(new Error(`exited (${code}) before listening`)));
  });
}
