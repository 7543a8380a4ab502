/**
 * The server leg's own pieces: the config mcpx serves the leg with (one upstream, our fixture or the
 * suite's reference server, with its own names; loopback, a free port, a state directory of its
 * own), mcpx started from it as `mcpx serve` starts (and ready once it lists the upstream's tools),
 * and the verdict on one run.
 */
import { appendFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { LogLevel } from "@mcpx/core";
import { type Serving, serve } from "@mcpx/daemon";
import { type Check, type Exec, judge, PACKAGE_DIR, type Verdict } from "./suite.js";

/** How long mcpx may take to have the upstream connected and listed. */
const READY_TIMEOUT_MS = 30_000;
/** The tool (of either upstream) mcpx must list before the leg starts. */
const PROBE_TOOL = "test_simple_text";

/** The upstream mcpx fronts: our fixture over stdio, or the reference server at its URL. */
export type Upstream = { command: string; args: string[] } | { url: string };

/** Our fixture (dist/fixture-server.js) run by this Node. */
export const fixtureUpstream = (fixture = path.join(PACKAGE_DIR, "dist", "fixture-server.js")): Upstream => ({
  command: process.execPath,
  args: [fixture],
});

/** The config of the leg: the upstream under its own names, mcpx on 127.0.0.1 at a free port. */
export function legConfig(stateDir: string, upstream: Upstream = fixtureUpstream()) {
  return {
    servers: { conformance: { ...upstream, namespacing: false } },
    listen: { host: "127.0.0.1", port: 0 },
    stateDir,
  };
}

/** mcpx serving the leg's config (written to `dir`), with the upstream connected and its tools listed. */
export async function startMcpx(dir: string, upstream: Upstream, logLevel?: LogLevel): Promise<Serving> {
  const configFile = path.join(dir, "mcpx.json");
  writeFileSync(configFile, JSON.stringify(legConfig(path.join(dir, "state"), upstream), null, 2));
  const logFile = path.join(dir, "mcpx.log");
  const serving = await serve({
    configFile,
    logLevel: logLevel ?? "warn",
    writeLog: (line) => appendFileSync(logFile, `${line}\n`),
  });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const tools = await serving.runtime.gateway.catalog.list("tools");
    if (tools.some((t) => t.name === PROBE_TOOL)) return serving;
    if (Date.now() > deadline) {
      await serving.stop();
      throw new Error(
        `mcpx did not list the upstream's ${PROBE_TOOL} within ${READY_TIMEOUT_MS / 1000}s (log: ${logFile})`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The suite's verdict (judge), and one more rule: a check of the scenario's own must succeed. The
 * wire-schema checks the suite adds to every run say the traffic was well-formed, not that the
 * scenario's feature was there: a scenario whose own checks were all skipped showed nothing.
 */
export function judgeServerRun(exec: Exec, checks: readonly Check[], timeoutMs: number): Verdict {
  const verdict = judge(exec, checks, timeoutMs);
  if (!verdict.pass) return verdict;
  const own = checks.filter((c) => !c.id.startsWith("wire-schema-"));
  if (own.some((c) => c.status === "SUCCESS")) return verdict;
  const skipped = own.find((c) => c.status === "SKIPPED" || c.status === "INFO");
  const why = skipped ? ` (${skipped.id}: ${skipped.errorMessage ?? skipped.status.toLowerCase()})` : "";
  return { pass: false, reason: `no check of the scenario's own succeeded${why}`.slice(0, 200) };
}
