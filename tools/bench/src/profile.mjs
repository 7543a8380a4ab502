// Where the time of one call goes: `mcpx serve` (or `mcpx stdio`) in a process of its own under
// `node --cpu-prof`, driven by the bench's light client, then its profile summed by function and by
// package (self time). Also the gateway's own CPU per call (/proc, its process alone, upstream
// excluded): steadier than wall time on a shared machine.
//
//   node tools/bench/src/profile.mjs --era 2026-07-28 --calls 20000 [--top 25] [--no-prof] [--bytes N]
//   node tools/bench/src/profile.mjs --stdio --calls 20000
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import net from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { httpClient, stdioClient } from "./clients.mjs";
import { cpuMs, treeOf } from "./proc-tree.mjs";
import { freePort, mcpxConfig } from "./targets.mjs";

const { values: args } = parseArgs({
  options: {
    era: { type: "string", default: "2026-07-28" },
    stdio: { type: "boolean", default: false },
    calls: { type: "string", default: "20000" },
    warmup: { type: "string", default: "2000" },
    inflight: { type: "string", default: "1" },
    bytes: { type: "string", default: "0" },
    top: { type: "string", default: "25" },
    "no-prof": { type: "boolean", default: false },
    /** A command the gateway runs under, e.g. "strace -c -o /tmp/calls.txt" (its pid is then the wrapper's). */
    wrap: { type: "string", default: "" },
  },
});

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
// MCPX_BIN: another build's bin.js (a checkout before a change), for before/after runs interleaved.
const mcpxBin = process.env.MCPX_BIN ?? here("../../../apps/cli/dist/bin.js");

// The bench's own config of mcpx in front of server-everything; the profile is written beside it.
const { file: config, stateDir } = mcpxConfig();
const dir = dirname(config);

const prof = args["no-prof"] ? [] : ["--cpu-prof", "--cpu-prof-dir", dir];
const port = await freePort();
const cmd = args.stdio
  ? [...prof, mcpxBin, "stdio", "-c", config, "--state-dir", stateDir]
  : [...prof, mcpxBin, "serve", "-c", config, "--port", String(port), "--state-dir", stateDir];
const wrap = args.wrap.split(" ").filter(Boolean);
const child = wrap.length
  ? spawn(wrap[0], [...wrap.slice(1), process.execPath, ...cmd], { stdio: ["pipe", "pipe", "inherit"] })
  : spawn(process.execPath, cmd, { stdio: ["pipe", "pipe", "inherit"] });
let client;
if (args.stdio) client = await stdioClient(child, { tool: "ev__echo" });
else {
  child.stdout.resume();
  for (let i = 0; ; i++) {
    const ok = await new Promise((resolve) => {
      const s = net.connect(port, "127.0.0.1");
      s.once("connect", () => resolve(s.end() && true));
      s.once("error", () => resolve(false));
    });
    if (ok) break;
    if (i > 600) throw new Error("mcpx did not listen");
    await new Promise((r) => setTimeout(r, 50));
  }
  client = await httpClient(`http://127.0.0.1:${port}/mcp`, { era: args.era, tool: "ev__echo" });
}

const message = Number(args.bytes) > 0 ? "x".repeat(Number(args.bytes)) : "hello";
const inflight = Number(args.inflight);
async function run(n) {
  let next = 0;
  await Promise.all(
    Array.from({ length: inflight }, async () => {
      while (next++ < n) await client.call(message, 600_000);
    }),
  );
}
await run(Number(args.warmup));
// The upstreams it spawned too: what the bench's "CPU ms/call (tree)" reads.
const tree = treeOf(child.pid);
const before = cpuMs([child.pid]);
const treeBefore = cpuMs(tree);
const t0 = process.hrtime.bigint();
await run(Number(args.calls));
const t1 = process.hrtime.bigint();
const wallMs = Number(t1 - t0) / 1e6;
const ownMs = cpuMs([child.pid]) - before;
const treeMs = cpuMs(tree) - treeBefore;
const calls = Number(args.calls);
console.log(
  `${args.stdio ? "stdio" : args.era}: ${calls} calls of ${message.length} B, ${(wallMs / calls).toFixed(3)} ms/call wall, gateway CPU ${((ownMs * 1000) / calls).toFixed(1)} µs/call, tree ${((treeMs * 1000) / calls).toFixed(1)} µs/call`,
);
await client.close();
const exited = new Promise((resolve) => child.once("exit", resolve));
if (args.stdio) child.stdin.end();
child.kill("SIGTERM");
await exited;

if (!args["no-prof"]) {
  const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
  if (!file) throw new Error("no .cpuprofile written");
  // V8's sample times and hrtime are both the monotonic clock: only the measured calls are summed.
  summarise(JSON.parse(readFileSync(join(dir, file), "utf8")), Number(args.top), t0 / 1000n, t1 / 1000n);
  console.log(`profile: ${join(dir, file)}`);
}

/**
 * Self time by function and by package, in % of the busy samples (idle left out) taken between
 * `from` and `to` (µs, monotonic).
 */
function summarise(profile, top, from, to) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const deltas = profile.timeDeltas;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += deltas[i] ?? 0;
    if (at < from || at > to) return;
    if (byId.get(id).callFrame.functionName === "(idle)") return;
    self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byFn = new Map();
  const byPkg = new Map();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const key = `${functionName || "(anonymous)"} ${shortUrl(url)}:${lineNumber + 1}`;
    byFn.set(key, (byFn.get(key) ?? 0) + us);
    const pkg = packageOf(url, functionName);
    byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + us);
  }
  const show = (m, n) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .forEach(([k, us]) => {
        console.log(`${((us / total) * 100).toFixed(1).padStart(6)} %  ${k}`);
      });
  console.log(
    `\nby package (self time, ${(total / 1e6).toFixed(1)} s busy in the measured calls, idle left out)`,
  );
  show(byPkg, 20);
  console.log("\nby function (self time)");
  show(byFn, top);
}

function shortUrl(url) {
  if (!url) return "";
  const m = /\/(packages|plugins|apps)\/([^/]+)\/dist\/(.*)$/.exec(url);
  if (m) return `${m[1]}/${m[2]}/${m[3]}`;
  const nm = url.lastIndexOf("node_modules/");
  return nm >= 0 ? url.slice(nm + 13) : url.replace(/^file:\/\//, "");
}

function packageOf(url, fn) {
  if (!url) return fn.startsWith("(") ? fn : "(native)";
  const m = /\/(packages|plugins|apps)\/([^/]+)\/dist\//.exec(url);
  if (m) return `@mcpx/${m[2]}`;
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith("node:")) return `node:${url.slice(5).split("/")[0]}`;
  return url;
}
