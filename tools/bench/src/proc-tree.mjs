// CPU and memory of a whole process tree, read from /proc (Linux): a gateway that spawns its upstream
// (or a shell that spawns it) is charged for all of it, as an operator's machine would be.
import { readdirSync, readFileSync } from "node:fs";

const TICK_MS = 10; // USER_HZ is 100 on every Linux Node supports

const statOf = (pid) => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: split after its last ")".
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(fields[1]), cpuTicks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined; // the process has exited
  }
};

/** The pid and every descendant of it alive now. */
export function treeOf(root) {
  const children = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const s = statOf(name);
    if (!s) continue;
    const list = children.get(s.ppid) ?? [];
    list.push(Number(name));
    children.set(s.ppid, list);
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

/** CPU (user + system) used so far by these processes, in ms. */
export const cpuMs = (pids) => pids.reduce((sum, pid) => sum + (statOf(pid)?.cpuTicks ?? 0) * TICK_MS, 0);

const statusKiB = (pid, key) => {
  try {
    const line = readFileSync(`/proc/${pid}/status`, "utf8")
      .split("\n")
      .find((l) => l.startsWith(`${key}:`));
    return line ? Number(line.split(/\s+/)[1]) : 0;
  } catch {
    return 0;
  }
};

/** Resident memory now (VmRSS) and the most each process ever held (VmHWM), summed, in MiB. */
export const rssMiB = (pids) => pids.reduce((sum, pid) => sum + statusKiB(pid, "VmRSS"), 0) / 1024;
export const peakRssMiB = (pids) => pids.reduce((sum, pid) => sum + statusKiB(pid, "VmHWM"), 0) / 1024;
