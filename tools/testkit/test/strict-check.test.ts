/**
 * The after-each strict check, proven on a real vitest run: the fixture files in
 * strict-check-fixtures/ run in a child vitest with this package's strict-check setup, and its JSON
 * report says which tests the check failed and why.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { ScriptedServer } from "../src/index.js";

interface Report {
  testResults: {
    name: string;
    status: string;
    message: string;
    assertionResults: { title: string; status: string; failureMessages: string[] }[];
  }[];
}

const fixtures = fileURLToPath(new URL("./strict-check-fixtures/", import.meta.url));
const vitestBin = fileURLToPath(new URL("../node_modules/vitest/vitest.mjs", import.meta.url));
let report: Report;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpx-strict-check-"));
  const out = join(dir, "report.json");
  // The child exits non-zero (its tests are meant to fail); the report is what we read.
  await new Promise<void>((resolve) =>
    execFile(
      process.execPath,
      [
        vitestBin,
        "run",
        "--config",
        "vitest.config.ts",
        "--root",
        ".",
        "--reporter=json",
        `--outputFile=${out}`,
      ],
      { cwd: fixtures },
      () => resolve(),
    ),
  );
  report = JSON.parse(readFileSync(out, "utf8")) as Report;
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

function fileOf(name: string) {
  const file = report.testResults.find((f) => f.name.endsWith(name));
  if (!file) throw new Error(`no result for ${name}`);
  return file;
}
function testOf(file: string, title: string) {
  const test = fileOf(file).assertionResults.find((t) => t.title === title);
  if (!test) throw new Error(`no result for ${title}`);
  return test;
}

describe("the strict check after every test", () => {
  it("testkit/strict-check-fails-a-test-whose-server-saw-an-invalid-frame", () => {
    const failed = testOf("unseen.fixture.ts", "fixture/invalid-frame-the-test-never-looks-at");
    expect(failed.status).toBe("failed");
    const message = failed.failureMessages.join("\n");
    // It names the server, the problem and the frame.
    expect(message).toContain('scripted server #1 "forgetful" (2025-06-18) received 1 invalid frame(s)');
    expect(message).toContain(
      "tools/call (2025-06-18): params.name: is required (2025-06-18 CallToolRequest)",
    );
    expect(message).toContain(
      'frame: {"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"arguments":{}}}',
    );
    // A failure fails the test it happened in, not the next one.
    expect(testOf("unseen.fixture.ts", "fixture/valid-frames-only").status).toBe("passed");
  });

  it("testkit/strict-check-opt-out-is-explicit", () => {
    // Opted out with a reason, the test asserts its invalid frame itself and passes.
    expect(testOf("opt-out.fixture.ts", "fixture/opted-out-server-with-its-invalid-frame").status).toBe(
      "passed",
    );
    // An opt-out whose server saw no invalid frame is stale: the file fails, naming it and its reason.
    const file = fileOf("opt-out.fixture.ts");
    expect(file.status).toBe("failed");
    expect(file.message).toContain("expect invalid frames but saw none");
    expect(file.message).toContain('"stale" (2025-06-18): a reason that no longer holds');
    expect(file.message).not.toContain("proves the opt-out");
    // The opt-out is a reason, not a flag.
    expect(() => new ScriptedServer({ versions: ["2025-06-18"], expectInvalidFrames: " " })).toThrow(
      /expectInvalidFrames must say why/,
    );
  });
});
