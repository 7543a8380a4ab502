// What mcpx holds in memory before it serves anything: each module imported alone in a fresh Node
// process, its RSS and heap after a GC minus a bare process's. The modules overlap (a package counts
// what it imports), so read each line as "what importing this costs", not as shares of a total.
//   node tools/bench/src/import-cost.mjs [--json]
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const from = (pkgDir) => createRequire(`${root}${pkgDir}/package.json`);
const MODULES = [
  // the CLI as `mcpx serve` loads it, then what it is made of
  ["mcpx (apps/cli)", `${root}apps/cli/dist/index.js`],
  ...[
    "apps/daemon",
    "packages/gateway",
    "packages/client",
    "packages/config",
    "packages/core",
    "packages/host",
    "packages/http",
    "plugins/auth-oauth",
    "plugins/revision-2025-11-25",
    "plugins/revision-2026-07-28",
    "plugins/transport-stdio",
    "plugins/transport-streamable-http",
    "plugins/transport-http-sse",
  ].map((dir) => [`@mcpx/${dir.split("/")[1]}`, `${root}${dir}/dist/index.js`]),
  ["undici", from("packages/http").resolve("undici")],
  ["ajv", from("packages/config").resolve("ajv")],
  ["commander", from("apps/cli").resolve("commander")],
];

const probe = (file) =>
  `const gc = () => { globalThis.gc(); globalThis.gc(); };` +
  `gc(); const a = process.memoryUsage();` +
  (file ? `await import(${JSON.stringify(pathToFileURL(file).href)});` : "") +
  `gc(); const b = process.memoryUsage();` +
  `console.log(JSON.stringify({ rss: b.rss, heap: b.heapUsed, rssDelta: b.rss - a.rss, heapDelta: b.heapUsed - a.heapUsed }));`;
const measure = (file) =>
  JSON.parse(
    execFileSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", probe(file)], {
      encoding: "utf8",
    }),
  );

const MiB = (x) => +(x / 2 ** 20).toFixed(1);
const bare = measure(undefined);
const rows = MODULES.map(([name, file]) => {
  const m = measure(file);
  return { name, rssMiB: MiB(m.rss - bare.rss), heapMiB: MiB(m.heap - bare.heap) };
});
if (process.argv.includes("--json")) {
  process.stdout.write(
    `${JSON.stringify({ bare: { rssMiB: MiB(bare.rss), heapMiB: MiB(bare.heap) }, rows }, null, 2)}\n`,
  );
} else {
  process.stdout.write(
    `a bare Node process: ${MiB(bare.rss)} MiB RSS, ${MiB(bare.heap)} MiB heap; each import adds:\n`,
  );
  process.stdout.write("| module | RSS MiB | heap MiB |\n| --- | --: | --: |\n");
  for (const r of rows) process.stdout.write(`| ${r.name} | ${r.rssMiB} | ${r.heapMiB} |\n`);
}
