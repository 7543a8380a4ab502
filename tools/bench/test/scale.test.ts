import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const script = fileURLToPath(new URL("../src/scale.mjs", import.meta.url));

interface Listing {
  era: string;
  tools: number;
  pages: number;
  pageSize: number;
  firstListingMs: number;
  pageP50Ms: number;
  pageP99Ms: number;
  totalP50Ms: number;
}
interface Report {
  machine: { cpus: number; loadavgBefore: number[]; loadavgAfter: number[] };
  settings: { http: number; stdio: number; tools: number; sessions: number; modernClients: number };
  ready: { fromStartMs: number; afterSlowestMs: number; handshakesAnswered: number };
  listing: Listing[];
  call: { era: string; p50Ms: number; p99Ms: number }[];
  rss: { idleAfterReadyMiB: number; afterListingMiB: number };
  sessions: Record<string, number>;
  checks: { target: string; path: string; note: string }[];
  failures: string[];
}

// One quick run (10 upstreams of 20 tools, 50 sessions) read by the test. The figures are never
// asserted (machines are shared and noisy): what is checked is that every one was measured and
// printed, so the scale bench cannot rot unseen.
let report: Report;
let table: string;
beforeAll(async () => {
  const json = join(mkdtempSync(join(tmpdir(), "mcpx-scale-")), "report.json");
  const { stdout } = await run(process.execPath, [script, "--quick", "--json", json], {
    timeout: 300_000,
    maxBuffer: 16 * 2 ** 20,
  });
  table = stdout;
  report = JSON.parse(readFileSync(json, "utf8")) as Report;
}, 300_000);

const measured = (x: unknown) => typeof x === "number" && Number.isFinite(x) && x >= 0;

describe("bench scale", () => {
  it("bench/scale-quick-prints-every-figure", () => {
    // The run and every listing completed; a call that failed under load is counted, not hidden.
    expect(
      report.failures.filter((f) => !f.includes("under load") && !f.startsWith("open a legacy")),
    ).toEqual([]);
    const s = report.settings;
    const upstreams = s.http + s.stdio;
    expect(report.ready.handshakesAnswered).toBeGreaterThanOrEqual(upstreams);
    expect(measured(report.ready.fromStartMs) && Number.isFinite(report.ready.afterSlowestMs)).toBe(true);
    expect(report.listing.map((l) => l.era)).toEqual(["2025-11-25", "2026-07-28"]);
    for (const l of report.listing) {
      expect(l.tools).toBe(upstreams * s.tools);
      expect(l.pages).toBe(Math.ceil(l.tools / l.pageSize));
      for (const x of [l.firstListingMs, l.pageP50Ms, l.pageP99Ms, l.totalP50Ms])
        expect(measured(x)).toBe(true);
    }
    expect(report.call.map((c) => c.era)).toEqual(["2025-11-25", "2026-07-28"]);
    for (const c of report.call) expect(measured(c.p50Ms) && measured(c.p99Ms)).toBe(true);
    expect(measured(report.rss.idleAfterReadyMiB) && measured(report.rss.afterListingMiB)).toBe(true);
    const t = report.sessions;
    expect(t.legacySessions).toBe(s.sessions);
    expect(t.modernClients).toBe(s.modernClients);
    expect(t.openErrors + t.callErrors).toBeGreaterThanOrEqual(report.failures.length);
    for (const k of ["kiBPerSession", "p50Ms", "p99Ms", "callsPerSecond", "rssWithSessionsMiB"]) {
      expect(Number.isFinite(t[k]), k).toBe(true);
    }
    // Every target is judged met or missed by a stated factor, and printed.
    expect(report.checks.length).toBe(5);
    for (const c of report.checks) {
      expect(c.note).toMatch(/^(met|missed by ×\d+\.\d\d)$/);
      expect(table).toContain(`| ${c.target} | ${c.path} |`);
    }
    // The machine and its load are named, so a reading is never taken without its context.
    expect(table.split("\n")[0]).toContain(`${report.machine.cpus}×`);
    expect(report.machine.loadavgBefore).toHaveLength(3);
    expect(report.machine.loadavgAfter).toHaveLength(3);
  });
});
