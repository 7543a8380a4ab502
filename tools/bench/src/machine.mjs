// The machine a reading was taken on, as every bench's JSON and table header states it.
import os from "node:os";

const round2 = (xs) => xs.map((x) => +x.toFixed(2));

/** CPUs, model, memory, Node, OS and the load average before (given) and now (after). */
export function machineOf(loadBefore, loadAfter = os.loadavg()) {
  return {
    cpus: os.cpus().length,
    model: os.cpus()[0]?.model,
    memoryGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    loadavgBefore: round2(loadBefore),
    loadavgAfter: round2(loadAfter),
  };
}
