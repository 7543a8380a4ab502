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

// ajv is CommonJS too. The daemon and every built-in plugin are applied (the elicitation broker has an
// options schema, given no options), a config is loaded, and no validator was needed yet.
const ajvProbe = `
import { createRequire } from "node:module";
import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const cache = createRequire(import.meta.url).cache;
const ajvLoaded = () => Object.keys(cache).some((k) => k.endsWith("/ajv/dist/ajv.js"));
const { loadBuiltinPlugins } = await import(${JSON.stringify(dist("apps/daemon"))});
const { loadConfig } = await import(${JSON.stringify(dist("packages/config"))});
const { createHost } = await import(${JSON.stringify(dist("packages/host"))});
const file = join(mkdtempSync(join(tmpdir(), "mcpx-memory-")), "mcpx.json");
writeFileSync(file, JSON.stringify({ servers: { s: { command: "node", args: ["s.js"] } } }));
const config = await loadConfig(file);
const host = createHost({});
const builtinPlugins = await loadBuiltinPlugins();
for (const plugin of builtinPlugins) await host.use(plugin);
const atStart = ajvLoaded();
const broker = builtinPlugins.find((p) => p.name === "@mcpx/elicitation-broker");
await createHost({}).use(broker, { timeoutMs: 1000 });
console.log(JSON.stringify({ servers: Object.keys(config.servers), atStart, afterOptions: ajvLoaded() }));
`;

describe("memory", () => {
  it("memory/ajv-loads-only-when-something-must-be-validated", async () => {
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", ajvProbe], {
      timeout: 60_000,
    });
    const seen = JSON.parse(stdout) as { servers: string[]; atStart: boolean; afterOptions: boolean };
    // A config checked by its generated validator, the plugins applied with their defaults: no ajv...
    expect(seen.servers).toEqual(["s"]);
    expect(seen.atStart).toBe(false);
    // ...until a plugin's options given in a config must be checked against its schema.
    expect(seen.afterOptions).toBe(true);
  }, 90_000);

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

// The same for ioredis (CommonJS too): the app bundles @mcpx/store-redis, and imports it only for
// `"store": { "type": "redis" }`.
const redisProbe = `
import { createRequire } from "node:module";
import net from "node:net";
const cache = createRequire(import.meta.url).cache;
const ioredisModules = () => Object.keys(cache).filter((k) => k.includes("/ioredis/")).length;
await import(${JSON.stringify(dist("apps/cli"))});
await import(${JSON.stringify(dist("apps/daemon"))});
const atStart = ioredisModules();
const { connectRedisStore } = await import(${JSON.stringify(dist("plugins/store-redis"))});
const { silentLogger } = await import(${JSON.stringify(dist("packages/core"))});
const afterPluginImport = ioredisModules();
// A port nothing listens on: the store fails to connect, having loaded ioredis to try.
const server = net.createServer();
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const port = server.address().port;
await new Promise((r) => server.close(r));
const error = await connectRedisStore({ url: "redis://127.0.0.1:" + port }, silentLogger).catch((e) => e.name);
console.log(JSON.stringify({ atStart, afterPluginImport, afterCreate: ioredisModules(), error }));
`;

describe("memory of the redis store", () => {
  it("memory/ioredis-not-loaded-by-the-app-without-a-redis-store", async () => {
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", redisProbe], {
      timeout: 60_000,
    });
    const seen = JSON.parse(stdout) as {
      atStart: number;
      afterPluginImport: number;
      afterCreate: number;
      error: string;
    };
    expect(seen.atStart).toBe(0);
    expect(seen.afterPluginImport).toBe(0);
    expect(seen.error).toBe("StoreUnavailableError");
    expect(seen.afterCreate).toBeGreaterThan(0);
  }, 90_000);
});
