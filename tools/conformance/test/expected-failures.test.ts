/** The expected-failures file: what may be listed, and which entry covers a run. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { entryFor, loadExpectedFailures } from "../src/expected-failures.js";
import { runsOf, type Scenario, SUITES } from "../src/suite.js";

const scenarios: Scenario[] = [
  { name: "auth/basic-cimd", tags: ["2025-11-25", "2026-07-28"], suite: SUITES[0]! },
  { name: "sep-2640-client-no-prefetch", tags: ["extension"], suite: SUITES[0]! },
  { name: "tools_call", tags: ["2025-11-25", "2026-07-28"], suite: SUITES[0]! },
];

function load(yaml: string, opts: { peerDepartures?: boolean } = {}) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "mcpx-expected-")), "expected.yaml");
  writeFileSync(file, yaml);
  return loadExpectedFailures(file, scenarios, opts);
}

describe("expected failures", () => {
  it("expected-failures/only-auth-and-extensions-with-a-reason", () => {
    const { entries, problems } = load(
      [
        "auth/basic-cimd: no OAuth client",
        "sep-2640-client-no-prefetch: skills not implemented",
        "tools_call: flaky",
        "auth/nope: gone",
        'auth/basic-cimd@2025-06-18: "not run there"',
        "sep-2640-client-no-prefetch@2026-07-28: x",
      ].join("\n"),
    );
    expect(entries.map((e) => e.key)).toEqual(["auth/basic-cimd", "sep-2640-client-no-prefetch"]);
    expect(problems).toEqual([
      "tools_call: only auth/* and extension scenarios may be expected to fail",
      "auth/nope: no such scenario in this leg of either suite version (remove the entry)",
      "auth/basic-cimd@2025-06-18: auth/basic-cimd is not run at 2025-06-18 (its tags: 2025-11-25, 2026-07-28)",
      "sep-2640-client-no-prefetch@2026-07-28: sep-2640-client-no-prefetch is not run at 2026-07-28 (its tags: extension)",
    ]);
    expect(load("auth/basic-cimd:\n").problems).toEqual([
      "auth/basic-cimd: the reason must be one line of text",
    ]);
  });

  it("expected-failures/reference-server-departures-only-in-its-leg", () => {
    const yaml = [
      '"tools_call@2026-07-28": "reference server: its in-process client answers -32601"',
      'auth/basic-cimd: "no OAuth client"',
      'tools_call@2025-11-25: "flaky"',
    ].join("\n");
    // in the reference leg, a scenario the reference server fails may be listed, saying so
    const reference = load(yaml, { peerDepartures: true });
    expect(reference.entries.map((e) => e.key)).toEqual(["tools_call@2026-07-28", "auth/basic-cimd"]);
    expect(reference.problems).toEqual([
      'tools_call@2025-11-25: only auth/* and extension scenarios, and those the reference server fails (a reason starting "reference server:"), may be expected to fail',
    ]);
    // in our fixture's leg, never
    expect(load(yaml).problems).toEqual([
      "tools_call@2026-07-28: only auth/* and extension scenarios may be expected to fail",
      "tools_call@2025-11-25: only auth/* and extension scenarios may be expected to fail",
    ]);
  });

  it("expected-failures/revision-entry-before-scenario-entry", () => {
    const { entries } = load('auth/basic-cimd: "all"\nauth/basic-cimd@2026-07-28: "modern only"\n');
    const [dated, modern] = runsOf([scenarios[0]!]);
    expect(entryFor(entries, dated!)?.reason).toBe("all");
    expect(entryFor(entries, modern!)?.reason).toBe("modern only");
  });
});
