/** Runs the `mcpx` command in-process on a config written to a temporary directory. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "mcpx";
import { afterEach } from "vitest";

const require = createRequire(import.meta.url);
/** server-everything's entry point, run with node (no download at test time). */
export const EVERYTHING = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

export async function configDir(config: unknown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "mcpx-cli-"));
  dirs.push(dir);
  await writeFile(join(dir, "mcpx.json"), JSON.stringify(config, null, 2));
  return dir;
}

export interface McpxRunOptions {
  /** Added over the test process's environment (and the state directory below). */
  env?: Record<string, string | undefined>;
}

/**
 * Runs `mcpx <argv>` in `dir`. The environment is the test process's with XDG_STATE_HOME pointing
 * into `dir` (so era records never land in the real ~/.local/state), and `options.env` over both.
 */
export async function mcpx(dir: string, ...args: [McpxRunOptions, ...string[]] | string[]) {
  const options: McpxRunOptions = typeof args[0] === "object" ? (args.shift() as McpxRunOptions) : {};
  const argv = args as string[];
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    cwd: dir,
    env: { ...process.env, XDG_STATE_HOME: join(dir, ".state"), ...options.env },
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
  });
  return { code, stdout, stderr };
}
