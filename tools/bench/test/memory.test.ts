import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const dist = (p: string) => fileURLToPath(new URL(`../../../${p}/dist/index.js`, import.meta.url));

// A fresh process, so what is loaded is what mcpx loaded: undici is CommonJS, and every module of
// it lands in the require cache when anything imports it.
const probe = `
import { createRequire } from "node:module";
import http from "node:http";
const cache = createRequire(import.meta.url).cache;
const undiciModules = () => Object.keys(cache).filter((k) => k.includes("/undici/")).length;
await import(${JSON.stringify(dist("apps/cli"))});
await import(${JSON.stringify(dist("apps/daemon"))});
const { HttpClient } = await import(${JSON.stringify(dist("packages/http"))});
const atStart = undiciModules();
const unused = new HttpClient("unused");
await unused.destroy();
const afterUnused = undiciModules();
const server = http.createServer((_req, res) => res.end("ok"));
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const client = new HttpClient("up");
const answer = await client.send("GET", new URL("http://127.0.0.1:" + server.address().port + "/"), {});
await answer.body.text();
await client.destroy();
server.close();
console.log(JSON.stringify({ atStart, afterUnused, afterRequest: undiciModules(), status: answer.status }));
`;

describe("memory", () => {
  it("memory/undici-loads-only-when-an-http-upstream-is-used", async () => {
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", probe], { timeout: 60_000 });
    const seen = JSON.parse(stdout) as {
      atStart: number;
      afterUnused: number;
      afterRequest: number;
      status: number;
    };
    // The CLI, the daemon and every built-in plugin are loaded, and undici is not...
    expect(seen.atStart).toBe(0);
    expect(seen.afterUnused).toBe(0);
    // ...until an HTTP upstream sends its first request.
    expect(seen.status).toBe(200);
    expect(seen.afterRequest).toBeGreaterThan(0);
  }, 90_000);
});
