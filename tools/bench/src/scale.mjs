// mcpx at scale (issue 20): `mcpx serve` fronting 100 upstreams of 100 tools each (80 scripted HTTP
// upstreams in one helper process, half 2026-07-28 and half 2025-11-25, and 20 scripted stdio
// children), some slow to answer their handshake; then 1,000 legacy sessions and 1,000 modern
// clients at once. Measured, never asserted.
//   node tools/bench/src/scale.mjs [--quick] [--json <file>] [--http 80] [--stdio 20] [--tools 100]
//     [--slowest 1500] [--sessions 1000] [--modern 1000] [--repeats 5] [--calls 200] [--session-calls 3]
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import os, { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createParser } from "eventsource-parser";
import { Pool } from "undici";
import { machineOf } from "./machine.mjs";
import { cpuMs, treeOf } from "./proc-tree.mjs";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
// MCPX_BIN: another build's bin.js (a snapshot kept while the tree is rebuilt, or a checkout before a change).
const mcpxBin = process.env.MCPX_BIN ?? here("../../../apps/cli/dist/bin.js");
const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";
const CLIENT_INFO = { name: "mcpx-scale", version: "1" };

const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    json: { type: "string" },
    http: { type: "string" },
    stdio: { type: "string" },
    tools: { type: "string" },
    slowest: { type: "string" },
    sessions: { type: "string" },
    modern: { type: "string" },
    repeats: { type: "string" },
    calls: { type: "string" },
    "session-calls": { type: "string" },
    "cpu-prof": { type: "string" },
  },
});
const quick = args.quick;
const num = (v, full, fast) => (v === undefined ? (quick ? fast : full) : Number(v));
const S = {
  http: num(args.http, 80, 8),
  stdio: num(args.stdio, 20, 2),
  tools: num(args.tools, 100, 20),
  slowestMs: num(args.slowest, 1500, 300),
  sessions: num(args.sessions, 1000, 50),
  modernClients: num(args.modern, 1000, 50),
  repeats: num(args.repeats, 5, 2),
  calls: num(args.calls, 200, 20),
  sessionCalls: num(args["session-calls"], 3, 2),
};
const upstreamCount = S.http + S.stdio;

// ---------------------------------------------------------------------------------------------
// Small helpers

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const quantile = (xs, q) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};
const rssMiB = (pid) => {
  try {
    const line = readFileSync(`/proc/${pid}/status`, "utf8")
      .split("\n")
      .find((l) => l.startsWith("VmRSS:"));
    return Number(line.split(/\s+/)[1]) / 1024;
  } catch {
    return Number.NaN;
  }
};

async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs `fn` over `items` with at most `limit` at once. */
async function pooled(items, limit, fn) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

class CallFailed extends Error {
  name = "CallFailed";
}

/** The frame answering `id` in a JSON or SSE body. */
function answerOf(type, text, id) {
  if (!type.includes("event-stream")) return JSON.parse(text);
  let found;
  const parser = createParser({
    onEvent: (e) => {
      if (!e.data) return;
      const msg = JSON.parse(e.data);
      if (msg.id === id) found = msg;
    },
  });
  parser.feed(text);
  if (!found) throw new CallFailed("no answer in the event stream");
  return found;
}

// ---------------------------------------------------------------------------------------------
// The light load client (undici, no SDK): a 2025-11-25 session or a 2026-07-28 stateless client.

function loadClient(origin, connections) {
  const pool = new Pool(origin, { connections, keepAliveTimeout: 60_000, pipelining: 1 });
  const base = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  async function post(body, headers) {
    const res = await pool.request({
      path: "/mcp",
      method: "POST",
      body: JSON.stringify(body),
      headers: { ...base, ...headers },
      signal: AbortSignal.timeout(120_000),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new CallFailed(`HTTP ${res.statusCode}: ${text.slice(0, 160)}`);
    if (body.id === undefined) return { headers: res.headers };
    const msg = answerOf(String(res.headers["content-type"] ?? ""), text, body.id);
    if (msg.error)
      throw new CallFailed(`error ${msg.error.code}: ${String(msg.error.message).slice(0, 160)}`);
    return { headers: res.headers, result: msg.result };
  }
  return {
    pool,
    /** A client of one era: `request(method, params)` resolves with the result. */
    async open(era) {
      let headers = {};
      let meta;
      if (era === MODERN) {
        meta = {
          "io.modelcontextprotocol/protocolVersion": era,
          "io.modelcontextprotocol/clientCapabilities": {},
          "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
        };
        headers = { "mcp-protocol-version": era };
      } else {
        const init = await post({
          jsonrpc: "2.0",
          id: 0,
          method: "initialize",
          params: { protocolVersion: era, capabilities: {}, clientInfo: CLIENT_INFO },
        });
        const session = init.headers["mcp-session-id"];
        if (!session) throw new CallFailed("initialize answered without an Mcp-Session-Id");
        headers = { "mcp-session-id": String(session), "mcp-protocol-version": era };
        await post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers);
      }
      let nextId = 1;
      return {
        request(method, params = {}) {
          const p = meta ? { ...params, _meta: meta } : params;
          const h = meta ? { ...headers, "mcp-method": method } : headers;
          if (meta && method === "tools/call") h["mcp-name"] = params.name;
          return post({ jsonrpc: "2.0", id: nextId++, method, params: p }, h).then((r) => r.result);
        },
      };
    },
    close: () => pool.destroy(),
  };
}

// ---------------------------------------------------------------------------------------------
// Start: the upstreams' helper, then mcpx

const failures = [];
const helper = spawn(process.execPath, [here("./scale-upstreams.mjs"), JSON.stringify(S)], {
  stdio: ["pipe", "pipe", "inherit"],
});
const upstreams = await new Promise((resolve, reject) => {
  let buf = "";
  helper.stdout.on("data", (d) => {
    buf += d;
    const nl = buf.indexOf("\n");
    if (nl !== -1) resolve(JSON.parse(buf.slice(0, nl)));
  });
  helper.once("exit", (code) => reject(new Error(`the upstreams' helper exited (${code})`)));
});

const dir = mkdtempSync(join(tmpdir(), "mcpx-scale-"));
const configFile = join(dir, "mcpx.json");
const port = await freePort();
// Stdio children first, so the 100th upstream in config order is an HTTP one (2025-11-25).
const servers = {};
for (const s of upstreams.stdio) servers[s.name] = { command: s.command, args: s.args };
for (const h of upstreams.http) servers[h.name] = { url: h.url };
// Every load client is 127.0.0.1: the session bounds (max 1000, 100 per client address by
// default) and the connection bound are raised for this run, above what it opens.
const bound = Math.max(1000, S.sessions + 100);
writeFileSync(
  configFile,
  JSON.stringify({
    listen: {
      host: "127.0.0.1",
      port,
      maxConnections: Math.max(1000, 2 * (S.sessions + S.modernClients)),
      sessions: { max: bound, perClient: bound },
    },
    servers,
    log: { level: "error" },
  }),
);
const loadBefore = os.loadavg();
const startedAt = Date.now();
// --cpu-prof <dir>: mcpx writes a V8 CPU profile there when it stops.
const profile = args["cpu-prof"] ? ["--cpu-prof", "--cpu-prof-dir", args["cpu-prof"]] : [];
const mcpx = spawn(
  process.execPath,
  [...profile, mcpxBin, "serve", "-c", configFile, "--port", String(port), "--state-dir", join(dir, "state")],
  { stdio: ["ignore", "ignore", "pipe"] },
);
let mcpxStderr = "";
mcpx.stderr.on("data", (d) => {
  mcpxStderr = (mcpxStderr + d).slice(-4000);
});
const origin = `http://127.0.0.1:${port}`;

async function stopAll() {
  for (const child of [mcpx, helper]) {
    if (child.exitCode !== null) continue;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  }
}

const report = {
  date: new Date().toISOString(),
  command: `node tools/bench/src/scale.mjs ${process.argv.slice(2).join(" ")}`.trim(),
  machine: machineOf(loadBefore, []),

  settings: { ...S, upstreams: upstreamCount, pageSize: undefined },
  ready: {},
  listing: [],
  call: [],
  rss: {},
  sessions: {},
  checks: [],
  failures,
};

try {
  // ---- ready
  const probe = new Pool(origin, { connections: 1 });
  let readyAt;
  for (;;) {
    if (mcpx.exitCode !== null) throw new Error(`mcpx exited (${mcpx.exitCode}): ${mcpxStderr.slice(-500)}`);
    try {
      const res = await probe.request({ path: "/.mcpx/ready", method: "GET" });
      await res.body.text();
      if (res.statusCode === 200) {
        readyAt = Date.now();
        break;
      }
    } catch {
      // not listening yet
    }
    if (Date.now() - startedAt > 120_000) throw new Error("mcpx was not ready within 120 s");
    await sleep(5);
  }
  await probe.close();
  const hs = await (await fetch(`${upstreams.control}/handshakes`)).json();
  report.ready = {
    fromStartMs: readyAt - startedAt,
    afterSlowestMs: readyAt - hs.lastAt,
    handshakesAnswered: hs.answered,
  };
  await sleep(1000);
  report.rss.idleAfterReadyMiB = rssMiB(mcpx.pid);

  // ---- the aggregated paged tools/list, by a client of each era
  const load = loadClient(origin, 64);
  const expected = S.tools * upstreamCount;
  for (const era of [LEGACY, MODERN]) {
    const client = await load.open(era);
    const pageMs = [];
    const totals = [];
    let firstTotalMs;
    let pageSize = 0;
    let pages = 0;
    for (let r = 0; r <= S.repeats; r++) {
      const t0 = performance.now();
      let cursor;
      const names = [];
      pages = 0;
      do {
        const p0 = performance.now();
        const page = await client.request("tools/list", cursor === undefined ? {} : { cursor });
        const ms = performance.now() - p0;
        if (r > 0) pageMs.push(ms); // round 0 is the first listing: it fetches every upstream's list
        pageSize = Math.max(pageSize, page.tools.length);
        for (const t of page.tools) names.push(t.name);
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== undefined);
      const total = performance.now() - t0;
      if (r === 0) firstTotalMs = total;
      else totals.push(total);
      if (names.length !== expected || new Set(names).size !== expected) {
        failures.push(
          `${era} listing ${r}: ${names.length} tools (${new Set(names).size} distinct), not ${expected}`,
        );
      }
    }
    report.listing.push({
      era,
      tools: expected,
      pages,
      pageSize,
      firstListingMs: firstTotalMs,
      pageP50Ms: quantile(pageMs, 0.5),
      pageP99Ms: quantile(pageMs, 0.99),
      totalP50Ms: quantile(totals, 0.5),
    });
  }
  report.rss.afterListingMiB = rssMiB(mcpx.pid);

  // ---- a call routed to the last upstream in config order
  const last = upstreams.http.at(-1);
  const tool = `${last.name}__op_${S.tools - 1}`;
  for (const era of [LEGACY, MODERN]) {
    const client = await load.open(era);
    const ms = [];
    for (let i = 0; i < S.calls + 20; i++) {
      const t0 = performance.now();
      const result = await client.request("tools/call", { name: tool, arguments: { id: `r-${i}` } });
      if (i >= 20) ms.push(performance.now() - t0); // the first 20 warm up
      if (!String(result?.content?.[0]?.text).includes(`r-${i}`)) failures.push(`${era} call ${i}: no echo`);
    }
    report.call.push({
      era,
      tool,
      upstream: upstreamCount,
      p50Ms: quantile(ms, 0.5),
      p99Ms: quantile(ms, 0.99),
    });
  }
  await load.close();

  // ---- sessions at scale: legacy sessions kept open, and modern clients, calling at once
  await sleep(1000);
  const before = rssMiB(mcpx.pid);
  const legacyLoad = loadClient(origin, 256);
  const modernLoad = loadClient(origin, 256);
  let openErrors = 0;
  const t0 = performance.now();
  const sessions = (
    await pooled(Array.from({ length: S.sessions }), 64, () =>
      legacyLoad.open(LEGACY).catch((e) => {
        openErrors++;
        if (failures.length < 50) failures.push(`open a legacy session: ${e.message}`);
      }),
    )
  ).filter(Boolean);
  const openMs = performance.now() - t0;
  await sleep(1000);
  const withSessions = rssMiB(mcpx.pid);
  const modern = await Promise.all(Array.from({ length: S.modernClients }, () => modernLoad.open(MODERN)));
  // Each client calls a tool of its own upstream (spread over all of them), its calls in sequence,
  // every client at once.
  const names = [...upstreams.stdio, ...upstreams.http].map((u) => u.name);
  const callMs = { [LEGACY]: [], [MODERN]: [] };
  let callErrors = 0;
  const drive = async (client, era, k) => {
    for (let i = 0; i < S.sessionCalls; i++) {
      const name = `${names[k % names.length]}__op_${(k + i) % S.tools}`;
      const c0 = performance.now();
      try {
        await client.request("tools/call", { name, arguments: { id: `c-${k}-${i}` } });
        callMs[era].push(performance.now() - c0);
      } catch (e) {
        callErrors++;
        if (failures.length < 50) failures.push(`${era} call under load: ${e.message}`);
      }
    }
  };
  // CPU of each side while the clients call: mcpx's own process, its stdio children, the helper
  // serving every upstream (on two cores, any of them can be what caps the figures).
  const children = treeOf(mcpx.pid).filter((p) => p !== mcpx.pid);
  const cpu0 = [cpuMs([mcpx.pid]), cpuMs(children), cpuMs([helper.pid]), process.cpuUsage()];
  const l0 = performance.now();
  await Promise.all([
    ...sessions.map((c, k) => drive(c, LEGACY, k)),
    ...modern.map((c, k) => drive(c, MODERN, k)),
  ]);
  const loadMs = performance.now() - l0;
  const own = process.cpuUsage(cpu0[3]);
  const cpu = {
    mcpxMs: cpuMs([mcpx.pid]) - cpu0[0],
    stdioChildrenMs: cpuMs(children) - cpu0[1],
    upstreamsHelperMs: cpuMs([helper.pid]) - cpu0[2],
    loadClientMs: (own.user + own.system) / 1000,
  };
  const afterLoad = rssMiB(mcpx.pid);
  const all = [...callMs[LEGACY], ...callMs[MODERN]];
  report.sessions = {
    legacySessions: sessions.length,
    modernClients: modern.length,
    openMs,
    openErrors,
    rssBeforeMiB: before,
    rssWithSessionsMiB: withSessions,
    rssAfterLoadMiB: afterLoad,
    kiBPerSession: ((withSessions - before) * 1024) / Math.max(1, sessions.length),
    calls: all.length,
    callErrors,
    callsPerSecond: all.length / (loadMs / 1000),
    loadMs,
    cpu,
    mcpxCpuMsPerCall: cpu.mcpxMs / Math.max(1, all.length),
    p50Ms: quantile(all, 0.5),
    p99Ms: quantile(all, 0.99),
    legacyP50Ms: quantile(callMs[LEGACY], 0.5),
    legacyP99Ms: quantile(callMs[LEGACY], 0.99),
    modernP50Ms: quantile(callMs[MODERN], 0.5),
    modernP99Ms: quantile(callMs[MODERN], 0.99),
  };
  await legacyLoad.close();
  await modernLoad.close();
} catch (e) {
  failures.push(`run: ${e.message}`);
} finally {
  await stopAll();
}
report.machine.loadavgAfter = os.loadavg().map((x) => +x.toFixed(2));

// ---------------------------------------------------------------------------------------------
// Verdicts and the table

const verdict = (target, path, value, limit, unit) => {
  if (!Number.isFinite(value)) return { target, path, met: false, note: "failed: not measured", unit };
  const met = value <= limit;
  return { target, path, value, unit, met, note: met ? "met" : `missed by ×${(value / limit).toFixed(2)}` };
};
report.checks.push(
  verdict(
    `${upstreamCount} upstreams ready ≤ 2 s after the slowest`,
    "/.mcpx/ready",
    report.ready.afterSlowestMs,
    2000,
    "ms",
  ),
);
for (const l of report.listing) {
  report.checks.push(
    verdict("a page of the aggregate < 50 ms (p50)", `tools/list, ${l.era}`, l.pageP50Ms, 50, "ms"),
  );
  report.checks.push(
    verdict("a page of the aggregate < 50 ms (p99)", `tools/list, ${l.era}`, l.pageP99Ms, 50, "ms"),
  );
}

const f = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : "—");
const out = [];
const m = report.machine;
out.push(
  `${report.date} — ${m.cpus}× ${m.model}, ${m.memoryGiB} GiB, Node ${m.node}, ${m.os}; load average ${m.loadavgBefore.join(" ")} before, ${m.loadavgAfter.join(" ")} after`,
);
out.push(
  `${upstreamCount} upstreams (${S.http} HTTP in one process, half ${MODERN} and half ${LEGACY}; ${S.stdio} stdio children) × ${S.tools} tools; the slowest answers its handshake after ${S.slowestMs} ms; ${S.sessions} legacy sessions + ${S.modernClients} modern clients, ${S.sessionCalls} calls each\n`,
);
out.push("| figure | value |", "| --- | --: |");
const row = (k, v) => out.push(`| ${k} | ${v} |`);
row("ready after the slowest handshake answer, ms", f(report.ready.afterSlowestMs, 0));
row("ready from spawn, ms", f(report.ready.fromStartMs, 0));
for (const l of report.listing) {
  row(`tools/list ${l.era}: tools / pages / page size`, `${l.tools} / ${l.pages} / ${l.pageSize}`);
  row(`tools/list ${l.era}: first listing (fetches every upstream), ms`, f(l.firstListingMs, 0));
  row(`tools/list ${l.era}: page p50 / p99, ms`, `${f(l.pageP50Ms, 2)} / ${f(l.pageP99Ms, 2)}`);
  row(`tools/list ${l.era}: all pages (p50 of ${S.repeats}), ms`, f(l.totalP50Ms, 0));
}
for (const c of report.call)
  row(`call to upstream #${c.upstream} (${c.era}), p50 / p99 ms`, `${f(c.p50Ms, 2)} / ${f(c.p99Ms, 2)}`);
row("mcpx RSS idle after ready, MiB", f(report.rss.idleAfterReadyMiB));
row("mcpx RSS after the listings, MiB", f(report.rss.afterListingMiB));
const s = report.sessions;
row(
  `legacy sessions opened (64 at a time), s`,
  `${s.legacySessions ?? "—"} in ${f((s.openMs ?? Number.NaN) / 1000, 1)}`,
);
row(
  "RSS before / with the sessions / after the load, MiB",
  `${f(s.rssBeforeMiB)} / ${f(s.rssWithSessionsMiB)} / ${f(s.rssAfterLoadMiB)}`,
);
row("memory per legacy session, KiB (RSS delta / sessions)", f(s.kiBPerSession, 1));
row(
  `calls under load (${s.legacySessions ?? 0} + ${s.modernClients ?? 0} clients at once): p50 / p99 ms`,
  `${f(s.p50Ms, 1)} / ${f(s.p99Ms, 1)}`,
);
row(
  "  legacy p50 / p99, modern p50 / p99, ms",
  `${f(s.legacyP50Ms, 1)} / ${f(s.legacyP99Ms, 1)}, ${f(s.modernP50Ms, 1)} / ${f(s.modernP99Ms, 1)}`,
);
row(
  "CPU during the load, s: mcpx / its stdio children / the upstreams' helper / the load client",
  s.cpu
    ? [s.cpu.mcpxMs, s.cpu.stdioChildrenMs, s.cpu.upstreamsHelperMs, s.cpu.loadClientMs]
        .map((x) => f(x / 1000, 1))
        .join(" / ")
    : "—",
);
row("mcpx CPU per call under load, ms", f(s.mcpxCpuMsPerCall, 2));
row(
  "calls / s under load; errors (open + call)",
  `${f(s.callsPerSecond, 0)}; ${(s.openErrors ?? 0) + (s.callErrors ?? 0)}`,
);
out.push("", "| target (issue 20) | path | measured | verdict |", "| --- | --- | --: | --- |");
for (const c of report.checks)
  out.push(`| ${c.target} | ${c.path} | ${f(c.value, 1)} ${c.unit} | ${c.note} |`);
if (failures.length) out.push("", "Failed:", ...failures.map((x) => `- ${x}`));
process.stdout.write(`${out.join("\n")}\n`);
if (args.json) writeFileSync(args.json, `${JSON.stringify(report, null, 2)}\n`);
process.exit(failures.some((x) => x.startsWith("run:")) ? 1 : 0);
