/**
 * The suite's reference everything-server (../shared/peers/conformance-reference-server, kept unchanged
 * from the suite's repository; MCPX_REFERENCE_SERVER_DIR overrides): copied into
 * tools/conformance/.cache/reference-server and installed there from the npm registry with its own
 * package-lock (`npm ci`, redone only when the lock changes), then started on 127.0.0.1 at a free port
 * (`loopback.cjs` binds its `listen()` there) as its README says. Its files are never edited.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import * as path from "node:path";
import { PACKAGE_DIR } from "./suite.js";

/** The repository's root: tools/conformance/../.. */
export const REPO_DIR = path.resolve(PACKAGE_DIR, "..", "..");
/** Where the copy and its node_modules live (gitignored). */
export const CACHE_DIR = path.join(PACKAGE_DIR, ".cache", "reference-server");
/** The server's entry, relative to its folder. */
const ENTRY = "everything-server.ts";
/** How long the server may take to answer HTTP at all. */
const READY_TIMEOUT_MS = 30_000;

/** The folder holding the reference server: MCPX_REFERENCE_SERVER_DIR, else ../shared/peers/… from the repo. */
export function referenceServerDir(env: NodeJS.ProcessEnv = process.env, repo = REPO_DIR): string {
  const override = env.MCPX_REFERENCE_SERVER_DIR;
  if (override) return path.resolve(repo, override);
  return path.resolve(repo, "..", "shared", "peers", "conformance-reference-server");
}

/**
 * The copy in the cache, installed: the source's files copied over it, and `npm ci` run when the
 * package-lock differs from the one installed last (a stamp beside node_modules).
 */
export function prepareReferenceServer(source = referenceServerDir(), cache = CACHE_DIR): string {
  for (const file of ["package.json", "package-lock.json", ENTRY, "loopback.cjs"]) {
    if (!existsSync(path.join(source, file))) {
      throw new Error(
        `the reference server is not at ${source} (no ${file}); set MCPX_REFERENCE_SERVER_DIR to its folder`,
      );
    }
  }
  mkdirSync(cache, { recursive: true });
  const lock = readFileSync(path.join(source, "package-lock.json"));
  const digest = createHash("sha256").update(lock).digest("hex");
  const stamp = path.join(cache, "node_modules", ".mcpx-lock-sha256");
  const installed = existsSync(stamp) && readFileSync(stamp, "utf8") === digest;
  // Everything but node_modules: the server's own files as they are, nothing of ours but the stamp.
  cpSync(source, cache, { recursive: true, filter: (src) => !src.split(path.sep).includes("node_modules") });
  if (!installed) {
    rmSync(path.join(cache, "node_modules"), { recursive: true, force: true });
    console.log(`installing the reference server's dependencies in ${cache} (npm ci)`);
    const npm = spawnSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: cache,
      stdio: "inherit",
    });
    if (npm.status !== 0) throw new Error(`npm ci of the reference server failed (exit ${npm.status})`);
    writeFileSync(stamp, digest);
  }
  return cache;
}

export interface ReferenceServer {
  /** Its MCP endpoint. */
  url: string;
  stop(): Promise<void>;
}

/** A port free on 127.0.0.1 now (the server takes a port number, not a listening socket). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** The server started from `dir` as its README says, ready once it answers HTTP (a GET of /mcp, 400). */
export async function startReferenceServer(dir: string, logFile?: string): Promise<ReferenceServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ["--require", "./loopback.cjs", "--import", "tsx", ENTRY],
    {
      cwd: dir,
      env: { ...process.env, PORT: String(port) },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const keep = (d: Buffer) => {
    output = `${output}${d.toString()}`.slice(-8192);
    if (logFile) writeFileSync(logFile, output);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(
        `the reference server exited (${child.exitCode}) before it was ready: ${output.trim()}`,
      );
    }
    const ok = await fetch(`${base}/mcp`).then(
      async (r) => {
        await r.body?.cancel();
        return true;
      },
      () => false,
    );
    if (ok) return { url: `${base}/mcp`, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the reference server did not answer ${base}/mcp within ${READY_TIMEOUT_MS / 1000}s`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
