/**
 * A child process that records every module it loads: the preamble registers a module hook that
 * reports each resolved URL into a Set named `loaded`, then the probe's own code runs (a real
 * `mcpx serve`, say) and writes its findings to stdout as JSON. Tests of lazy loading use it.
 */
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Where the probe runs, so `@mcpx/*` resolve as the e2e package's dependencies. */
const E2E = join(dirname(fileURLToPath(import.meta.url)), "..");

const HOOK = `
let port;
export async function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  const found = await next(specifier, context);
  port.postMessage(found.url);
  return found;
}`;

/** The probe's first lines: after them, `loaded` holds every module URL resolved (close `port1` at the end). */
export const RECORD_LOADED_MODULES = `
import { register } from "node:module";
import { MessageChannel } from "node:worker_threads";
const { port1, port2 } = new MessageChannel();
const loaded = new Set();
port1.on("message", (url) => loaded.add(url));
register("data:text/javascript," + encodeURIComponent(${JSON.stringify(HOOK)}), {
  data: { port: port2 },
  transferList: [port2],
});
`;

/** Runs `code` (ESM, after RECORD_LOADED_MODULES) with `args`; its stdout is parsed as JSON. */
export async function runModuleProbe<T>(
  code: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<T> {
  const child = spawn(
    process.execPath,
    ["--input-type=module", "-e", RECORD_LOADED_MODULES + code, ...args],
    {
      cwd: E2E,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  let err = "";
  child.stdout.on("data", (c: Buffer) => {
    out += c.toString();
  });
  child.stderr.on("data", (c: Buffer) => {
    err += c.toString();
  });
  const code_ = await new Promise<number | null>((resolve) => child.on("close", resolve));
  if (code_ !== 0) throw new Error(`the child mcpx exited ${code_}: ${err}`);
  return JSON.parse(out) as T;
}
