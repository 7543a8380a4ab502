// `node examples/replicas/start.mjs`: redis-server on a free 127.0.0.1 port, two `mcpx serve`
// replicas on it fronting the bundled example upstream (server-everything over stdio), and a
// round-robin balancer in front; prints the balancer's MCP URL. Ctrl-C stops everything it started.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { startBalancer } from "./balancer.mjs";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const mcpx = here("../../apps/cli/dist/bin.js");
const everything = here("../upstreams/everything.mjs");
const dir = mkdtempSync(path.join(tmpdir(), "mcpx-replicas-"));
const children = [];

async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const listening = (port) =>
  new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

async function waitFor(port, what) {
  for (let waited = 0; waited < 20_000; waited += 100) {
    if (await listening(port)) return;
    await sleep(100);
  }
  throw new Error(`${what} did not listen on 127.0.0.1:${port}`);
}

function start(command, args, name) {
  const child = spawn(command, args, { stdio: ["ignore", "ignore", "inherit"] });
  child.on("error", (err) => {
    console.error(
      `${name}: ${err.message}${command === "redis-server" ? " (install it: apt-get install redis-server)" : ""}`,
    );
    stop(1);
  });
  children.push(child);
  return child;
}

let stopping = false;
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  // Only what this script started, by pid.
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  balancer?.close();
  balancer?.closeAllConnections();
  setTimeout(() => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(code);
  }, 500).unref();
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

let balancer;
const redisPort = await freePort();
start(
  "redis-server",
  ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
  "redis-server",
);
await waitFor(redisPort, "redis-server");

const replicas = [];
for (const id of ["a", "b"]) {
  const port = await freePort();
  const config = {
    listen: { host: "127.0.0.1", port },
    replica: { id: `replica-${id}` },
    store: { type: "redis", url: `redis://127.0.0.1:${redisPort}` },
    servers: { everything: { command: process.execPath, args: [everything, "stdio"] } },
    stateDir: path.join(dir, `state-${id}`),
    console: false,
  };
  const file = path.join(dir, `mcpx-${id}.json`);
  writeFileSync(file, JSON.stringify(config, null, 2));
  start(process.execPath, [mcpx, "serve", "--config", file], `replica ${id}`);
  replicas.push(port);
}
for (const port of replicas) await waitFor(port, "mcpx serve");
balancer = await startBalancer(
  0,
  replicas.map((p) => `http://127.0.0.1:${p}`),
);
console.log(`mcpx replicas at http://127.0.0.1:${balancer.address().port}/mcp`);
