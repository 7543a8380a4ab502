// The report as markdown, so a run's output pastes into the README as it is.
const num = (x, digits) => (Number.isFinite(x) ? x.toFixed(digits) : "—");

/** A cell: the figure, or "failed" where the target could not do it. */
function cell(row, failureKey, x, digits) {
  if (row.failed.start) return "failed";
  if (row.failed[failureKey] && !Number.isFinite(x)) return "failed";
  return num(x, digits);
}

export function renderTable(report) {
  const { rows, checks, machine, settings } = report;
  const out = [];
  out.push(
    `${report.date} — ${machine.cpus}× ${machine.model}, ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.os}; load average ${machine.loadavgBefore.join(" ")} before, ${machine.loadavgAfter.join(" ")} after`,
  );
  out.push(
    `median of ${settings.rounds} interleaved round(s); ${settings.calls} sequential calls and ${settings.throughputCalls} per concurrency level a round, after ${settings.warmup} to warm up\n`,
  );
  out.push(
    "| target | p50 ms | p99 ms | CPU ms/call (tree) | calls/s @1 | @16 | @64 | idle RSS MiB (tree / own) | peak RSS MiB (tree) | 64 KiB ms | 1 MiB ms | 16 MiB ms |",
  );
  out.push("| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |");
  for (const r of rows) {
    const idle = r.failed.start ? "failed" : `${num(r.idleRssMiB, 0)} / ${num(r.ownIdleRssMiB, 0)}`;
    out.push(
      `| ${[
        r.name,
        cell(r, "sequential", r.p50Ms, 3),
        cell(r, "sequential", r.p99Ms, 3),
        cell(r, "sequential", r.cpuMsPerCall, 3),
        ...[1, 16, 64].map((n) => cell(r, `throughput@${n}`, r.callsPerSecond[n], 0)),
        idle,
        r.failed.start ? "failed" : num(r.peakRssMiB, 0),
        ...["64 KiB", "1 MiB", "16 MiB"].map((p) => cell(r, p, r.payloadMs[p], 1)),
      ].join(" | ")} |`,
    );
  }
  const failures = rows.flatMap((r) =>
    Object.entries(r.failed).map(([what, why]) => `- ${r.name}, ${what}: ${why}`),
  );
  for (const r of rows)
    if (r.restarts > 0)
      failures.push(
        `- ${r.name}: stopped answering and was started again ${r.restarts} time(s); its figures are the medians of the rounds it answered`,
      );
  if (failures.length) out.push("", "Failed:", ...failures);
  // "bare proxy": the same ratio read for the bare proxy in this run (the hops alone, no MCP work).
  out.push(
    "",
    "| target (issue 20) | path | measured | verdict | bare proxy |",
    "| --- | --- | --: | --- | --: |",
  );
  const shown = (value, unit) =>
    Number.isFinite(value) ? (unit === "×" ? `×${value.toFixed(2)}` : `${value.toFixed(1)} ${unit}`) : "—";
  for (const c of checks) {
    out.push(
      `| ${c.target} | ${c.path} | ${shown(c.value, c.unit)} | ${c.note} | ${shown(c.bareProxy, "×")} |`,
    );
  }
  return `${out.join("\n")}\n`;
}
