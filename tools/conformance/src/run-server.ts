/**
 * `pnpm conformance:server`: the server leg of the official suite against mcpx. mcpx runs here, in
 * this process, exactly as `mcpx serve` runs it (@mcpx/daemon's serve with a config file), on
 * 127.0.0.1 at a free port with a state directory of its own, fronting one upstream: the fixture
 * (dist/fixture-server.js, the official SDK over stdio) with `namespacing: false`, so the suite finds
 * its fixtures under their own names (server-leg.ts). Every server scenario of 0.2.0-alpha.12 and of
 * 0.1.16 then runs against mcpx's /mcp once per revision it belongs to in that version, one at a
 * time, under a hard timeout; mcpx is stopped at the end.
 *
 *   node dist/run-server.js [--fixture ours|reference] [--suite-version <v>] [--scenario <name>]… [--markdown <file>] [--keep]
 *
 * MCPX_LOG=debug puts mcpx's debug log beside its config (mcpx.log; the directory is kept with --keep).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import type { LogLevel } from "@mcpx/core";
import { runLeg } from "./leg.js";
import { prepareReferenceServer, type ReferenceServer, startReferenceServer } from "./reference-server.js";
import { fixtureUpstream, judgeServerRun, startMcpx, type Upstream } from "./server-leg.js";
import { hasOption, PACKAGE_DIR, readChecks, runSuite } from "./suite.js";

/** What the suite allows one scenario; the hard timeout is for the suite's run as a whole. */
const SCENARIO_TIMEOUT_MS = 30_000;
const HARD_TIMEOUT_MS = 60_000;

const FIXTURES = {
  ours: { what: "our fixture", expected: "expected-failures.server.yaml" },
  reference: { what: "the suite's reference server", expected: "expected-failures.server-reference.yaml" },
} as const;

const { values } = parseArgs({
  options: {
    fixture: { type: "string", default: "ours" },
    scenario: { type: "string", multiple: true },
    "suite-version": { type: "string" },
    markdown: { type: "string" },
    keep: { type: "boolean" },
  },
});
const fixture = values.fixture;
if (fixture !== "ours" && fixture !== "reference") {
  console.error(`--fixture must be ours or reference, not ${fixture}`);
  process.exit(2);
}

const dir = mkdtempSync(path.join(tmpdir(), "mcpx-conformance-mcpx-"));
let reference: ReferenceServer | undefined;
let upstream: Upstream = fixtureUpstream();
if (fixture === "reference") {
  reference = await startReferenceServer(prepareReferenceServer(), path.join(dir, "reference-server.log"));
  upstream = { url: reference.url };
  console.log(`the reference server at ${reference.url}`);
}
const serving = await startMcpx(dir, upstream, process.env.MCPX_LOG as LogLevel | undefined).catch(
  async (err: Error) => {
    await reference?.stop();
    throw err;
  },
);
console.log(`mcpx at ${serving.url}, fronting ${FIXTURES[fixture].what} with namespacing off`);
if (values.keep) console.log(`mcpx config and log: ${dir}`);
let code = 1;
try {
  code = await runLeg({
    leg: "server",
    expectedFile: path.join(PACKAGE_DIR, FIXTURES[fixture].expected),
    peerDepartures: fixture === "reference",
    only: values.scenario ?? [],
    suiteVersion: values["suite-version"],
    markdown: values.markdown,
    keep: values.keep ?? false,
    async execute(run, outDir) {
      const args = ["server", "--url", serving.url, "--scenario", run.scenario.name];
      if (run.version) args.push("--spec-version", run.version);
      if (await hasOption(run.scenario.suite, "server", "--timeout")) {
        args.push("--timeout", String(SCENARIO_TIMEOUT_MS));
      }
      args.push("-o", outDir);
      const exec = await runSuite(run.scenario.suite, args, HARD_TIMEOUT_MS);
      return judgeServerRun(exec, readChecks(outDir), HARD_TIMEOUT_MS);
    },
  });
} finally {
  await serving.stop();
  await reference?.stop();
  if (!values.keep) rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
