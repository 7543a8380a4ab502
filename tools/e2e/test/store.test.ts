// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${env:NAME} is the config's own syntax
/**
 * The configured state store in the daemon: `"store": { "type": "redis", … }` loads the built-in
 * @mcpx/store-redis, checks its options, connects before serving (or fails at once), shows its type
 * in the status, is restart-only on reload, and carries era records between replicas.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError, type JSONObject, type LifecycleEvent, StoreUnavailableError } from "@mcpx/core";
import { type Serving, serve } from "@mcpx/daemon";
import { StoreEraStore } from "@mcpx/gateway";
import { type RunningRedis, startRedis } from "@mcpx/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { afterThisTest, configDir, freePort, mcpx } from "../src/index.js";

const sdkStdioServer = fileURLToPath(new URL("../fixtures/sdk-stdio-server.mjs", import.meta.url));
const PASSWORD = "e2e-redis-pass";

let redis: RunningRedis;
beforeAll(async () => {
  redis = await startRedis({ password: PASSWORD });
}, 30_000);
afterAll(async () => {
  await redis?.stop();
});

/** A config with the SDK's stdio server as upstream `up`, its own state directory, on `store`. */
async function replicaConfig(store: JSONObject | undefined): Promise<string> {
  const config: JSONObject = {
    listen: { host: "127.0.0.1", port: await freePort() },
    servers: { up: { command: process.execPath, args: [sdkStdioServer] } },
    stateDir: ".state",
    console: false,
  };
  if (store) config.store = store;
  return configDir(config);
}

async function start(dir: string, env: Record<string, string> = {}): Promise<Serving> {
  const serving = await serve({
    configFile: join(dir, "mcpx.json"),
    writeLog: () => {},
    logLevel: "error",
    env: { ...process.env, ...env },
  });
  afterThisTest(() => serving.stop());
  return serving;
}

function eraEvents(serving: Serving): LifecycleEvent[] {
  return serving.runtime.gateway.events
    .since(0)
    .map((e) => e as unknown as LifecycleEvent)
    .filter((e) => e.type === "era.resolved");
}

describe("store", () => {
  it("replicas/era-record-shared-through-the-store", async () => {
    const store = { type: "redis", url: "${env:E2E_REDIS_URL}", prefix: `era-${await freePort()}` };
    const env = { E2E_REDIS_URL: redis.url };
    const first = await start(await replicaConfig(store), env);
    await first.runtime.gateway.pool.settled();
    expect(eraEvents(first)).toMatchObject([{ upstream: "up", cached: false }]);
    const shared = first.runtime.eraStore as StoreEraStore;
    expect(shared).toBeInstanceOf(StoreEraStore);
    const probed = (await shared.all()).up;
    expect(probed?.revision).toBeTruthy();

    // Another replica, its own state directory, the same Redis: it goes straight to that era.
    const second = await start(await replicaConfig(store), env);
    await second.runtime.gateway.pool.settled();
    expect(second.runtime.gateway.pool.states()).toMatchObject([{ name: "up", status: "connected" }]);
    expect(eraEvents(second)).toMatchObject([
      { upstream: "up", cached: true, era: { revision: probed?.revision, probedAt: probed?.probedAt } },
    ]);
    expect((await shared.all()).up?.probedAt).toBe(probed?.probedAt);
  }, 60_000);

  it("store/daemon-status-shows-the-store-type-never-its-password", async () => {
    const dir = await replicaConfig({ type: "redis", url: "${env:E2E_REDIS_URL}", prefix: "status" });
    const serving = await start(dir, { E2E_REDIS_URL: redis.url });
    await serving.runtime.gateway.pool.settled();
    const control = new URL("/.mcpx/status", serving.url);
    const status = (await (await fetch(control)).json()) as JSONObject;
    expect(status.store).toEqual({ type: "redis", shared: true });
    expect(JSON.stringify(status)).not.toContain(PASSWORD);
    const cli = await mcpx(dir, { env: { E2E_REDIS_URL: redis.url } }, "status");
    expect(cli.stdout, cli.stderr).toContain("store: redis (shared between replicas)");
    expect(cli.stdout + cli.stderr).not.toContain(PASSWORD);
  }, 30_000);

  it("store/embedded-store-without-a-store-key", async () => {
    const serving = await start(await replicaConfig(undefined));
    const status = (await (await fetch(new URL("/.mcpx/status", serving.url))).json()) as JSONObject;
    expect(status.store).toEqual({ type: "memory", shared: false });
    expect(serving.runtime.eraStore.constructor.name).toBe("FileEraStore");
  });

  it("store/unknown-type-names-the-known-ones", async () => {
    const dir = await replicaConfig({ type: "rediss", url: "redis://127.0.0.1:1" });
    const failure = await start(dir).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as Error).message).toContain(
      'store.type: no installed plugin provides the store type "rediss"',
    );
    expect((failure as Error).message).toContain("known: redis");
  });

  it("store/bad-options-name-the-store-key", async () => {
    const dir = await replicaConfig({ type: "redis", url: "http://127.0.0.1:1", prefx: "typo" });
    const failure = await start(dir).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ConfigError);
    const problems = (failure as ConfigError).problems.join("\n");
    expect(problems).toContain("store.url");
    expect(problems).toContain("prefx");
  });

  it("store/daemon-fails-fast-when-the-store-refuses-the-connection", async () => {
    const gone = await startRedis();
    await gone.stop();
    const url = `redis://:${PASSWORD}@127.0.0.1:${gone.port}`;
    const dir = await replicaConfig({ type: "redis", url: "${env:E2E_REDIS_URL}" });
    const failure = await start(dir, { E2E_REDIS_URL: url }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    expect((failure as Error).message).toContain(`redis://:***@127.0.0.1:${gone.port}`);
    expect((failure as Error).message).toContain("connection refused");
    expect((failure as Error).message).not.toContain(PASSWORD);
    // The port was never bound: nothing listens there.
    const cli = await mcpx(dir, { env: { E2E_REDIS_URL: url } }, "serve");
    expect(cli.code).not.toBe(0);
    expect(cli.stderr).toContain("connection refused");
    expect(cli.stdout + cli.stderr).not.toContain(PASSWORD);
  }, 30_000);

  it("reload/store-is-restart-only", async () => {
    const dir = await replicaConfig({ type: "redis", url: "${env:E2E_REDIS_URL}", prefix: "reload-a" });
    const serving = await start(dir, { E2E_REDIS_URL: redis.url });
    const file = join(dir, "mcpx.json");
    const config = JSON.parse(await readFile(file, "utf8")) as JSONObject;
    await writeFile(
      file,
      JSON.stringify({
        ...config,
        store: { type: "redis", url: "${env:E2E_REDIS_URL}", prefix: "reload-b" },
      }),
    );
    const outcome = await serving.reload("control");
    expect(outcome).toMatchObject({ reloaded: true, restartOnly: ["store"] });
    expect(JSON.stringify(outcome)).not.toContain(PASSWORD);
    // The running store stays until a restart.
    expect(serving.runtime.host.store().type).toBe("redis");
  });
});
