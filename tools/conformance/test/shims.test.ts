/**
 * The Node 20 shims, in child processes as the suite gets them (`node --import shims/node20.mjs`):
 * the suite starts at all (its `globSync` import from "fs" resolves), globSync answers as Node 22's
 * does, and every server the process starts listens on 127.0.0.1 with its port known at once.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { PACKAGE_DIR, SUITES } from "../src/suite.js";

const run = promisify(execFile);
const SHIMS = path.join(PACKAGE_DIR, "shims", "node20.mjs");

const node = (args: string[]) => run(process.execPath, args, { cwd: PACKAGE_DIR });

// Each test starts Node (and the suite) in a child: seconds on a loaded machine, not the default 5.
describe("the Node 20 shims", { timeout: 60_000 }, () => {
  for (const suite of SUITES) {
    it(`shims/suite-${suite.version}-starts-on-node-20`, async () => {
      const { stdout } = await node(["--import", SHIMS, suite.entry, "list"]);
      expect(stdout).toContain("Client scenarios");
      expect(stdout).toMatch(/^\s+- initialize \[/m);
    });
  }

  it("shims/globsync-relative-paths-like-node-22", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "mcpx-glob-"));
    mkdirSync(path.join(dir, "a", "b"), { recursive: true });
    writeFileSync(path.join(dir, "a", "checks.json"), "[]");
    writeFileSync(path.join(dir, "a", "b", "checks.json"), "[]");
    writeFileSync(path.join(dir, "a", "other.json"), "[]");
    const code = `import("./shims/fs-with-glob.mjs").then((fs) => {
      console.log(JSON.stringify({ found: fs.globSync("**/checks.json", { cwd: ${JSON.stringify(dir)} }).sort(),
        readFileSync: typeof fs.readFileSync, default: typeof fs.default.existsSync }));
    })`;
    const { stdout } = await node(["-e", code]);
    expect(JSON.parse(stdout)).toEqual({
      found: [path.join("a", "b", "checks.json"), path.join("a", "checks.json")],
      readFileSync: "function",
      default: "function",
    });
  });

  it("shims/every-listen-binds-loopback-synchronously", async () => {
    const code = `
      const http = require("node:http");
      const out = [];
      for (const args of [[0], [0, () => {}], [{ port: 0 }], [0, "0.0.0.0"], [0, "::"], [], [{ port: 0, host: "::" }]]) {
        const server = http.createServer();
        server.listen(...args);
        out.push(server.address()?.address ?? null);
        server.close();
      }
      console.log(JSON.stringify(out));`;
    const { stdout } = await node(["--import", SHIMS, "-e", code]);
    expect(JSON.parse(stdout)).toEqual(Array(7).fill("127.0.0.1"));
  });
});
