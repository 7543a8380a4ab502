// mcpx's own idle RSS alone, read as compare.mjs reads it (started with one stdio upstream,
// server-everything; one call answered; 1 s later, VmRSS of mcpx's process, the upstream excluded),
// a few starts each, without the rest of the comparison:
//   node tools/bench/src/idle-rss.mjs [--runs 3] [--only mcpxLegacy,mcpxStdio]
import { parseArgs } from "node:util";
import { rssMiB } from "./proc-tree.mjs";
import { TARGETS } from "./targets.mjs";

const { values: opts } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    only: { type: "string", default: "mcpxLegacy,mcpxStdio" },
  },
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
for (const key of opts.only.split(",")) {
  const target = TARGETS.find((t) => t.key === key);
  if (!target) throw new Error(`no target ${key} (targets: ${TARGETS.map((t) => t.key).join(", ")})`);
  const readings = [];
  for (let i = 0; i < Number(opts.runs); i++) {
    const live = await target.start();
    try {
      await live.client.call("ready");
      await sleep(1000);
      readings.push(rssMiB([live.pid]));
    } finally {
      await live.stop();
    }
  }
  const sorted = [...readings].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  console.log(
    `${target.name}: own idle RSS ${median.toFixed(1)} MiB (runs: ${readings.map((r) => r.toFixed(1)).join(", ")})`,
  );
}
