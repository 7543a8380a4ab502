// The load-and-fault run: `mcpx serve` (the built CLI, in its own process) in front of three real
// upstreams (two stdio children of mcpx's, one Streamable HTTP server of ours), with many concurrent
// clients of both eras (the official SDK v1 over Streamable HTTP and over HTTP+SSE, the v2 client
// speaking 2026-07-28) calling tools while upstreams are killed, stopped and restarted. Loopback only,
// bounded in count and time. It prints one line:
//   load: sent N, answered A, failed cleanly F, lost 0; faults I injected, S survived; daemon RSS x → y MiB
// "failed cleanly" is a JSON-RPC error or an isError result that says what went wrong (an upstream that
// is down or timed out); "lost" is a call with no answer by the deadline, a broken connection, or an
// answer that is not the one asked for. A fault "survived" when its upstream answers again afterwards.
//   node tools/load/src/load.mjs [--long] [--seconds N] [--json]
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const require = createRequire(import.meta.url);
const MCPX_BIN = join(require.resolve("mcpx/package.json"), "..", "dist", "bin.js");
const UPSTREAM = fileURLToPath(new URL("./upstream.mjs", import.meta.url));

/** The short form runs in CI; the long form behind --long. */
export const SHORT = { seconds: 20, legacy: 6, sse: 2, modern: 6, faultEveryMs: 2500, warmupSeconds: 4 };
export const LONG = { seconds: 300, legacy: 30, sse: 8, modern: 30, faultEveryMs: 4000, warmupSeconds: 10 };

/** mcpx's own bound on an upstream request: a stopped upstream's calls fail cleanly after it. */
const UPSTREAM_REQUEST_MS = 3000;
/** A call with no answer by then is lost: far past every bound mcpx applies to it. */
const CALL_DEADLINE_MS = 30_000;
/** How long an upstream may take to answer again after a fault ends, for the fault to count survived. */
const RECOVERY_MS = 20_000;
const SERVERS = ["a", "b", "h"];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function freePort() {
  const s = createServer();
  await new Promise((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

/** Resident set size of a process, from /proc (Linux), in bytes. */
export async function rssOf(pid) {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb * 1024;
}

/** The pids of a process's children whose command line contains `needle` (Linux /proc). */
async function childrenOf(ppid, needle) {
  const { readdir } = await import("node:fs/promises");
  const out = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, "utf8");
      // The command name is in parentheses and may hold spaces: the fields after it are split.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) !== ppid) continue;
      const cmdline = (await readFile(`/proc/${entry}/cmdline`, "utf8")).split("\0").join(" ");
      if (cmdline.includes(needle)) out.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

/** A child process started by this run; `exited` settles when it ends. */
function start(command, args, { env, onLine } = {}) {
  const child = spawn(command, args, {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, ...env },
  });
  let tail = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => {
    tail = (tail + chunk).slice(-4000);
    if (onLine) for (const line of chunk.split("\n")) if (line) onLine(line);
  });
  const exited = new Promise((r) => child.once("exit", (code, signal) => r({ code, signal })));
  return { child, exited, stderr: () => tail };
}

async function startHttpUpstream(port) {
  let ready;
  const listening = new Promise((r) => {
    ready = r;
  });
  const proc = start(process.execPath, [UPSTREAM, "http", String(port)], {
    onLine: (line) => line.startsWith("listening") && ready(),
  });
  await Promise.race([
    listening,
    proc.exited.then(() => {
      throw new Error(`the HTTP upstream exited at start: ${proc.stderr()}`);
    }),
  ]);
  return proc;
}

async function stop(proc) {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  proc.child.kill("SIGTERM");
  const done = await Promise.race([proc.exited.then(() => true), sleep(5000).then(() => false)]);
  if (!done) {
    proc.child.kill("SIGKILL");
    await proc.exited;
  }
}

/** One client of mcpx, of one kind; `call` answers { ok, text } or throws. */
async function connectClient(kind, url) {
  if (kind === "modern") {
    const client = new ModernClient(
      { name: "load-modern", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(new ModernTransport(new URL(url)));
    return { kind, client };
  }
  const client = new Client({ name: `load-${kind}`, version: "1.0.0" });
  const sse = new URL(url.replace(/\/mcp$/, "/sse"));
  await client.connect(
    kind === "sse" ? new SSEClientTransport(sse) : new StreamableHTTPClientTransport(new URL(url)),
  );
  return { kind, client };
}

/** What happened to one call: answered, failed cleanly, or lost (with why). */
async function oneCall(c, server, text, slow) {
  const params = slow
    ? { name: `${server}__sleep`, arguments: { ms: slow, text } }
    : { name: `${server}__echo`, arguments: { text } };
  let timer;
  const deadline = new Promise((resolve) => {
    timer = setTimeout(
      () => resolve({ outcome: "lost", why: `no answer in ${CALL_DEADLINE_MS} ms` }),
      CALL_DEADLINE_MS,
    );
  });
  const call = c.client
    .callTool(params, undefined, { timeout: CALL_DEADLINE_MS * 2 })
    .then((result) => {
      if (result.isError) return { outcome: "failed", why: textOf(result) };
      const got = textOf(result);
      return got === text
        ? { outcome: "answered" }
        : { outcome: "lost", why: `asked ${text}, answered ${got}` };
    })
    .catch((err) => {
      // A JSON-RPC error from mcpx is a clean failure; a broken transport is not.
      const code = err?.code;
      if (typeof code === "number" && code < 0 && code !== -32001)
        return { outcome: "failed", why: err.message };
      return { outcome: "lost", why: `${err?.name ?? "Error"}: ${err?.message ?? err}` };
    });
  try {
    return await Promise.race([call, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function textOf(result) {
  const first = Array.isArray(result.content) ? result.content[0] : undefined;
  return typeof first?.text === "string" ? first.text : JSON.stringify(result.content ?? result);
}

/** Waits until `check` is true, or throws naming `what` after `ms`. */
async function until(check, ms, what) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // Not yet.
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

export async function runLoad(options = SHORT, log = () => {}) {
  const o = { ...SHORT, ...options };
  const dir = await mkdtemp(join(tmpdir(), "mcpx-load-"));
  const procs = [];
  const clients = [];
  /** Ours, restarted by a fault: stopped at the end whichever instance is current. */
  let httpUpstream;
  const stats = {
    sent: 0,
    answered: 0,
    failed: 0,
    lost: 0,
    faults: 0,
    survived: 0,
    /** Answered calls by client kind (legacy, sse, modern): every era must get through. */
    answeredBy: {},
    /** How many calls failed with each message (numbers and ids folded), to read what clients were told. */
    failedWhy: {},
    lostWhy: [],
    faultLog: [],
  };
  try {
    const httpPort = await freePort();
    httpUpstream = await startHttpUpstream(httpPort);
    const port = await freePort();
    const config = {
      listen: { host: "127.0.0.1", port },
      upstream: { timeouts: { request: UPSTREAM_REQUEST_MS, handshake: 5000, probe: 3000, closeGrace: 500 } },
      servers: {
        a: { command: process.execPath, args: [UPSTREAM, "stdio"] },
        b: { command: process.execPath, args: [UPSTREAM, "stdio"] },
        h: { url: `http://127.0.0.1:${httpPort}/mcp` },
      },
      stateDir: join(dir, "state"),
      log: { level: "error" },
    };
    const configFile = join(dir, "mcpx.json");
    await writeFile(configFile, JSON.stringify(config, null, 2));
    const daemon = start(process.execPath, [MCPX_BIN, "serve", "--config", configFile]);
    procs.push(daemon);
    const url = `http://127.0.0.1:${port}/mcp`;

    // Ready when one client sees every upstream's tools.
    const probe = await (async () => {
      let c;
      await until(
        async () => {
          c ??= await connectClient("legacy", url);
          const { tools } = await c.client.listTools();
          return SERVERS.every((s) => tools.some((t) => t.name === `${s}__echo`));
        },
        30_000,
        `mcpx to list every upstream's tools (stderr: ${daemon.stderr()})`,
      );
      return c;
    })();
    clients.push(probe);

    const kinds = [
      ...Array(o.legacy).fill("legacy"),
      ...Array(o.sse).fill("sse"),
      ...Array(o.modern).fill("modern"),
    ];
    for (const kind of kinds) clients.push(await connectClient(kind, url));
    const workers = clients.slice(1);

    let running = true;
    let counting = false;
    let seq = 0;
    const loop = async (c, w) => {
      while (running) {
        const server = SERVERS[(seq + w) % SERVERS.length];
        const text = `${c.kind}-${w}-${seq++}`;
        // One call in ten is slow, so faults land on calls in flight.
        const slow = seq % 10 === 0 ? 50 + (seq % 150) : 0;
        const r = await oneCall(c, server, text, slow);
        if (!counting) continue;
        stats.sent++;
        if (r.outcome === "answered") {
          stats.answered++;
          stats.answeredBy[c.kind] = (stats.answeredBy[c.kind] ?? 0) + 1;
        } else if (r.outcome === "failed") {
          stats.failed++;
          const why = `${server}: ${r.why.replace(/\d+/g, "N").slice(0, 160)}`;
          stats.failedWhy[why] = (stats.failedWhy[why] ?? 0) + 1;
        } else {
          stats.lost++;
          if (stats.lostWhy.length < 10) stats.lostWhy.push(`${c.kind} → ${server}: ${r.why}`);
        }
      }
    };

    const loops = workers.map((c, w) => loop(c, w));
    await sleep(o.warmupSeconds * 1000);
    const rssBefore = await rssOf(daemon.child.pid);
    counting = true;
    log(`load: ${workers.length} clients, ${o.seconds} s, baseline RSS ${mib(rssBefore)} MiB`);

    // Faults, in turn, while the clients call.
    /** A stdio upstream of mcpx's (a child of the daemon); a fault that finds none is not injected. */
    const stdioUpstream = async (which) => {
      const pids = await childrenOf(daemon.child.pid, `${UPSTREAM} stdio`);
      const pid = which === "first" ? pids[0] : pids[pids.length - 1];
      if (!pid) throw new Error("no stdio upstream process of mcpx's was found");
      return pid;
    };
    const faults = [
      ["kill -9 a stdio upstream", async () => process.kill(await stdioUpstream("first"), "SIGKILL")],
      [
        "stop a stdio upstream for 2 s",
        async () => {
          const pid = await stdioUpstream("last");
          process.kill(pid, "SIGSTOP");
          await sleep(2000);
          process.kill(pid, "SIGCONT");
        },
      ],
      [
        "kill the HTTP upstream and restart it after 1 s",
        async () => {
          httpUpstream.child.kill("SIGKILL");
          await httpUpstream.exited;
          await sleep(1000);
          httpUpstream = await startHttpUpstream(httpPort);
        },
      ],
      [
        "stop the HTTP upstream for 2 s",
        async () => {
          httpUpstream.child.kill("SIGSTOP");
          await sleep(2000);
          httpUpstream.child.kill("SIGCONT");
        },
      ],
    ];
    const end = Date.now() + o.seconds * 1000;
    for (let i = 0; Date.now() + o.faultEveryMs < end; i++) {
      await sleep(o.faultEveryMs);
      const [name, inject] = faults[i % faults.length];
      stats.faults++;
      try {
        await inject();
      } catch (err) {
        stats.faultLog.push(`${name}: could not be injected: ${err.message}`);
        continue;
      }
      // Survived: every upstream answers a fresh call again (a killed one has been restarted by mcpx).
      const t0 = Date.now();
      try {
        await until(
          async () => {
            for (const s of SERVERS) {
              const r = await oneCall(probe, s, `probe-${i}-${s}`, 0);
              if (r.outcome !== "answered") return false;
            }
            return true;
          },
          RECOVERY_MS,
          `recovery after "${name}"`,
        );
        stats.survived++;
        stats.faultLog.push(`${name}: recovered in ${Date.now() - t0} ms`);
      } catch (err) {
        stats.faultLog.push(`${name}: ${err.message}`);
      }
    }
    const remaining = end - Date.now();
    if (remaining > 0) await sleep(remaining);
    running = false;
    await Promise.all(loops);
    // Let timers and buffers of the finished calls go before reading memory again.
    await sleep(3000);
    const rssAfter = await rssOf(daemon.child.pid);
    stats.rssBefore = rssBefore;
    stats.rssAfter = rssAfter;
    stats.daemonAlive = daemon.child.exitCode === null && daemon.child.signalCode === null;
    return stats;
  } finally {
    await Promise.allSettled(clients.map((c) => c.client.close()));
    for (const p of procs) await stop(p);
    if (httpUpstream) await stop(httpUpstream);
    await rm(dir, { recursive: true, force: true });
  }
}

const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1);

export function summary(s) {
  return `load: sent ${s.sent}, answered ${s.answered}, failed cleanly ${s.failed}, lost ${s.lost}; faults ${s.faults} injected, ${s.survived} survived; daemon RSS ${mib(s.rssBefore)} → ${mib(s.rssAfter)} MiB`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const options = args.includes("--long") ? { ...LONG } : { ...SHORT };
  const i = args.indexOf("--seconds");
  if (i !== -1) options.seconds = Number(args[i + 1]);
  const stats = await runLoad(options, (line) => process.stderr.write(`${line}\n`));
  for (const line of stats.faultLog) process.stderr.write(`  fault ${line}\n`);
  for (const [why, n] of Object.entries(stats.failedWhy)) process.stderr.write(`  failed ×${n} ${why}\n`);
  for (const line of stats.lostWhy) process.stderr.write(`  lost ${line}\n`);
  process.stdout.write(args.includes("--json") ? `${JSON.stringify(stats)}\n` : `${summary(stats)}\n`);
  process.exit(stats.lost === 0 && stats.survived === stats.faults ? 0 : 1);
}
