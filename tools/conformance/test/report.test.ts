/** The leg's tables (per suite version, per revision tag) and requirement sets, as text and markdown. */
import { describe, expect, it } from "vitest";
import { markdownReport, type RunResult, requirement, tables, textReport } from "../src/report.js";
import { parseRequirements } from "../src/suite.js";

const A = "0.2.0-alpha.12";
const S = "0.1.16";
const run = (version: string, scenario: string, tag: string, pass: boolean, expected = false): RunResult => ({
  version,
  scenario,
  tag,
  pass,
  expected,
});

const results: RunResult[] = [
  run(A, "tools_call", "2026-07-28", true),
  run(A, "tools_call", "2025-06-18", true),
  run(A, "auth/dpop", "extension", false, true),
  run(A, "sse-retry", "2025-11-25", true),
  run(A, "auth/basic-cimd", "2025-11-25", false),
  run(S, "auth/offline-access-scope", "draft", true),
  run(S, "auth/2025-03-26-oauth-metadata-backcompat", "2025-03-26", false, true),
  run(S, "tools_call", "2025-11-25", true),
];

describe("the leg's report", () => {
  it("conformance/table-per-version-per-revision-tag", () => {
    expect(tables(results)).toEqual([
      {
        version: A,
        rows: [
          { tag: "2025-06-18", tally: { passed: 1, failed: 0, expected: 0 } },
          { tag: "2025-11-25", tally: { passed: 1, failed: 1, expected: 0 } },
          { tag: "2026-07-28", tally: { passed: 1, failed: 0, expected: 0 } },
          { tag: "extension", tally: { passed: 0, failed: 1, expected: 1 } },
        ],
        total: { passed: 3, failed: 2, expected: 1 },
      },
      {
        version: S,
        rows: [
          { tag: "2025-03-26", tally: { passed: 0, failed: 1, expected: 1 } },
          { tag: "2025-11-25", tally: { passed: 1, failed: 0, expected: 0 } },
          { tag: "draft", tally: { passed: 1, failed: 0, expected: 0 } },
        ],
        total: { passed: 2, failed: 1, expected: 1 },
      },
    ]);
  });

  it("conformance/requirement-every-required-scenario-passed-or-named", () => {
    const all = requirement(
      "2025-11-25",
      A,
      ["tools_call", "sse-retry"],
      [...results, run(A, "tools_call", "2025-11-25", true)],
    );
    expect(all.notPassed).toEqual([]);
    // the other version's pass, or a pass at another revision, does not answer for it
    const some = requirement(
      "2025-11-25",
      A,
      ["sse-retry", "auth/basic-cimd", "tools_call", "initialize"],
      [...results, run(A, "auth/dpop", "2025-11-25", false, true)],
    );
    expect(some.notPassed).toEqual([
      { scenario: "auth/basic-cimd", why: "failed" },
      { scenario: "tools_call", why: "not run" },
      { scenario: "initialize", why: "not run" },
    ]);
    expect(requirement("extension", A, ["auth/dpop"], results).notPassed).toEqual([
      { scenario: "auth/dpop", why: "expected failure" },
    ]);
  });

  it("conformance/text-and-markdown-tables", () => {
    const reqs = [
      requirement("2025-11-25", A, ["sse-retry"], results),
      requirement("2026-07-28", A, ["tools_call", "auth/basic-cimd"], results),
    ];
    expect(textReport("client", results, reqs)).toEqual([
      `client leg, suite ${A}:`,
      "  2025-06-18  1 passed, 0 failed",
      "  2025-11-25  1 passed, 1 failed (0 expected)",
      "  2026-07-28  1 passed, 0 failed",
      "  extension   0 passed, 1 failed (1 expected)",
      "  total       3 passed, 2 failed (1 expected)",
      `client leg, suite ${S}:`,
      "  2025-03-26  0 passed, 1 failed (1 expected)",
      "  2025-11-25  1 passed, 0 failed",
      "  draft       1 passed, 0 failed",
      "  total       2 passed, 1 failed (1 expected)",
      `requirements 2025-11-25 (${A}): all 1 required client scenarios passed`,
      `requirements 2026-07-28 (${A}): 1 of 2 required client scenarios passed; not passed: auth/basic-cimd (not run)`,
    ]);
    const md = markdownReport("client", results, reqs).split("\n");
    expect(md.slice(0, 10)).toEqual([
      `#### client leg, suite ${A}`,
      "",
      "| revision tag | passed | failed | of which expected |",
      "| --- | ---: | ---: | ---: |",
      "| 2025-06-18 | 1 | 0 | 0 |",
      "| 2025-11-25 | 1 | 1 | 0 |",
      "| 2026-07-28 | 1 | 0 | 0 |",
      "| extension | 0 | 1 | 1 |",
      "| **total** | 3 | 2 | 1 |",
      "",
    ]);
    expect(md).toContain(`#### client leg, suite ${S}`);
    expect(md).toContain("| 2025-03-26 | 0 | 1 | 1 |");
    expect(md).toContain("#### client leg, what each revision requires (`list --requirements`)");
    expect(md).toContain(`| 2025-11-25 | ${A} | 1 | 1 | — |`);
    expect(md).toContain(`| 2026-07-28 | ${A} | 2 | 1 | auth/basic-cimd (not run) |`);
    // no requirement sets (a partial run): no requirements table
    expect(markdownReport("server", results, [])).not.toContain("requires");
  });

  it("conformance/requirements-parsed-per-leg", () => {
    const stdout = [
      "Required for 2025-11-25 (48 scenarios, frozen; run at the 2025-11-25 wire):",
      "",
      "Server scenarios (test against a server):",
      "  - server-initialize",
      "  - ping",
      "",
      "Client scenarios (test against a client):",
      "  - initialize",
      "  - auth/basic-cimd",
      "",
      "Run and reported, but never scored:",
      "  extension (1):",
      "    - auth/dpop [client]",
      "  pending (1):",
      "    - server-sse-polling [server]",
    ].join("\n");
    expect(parseRequirements(stdout, "server")).toEqual(["server-initialize", "ping"]);
    expect(parseRequirements(stdout, "client")).toEqual(["initialize", "auth/basic-cimd"]);
  });
});
