/**
 * `mcpx serve` (the daemon's serve(), in this process) fronting @modelcontextprotocol/server-everything
 * over stdio and one upstream that is down (a closed loopback port), and Debian's chromium driven by
 * playwright-core at the console. Nothing downloads a browser: the executable is `which chromium`.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { type Serving, serve } from "@mcpx/daemon";
import { type Browser, chromium, type Page } from "playwright-core";

const require = createRequire(import.meta.url);
const everything = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");
const SCREENSHOTS = fileURLToPath(new URL("../../../docs/console/", import.meta.url));

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface ConsoleDaemon {
  serving: Serving;
  /** http://127.0.0.1:<port>/ */
  base: string;
  log: string[];
  stop(): Promise<void>;
}

/** A daemon on a config written to a temporary directory; `extra` joins the config's top level. */
export async function startDaemon(extra: Record<string, unknown> = {}, listen: Record<string, unknown> = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "mcpx-console-e2e-"));
  const port = await freePort();
  const down = await freePort(); // closed again at once: nothing listens there
  const config = {
    listen: { host: "127.0.0.1", port, ...listen },
    servers: {
      everything: { command: process.execPath, args: [everything, "stdio"] },
      down: { url: `http://127.0.0.1:${down}/mcp` },
    },
    stateDir: ".state",
    ...extra,
  };
  writeFileSync(path.join(dir, "mcpx.json"), JSON.stringify(config, null, 2));
  const log: string[] = [];
  const serving = await serve({
    configFile: path.join(dir, "mcpx.json"),
    writeLog: (line) => log.push(line),
    logLevel: "info",
  });
  await serving.runtime.gateway.pool.settled();
  return {
    serving,
    base: `http://127.0.0.1:${port}/`,
    log,
    async stop() {
      await serving.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  } satisfies ConsoleDaemon;
}

export function chromiumPath(): string {
  return execFileSync("which", ["chromium"], { encoding: "utf8" }).trim();
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    // As root in a container there is no user namespace for chromium's sandbox.
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
}

/** Saves the page under docs/console/<name>.png when MCPX_SCREENSHOTS=1 (for the README). */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.MCPX_SCREENSHOTS !== "1") return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
