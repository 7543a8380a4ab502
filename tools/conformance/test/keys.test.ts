/** Expected-failure keys: `[<version>:]<scenario>[@<revision>]`, and which entry answers for a run. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { entryFor, loadExpectedFailures } from "../src/expected-failures.js";
import { covers, formatKey, KeyError, parseKey } from "../src/keys.js";
import { runsOf, type Scenario, SUITES, type Suite } from "../src/suite.js";

const alpha: Suite = { alias: "conformance-alpha", version: "0.2.0-alpha.12", entry: "/a" };
const stable: Suite = { alias: "conformance-stable", version: "0.1.16", entry: "/s" };
const scenarios: Scenario[] = [
  { name: "auth/token-endpoint-auth-basic", tags: ["2025-06-18", "2025-11-25", "2026-07-28"], suite: alpha },
  { name: "auth/token-endpoint-auth-basic", tags: ["2025-06-18", "2025-11-25"], suite: stable },
  { name: "auth/offline-access-scope", tags: ["draft"], suite: stable },
  { name: "tools_call", tags: ["2025-06-18", "2025-11-25"], suite: stable },
];

function load(yaml: string) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "mcpx-keys-")), "expected.yaml");
  writeFileSync(file, yaml);
  return loadExpectedFailures(file, scenarios);
}

describe("expected-failure keys", () => {
  it("conformance/key-parses-version-scenario-revision", () => {
    expect(parseKey("auth/basic-cimd")).toEqual({ scenario: "auth/basic-cimd" });
    expect(parseKey("auth/basic-cimd@2026-07-28")).toEqual({
      scenario: "auth/basic-cimd",
      revision: "2026-07-28",
    });
    expect(parseKey("0.1.16:auth/basic-cimd")).toEqual({ version: "0.1.16", scenario: "auth/basic-cimd" });
    expect(parseKey("0.2.0-alpha.12:sep-2640-client-no-prefetch@extension")).toEqual({
      version: "0.2.0-alpha.12",
      scenario: "sep-2640-client-no-prefetch",
      revision: "extension",
    });
    for (const key of ["0.1.16:auth/x@2025-11-25", "a@b", "0.2.0-alpha.12:x"]) {
      expect(formatKey(parseKey(key))).toBe(key);
    }
  });

  it("conformance/key-malformed-is-refused-with-the-form", () => {
    for (const bad of ["", "v1:auth/x", "auth/x@", "0.1.16:", "auth/x@a@b", "0.1.16:auth/x:y", "auth x"]) {
      expect(() => parseKey(bad), bad).toThrow(KeyError);
    }
    expect(() => parseKey("v1:auth/x")).toThrow(/expected \[<version>:\]<scenario>\[@<revision>\]/);
  });

  it("conformance/key-covers-its-version-and-revision-only", () => {
    const runs = runsOf(scenarios.slice(0, 2));
    const at = (v: string, tag: string) => runs.find((r) => r.scenario.suite.version === v && r.tag === tag)!;
    const name = "auth/token-endpoint-auth-basic";
    expect(runs.filter((r) => covers(parseKey(name), r))).toHaveLength(5);
    expect(runs.filter((r) => covers(parseKey(`0.1.16:${name}`), r))).toHaveLength(2);
    expect(runs.filter((r) => covers(parseKey(`${name}@2025-11-25`), r))).toHaveLength(2);
    expect(covers(parseKey(`0.1.16:${name}@2025-11-25`), at("0.1.16", "2025-11-25"))).toBe(true);
    expect(covers(parseKey(`0.1.16:${name}@2025-11-25`), at("0.2.0-alpha.12", "2025-11-25"))).toBe(false);
    expect(covers(parseKey(`0.1.16:${name}@2025-11-25`), at("0.1.16", "2025-06-18"))).toBe(false);
  });

  it("conformance/most-specific-entry-answers", () => {
    const name = "auth/token-endpoint-auth-basic";
    const { entries, problems } = load(
      [
        `${name}: every run`,
        `${name}@2025-11-25: every version at 2025-11-25`,
        `"0.1.16:${name}": every 0.1.16 run`,
        `"0.1.16:${name}@2025-11-25": that one run`,
      ].join("\n"),
    );
    expect(problems).toEqual([]);
    const runs = runsOf(scenarios.slice(0, 2));
    const reason = (v: string, tag: string) =>
      entryFor(entries, runs.find((r) => r.scenario.suite.version === v && r.tag === tag)!)?.reason;
    expect(reason("0.2.0-alpha.12", "2026-07-28")).toBe("every run");
    expect(reason("0.2.0-alpha.12", "2025-11-25")).toBe("every version at 2025-11-25");
    expect(reason("0.1.16", "2025-06-18")).toBe("every 0.1.16 run");
    expect(reason("0.1.16", "2025-11-25")).toBe("that one run");
  });

  it("conformance/versioned-key-checked-against-that-version", () => {
    const { entries, problems } = load(
      [
        '"0.1.16:auth/offline-access-scope@draft": "ok"',
        '"0.2.0-alpha.12:auth/offline-access-scope": "the alpha has no such scenario in this leg"',
        '"0.1.16:auth/token-endpoint-auth-basic@2026-07-28": "0.1.16 does not run it there"',
        '"9.9.9:auth/token-endpoint-auth-basic": "no such version"',
        '"0.1.16:tools_call": "not auth"',
        '"nonsense:auth/x": "bad key"',
      ].join("\n"),
    );
    expect(entries.map((e) => e.key)).toEqual(["0.1.16:auth/offline-access-scope@draft"]);
    expect(problems).toEqual([
      "0.2.0-alpha.12:auth/offline-access-scope: no such scenario in this leg of 0.2.0-alpha.12 (remove the entry)",
      "0.1.16:auth/token-endpoint-auth-basic@2026-07-28: auth/token-endpoint-auth-basic is not run at 2026-07-28 (its tags: 2025-06-18, 2025-11-25)",
      "9.9.9:auth/token-endpoint-auth-basic: no suite version 9.9.9 (the versions: 0.2.0-alpha.12, 0.1.16)",
      "0.1.16:tools_call: only auth/* and extension scenarios may be expected to fail",
      'nonsense:auth/x: "nonsense:auth/x" is not a key: expected [<version>:]<scenario>[@<revision>], e.g. 0.1.16:auth/basic-cimd@2025-11-25',
    ]);
  });

  it("conformance/both-pinned-suites-run", () => {
    expect(SUITES.map((s) => s.version)).toEqual(["0.2.0-alpha.12", "0.1.16"]);
  });
});
