/**
 * `pnpm conformance:client`: the client leg of the official suite against mcpx's client, through the
 * adapter (dist/client-adapter.js). Every client scenario of 0.2.0-alpha.12 and of 0.1.16, once per
 * revision it belongs to in that version, one at a time.
 *
 *   node dist/run-client.js [--suite-version <v>] [--scenario <name>]… [--markdown <file>] [--keep]
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { runLeg } from "./leg.js";
import { findFiles, judge, PACKAGE_DIR, readChecks, runSuite } from "./suite.js";

/** Run from PACKAGE_DIR: the suite splits the command on spaces, so no absolute path goes in it. */
const ADAPTER = "node dist/client-adapter.js";
/** What the suite allows the client; the hard timeout is for the suite's run as a whole. */
const CLIENT_TIMEOUT_MS = 20_000;
const HARD_TIMEOUT_MS = 45_000;

const { values } = parseArgs({
  options: {
    scenario: { type: "string", multiple: true },
    "suite-version": { type: "string" },
    markdown: { type: "string" },
    keep: { type: "boolean" },
  },
});

/** The adapter's own account of why it stopped (its last line on stderr), if it gave one. */
function clientError(outDir: string): string | undefined {
  const file = findFiles(outDir, "stderr.txt")[0];
  if (!file) return undefined;
  const line = readFileSync(file, "utf8")
    .split("\n")
    .find((l) => l.startsWith("conformance client adapter:"));
  return line?.replace(/^conformance client adapter: [^:]+: /, "client: ");
}

const code = await runLeg({
  leg: "client",
  expectedFile: path.join(PACKAGE_DIR, "expected-failures.client.yaml"),
  only: values.scenario ?? [],
  suiteVersion: values["suite-version"],
  markdown: values.markdown,
  keep: values.keep ?? false,
  async execute(run, outDir) {
    const args = ["client", "--command", ADAPTER, "--scenario", run.scenario.name];
    if (run.version) args.push("--spec-version", run.version);
    args.push("--timeout", String(CLIENT_TIMEOUT_MS), "-o", outDir);
    // 0.1.16 does not tell the client the revision (the alpha does, from --spec-version): the
    // adapter is pinned to the run's revision either way, so each run is that revision's wire.
    const env = run.version ? { MCP_CONFORMANCE_PROTOCOL_VERSION: run.version } : {};
    const exec = await runSuite(run.scenario.suite, args, HARD_TIMEOUT_MS, env);
    return judge(exec, readChecks(outDir), HARD_TIMEOUT_MS, clientError(outDir));
  },
});
process.exit(code);
