/**
 * The short form of the load-and-fault run (src/load.mjs): many clients of both eras through the built
 * `mcpx serve` while its upstreams are killed, stopped and restarted. Nothing may be lost, every fault
 * must be survived, and the daemon's memory must come back near where it was before the load.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { runLoad, SHORT, summary } from "../src/load.mjs";

interface LoadStats {
  sent: number;
  answered: number;
  failed: number;
  lost: number;
  faults: number;
  survived: number;
  answeredBy: Record<string, number>;
  failedWhy: Record<string, number>;
  lostWhy: string[];
  faultLog: string[];
  rssBefore: number;
  rssAfter: number;
  daemonAlive: boolean;
}

const MiB = 1024 * 1024;
let stats: LoadStats;

describe("load and faults (short form)", () => {
  beforeAll(async () => {
    stats = await runLoad(SHORT);
    // The one line, for the CI log.
    console.log(summary(stats));
  }, 120_000);

  it("load/no-request-lost-while-upstreams-fail", () => {
    expect(stats.lostWhy).toEqual([]);
    expect(stats.lost).toBe(0);
    expect(stats.sent).toBe(stats.answered + stats.failed);
    expect(stats.daemonAlive).toBe(true);
    // Every kind of client got through: SDK v1 over Streamable HTTP and HTTP+SSE, v2 on 2026-07-28.
    for (const kind of ["legacy", "sse", "modern"]) expect(stats.answeredBy[kind] ?? 0).toBeGreaterThan(0);
  });

  it("load/every-injected-fault-survived", () => {
    expect(stats.faults).toBeGreaterThanOrEqual(4);
    expect(stats.faultLog.filter((l) => l.includes("timed out"))).toEqual([]);
    expect(stats.survived).toBe(stats.faults);
  });

  it("load/daemon-memory-returns-near-its-baseline", () => {
    // Near: a quarter above the warmed-up baseline plus a little slack, not a leak's unbounded growth.
    expect(stats.rssAfter).toBeLessThanOrEqual(stats.rssBefore * 1.25 + 16 * MiB);
  });
});
