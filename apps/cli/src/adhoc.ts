/**
 * A server named on the command line, with no config file: `--stdio "<command line>"` (split as a
 * shell would, shell-words.ts) or `--url <url>` with `--header K=V`, `--env K=V` for the child and
 * `--name` for its namespace. The one-server config is built in memory and checked like a file's
 * (the same schema, `${env:NAME}` expanded, the header values kept out of every message).
 */
import { type McpxConfig, NAMESPACE_PATTERN, parseConfig } from "@mcpx/config";
import type { Command } from "commander";
import { UsageError } from "./errors.js";
import type { MainIO } from "./io.js";
import { shellWords } from "./shell-words.js";

export interface AdHocOptions {
  stdio?: string;
  url?: string;
  header?: string[];
  env?: string[];
  name?: string;
}

/** The options of a command that can run on an ad-hoc server. */
export function adHocOptions(cmd: Command): Command {
  return cmd
    .option(
      "--stdio <command>",
      'an ad-hoc server, no config needed: the command line to run, e.g. "npx -y pkg"',
    )
    .option("--url <url>", "an ad-hoc server, no config needed: its Streamable HTTP or HTTP+SSE URL")
    .option("--header <name=value...>", "with --url: a header to send (e.g. Authorization='Bearer …')")
    .option("--env <name=value...>", "with --stdio: a variable for the server's environment")
    .option("--name <name>", "with --stdio or --url: the server's name and namespace");
}

/** The config of the ad-hoc server, or undefined when the command line names none. */
export function adHocConfig(opts: AdHocOptions, io: MainIO): McpxConfig | undefined {
  if (opts.stdio !== undefined && opts.url !== undefined) {
    throw new UsageError("--stdio and --url each name a server: give one");
  }
  if (opts.stdio === undefined && opts.url === undefined) {
    const stray = opts.header
      ? "--header"
      : opts.env
        ? "--env"
        : opts.name !== undefined
          ? "--name"
          : undefined;
    if (stray)
      throw new UsageError(`${stray} describes an ad-hoc server: add --stdio '<command>' or --url <url>`);
    return undefined;
  }
  if (opts.header && opts.stdio !== undefined) {
    throw new UsageError("--header goes with --url (a command's credentials go in its environment: --env)");
  }
  if (opts.env && opts.url !== undefined)
    throw new UsageError("--env goes with --stdio (for --url, use --header)");
  const env = io.env ?? process.env;
  const entry: Record<string, unknown> = {};
  let name = opts.name;
  if (opts.stdio !== undefined) {
    const [command, ...args] = shellWords(opts.stdio, env.HOME);
    entry.command = command;
    entry.args = args;
    // The command runs where mcpx was asked to run, as a shell would run it.
    entry.cwd = io.cwd ?? process.cwd();
    if (opts.env) entry.env = pairs("--env", opts.env);
    name ??= nameOfCommand(command as string, args);
  } else {
    entry.url = opts.url;
    if (opts.header) entry.auth = { type: "header", headers: pairs("--header", opts.header) };
    name ??= nameOfUrl(opts.url as string);
  }
  if (!new RegExp(NAMESPACE_PATTERN).test(name)) {
    throw new UsageError(
      `--name ${JSON.stringify(name)}: a name may hold letters, digits, _ and -, never "__", and may not end in "_"`,
    );
  }
  return parseConfig({ servers: { [name]: entry } }, io.env ? { env: io.env } : {});
}

function pairs(option: string, items: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items) {
    const eq = item.indexOf("=");
    if (eq <= 0) throw new UsageError(`${option} ${JSON.stringify(item)} is not name=value`);
    out[item.slice(0, eq)] = item.slice(eq + 1);
  }
  return out;
}

/** Commands that run a package or script named by their first argument. */
const RUNNERS = new Set([
  "npx",
  "pnpx",
  "bunx",
  "uvx",
  "pipx",
  "node",
  "bun",
  "deno",
  "tsx",
  "python",
  "python3",
  "uv",
  "pnpm",
  "yarn",
]);
/** Their own subcommands, before that argument (`pnpm dlx x`, `uv run x`, `deno run x`). */
const RUNNER_VERBS = new Set(["run", "dlx", "exec", "x", "tool"]);

/**
 * A name for a command's server: the package or script a runner runs (`npx -y @scope/server-x` →
 * server-x, `node ./weather.js` → weather, `uvx mcp-server-time` → mcp-server-time), else the
 * command itself (`/usr/local/bin/my-server` → my-server).
 */
export function nameOfCommand(command: string, args: readonly string[]): string {
  const runner = RUNNERS.has(command.split("/").at(-1) ?? command);
  const target = (runner && args.find((a) => !a.startsWith("-") && !RUNNER_VERBS.has(a))) || command;
  const parts = target.split("/").filter((p) => p !== "");
  // A version after the package's name goes (server-x@1.2 → server-x), a scope's @ stays for now.
  let base = (parts.at(-1) ?? target).replace(/(.)@.*$/, "$1");
  base = base.replace(/\.(m?[jt]s|cjs|py|sh)$/, "");
  // An entry point says less than the folder it is in: …/server-everything/dist/index.js.
  if (/^(index|main|server|cli)$/.test(base) && parts.length > 1) {
    base = parts.slice(0, -1).findLast((p) => !/^(dist|build|lib|src|bin)$/.test(p)) ?? base;
  }
  return sanitise(base);
}

/** A name for a URL's server: its host and port (mcp.example.com → mcp-example-com). */
export function nameOfUrl(url: string): string {
  try {
    const u = new URL(url);
    return sanitise(`${u.hostname}${u.port ? `-${u.port}` : ""}`);
  } catch {
    return "server";
  }
}

function sanitise(text: string): string {
  const name = text
    .replace(/^@/, "")
    .replace(/[^A-Za-z0-9_-]+/g, "-")
    .replace(/_{2,}/g, "_")
    .replace(/^[-_]+|[-_]+$/g, "");
  return name || "server";
}
