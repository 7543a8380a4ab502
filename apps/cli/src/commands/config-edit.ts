/**
 * `mcpx config add <name> (--stdio "<cmd>" | --url <url>) [--env K=V] [--header K=V] [--bearer-env VAR]`
 * and `mcpx config remove <name>`: one server added to or removed from the config file, in place; the
 * rest of the file keeps its layout (@mcpx/config edits only what changes).
 */
import { homedir } from "node:os";
import * as path from "node:path";
import { envOf, mergeServers, newServerEntry, removeServer, serversOf, starterConfig } from "@mcpx/config";
import { envNameProblem } from "@mcpx/core";
import { UsageError } from "../errors.js";
import type { MainIO } from "../io.js";
import { shellWords } from "../shell-words.js";
import { envLine, printWarnings, readOptional, serverLines, writeConfig } from "./config-output.js";

export interface AddOptions {
  config: string;
  stdio?: string;
  url?: string;
  env?: string[];
  header?: string[];
  bearerEnv?: string;
  namespace?: string;
  force?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

export async function configAdd(name: string, options: AddOptions, io: MainIO): Promise<number> {
  if ((options.stdio === undefined) === (options.url === undefined)) {
    throw new UsageError(
      "mcpx config add needs one of --stdio or --url",
      'e.g. mcpx config add fs --stdio "npx -y @modelcontextprotocol/server-filesystem ." or mcpx config add api --url https://example.com/mcp',
    );
  }
  if (options.stdio !== undefined && (options.header?.length || options.bearerEnv !== undefined)) {
    throw new UsageError(
      "--header and --bearer-env are for --url servers",
      "give a command server its credentials with --env NAME (passed on from mcpx's environment)",
    );
  }
  if (options.url !== undefined && options.env?.length) {
    throw new UsageError("--env is for --stdio servers", "a URL server takes --header or --bearer-env");
  }
  if (options.bearerEnv !== undefined) checkEnvName("--bearer-env", options.bearerEnv);

  const env = io.env ?? process.env;
  const parts = options.stdio !== undefined ? shellWords(options.stdio, env.HOME ?? homedir()) : [];
  const { entry, warnings } = newServerEntry(name, {
    ...(parts.length ? { command: parts[0]!, args: parts.slice(1) } : {}),
    ...(options.env?.length ? { env: envPairs(options.env) } : {}),
    ...(options.url !== undefined ? { url: options.url } : {}),
    ...(options.header?.length ? { headers: pairs("--header", options.header) } : {}),
    ...(options.bearerEnv !== undefined ? { bearerEnv: options.bearerEnv } : {}),
    ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
  });

  const file = path.resolve(io.cwd ?? process.cwd(), options.config);
  const existing = await readOptional(file);
  if (existing !== undefined && !options.force && Object.hasOwn(serversOf(existing, options.config), name)) {
    throw new UsageError(
      `${options.config} has a server named ${JSON.stringify(name)} already`,
      `--force replaces it; mcpx config remove ${name} removes it`,
    );
  }
  const merged = mergeServers(
    existing ?? starterConfig(),
    { [name]: entry },
    {
      onClash: options.force ? "replace" : "refuse",
      label: options.config,
    },
  );
  // As written: the merge may have given it a namespace.
  const added = { [name]: serversOf(merged.text)[name] ?? entry };
  const allWarnings = [...warnings, ...merged.warnings].map((w) => ({ file: options.config, ...w }));
  const needed = envOf(added);
  if (!options.dryRun) await writeConfig(file, merged.text);

  if (options.json) {
    const result = {
      ok: true,
      config: file,
      written: !options.dryRun,
      [merged.replaced.length ? "replaced" : "added"]: name,
      env: needed,
      warnings: allWarnings,
      ...(options.dryRun ? { result: JSON.parse(merged.text) as unknown } : {}),
    };
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  printWarnings(io, allWarnings);
  const [verb, done] = merged.replaced.length ? ["replace", "replaced"] : ["add", "added"];
  const lines = [
    `${options.config}: ${options.dryRun ? `would ${verb}` : done} server ${name}`,
    ...serverLines(added),
    ...envLine(needed),
    ...(options.dryRun ? ["nothing written (--dry-run)"] : []),
  ];
  if (options.dryRun) io.stdout(merged.text);
  (options.dryRun ? io.stderr : io.stdout)(`${lines.join("\n")}\n`);
  return 0;
}

export interface RemoveOptions {
  config: string;
  dryRun?: boolean;
  json?: boolean;
}

export async function configRemove(name: string, options: RemoveOptions, io: MainIO): Promise<number> {
  const file = path.resolve(io.cwd ?? process.cwd(), options.config);
  const existing = await readOptional(file);
  if (existing === undefined) {
    throw new UsageError(`no config file at ${file}`, "name another with --config");
  }
  const names = Object.keys(serversOf(existing, options.config));
  if (!names.includes(name)) {
    throw new UsageError(
      `${options.config} has no server named ${JSON.stringify(name)}`,
      names.length ? `it has ${names.join(", ")}` : "it has no servers",
    );
  }
  const { text } = removeServer(existing, name, { label: options.config });
  if (!options.dryRun) await writeConfig(file, text);
  if (options.json) {
    const result = { ok: true, config: file, written: !options.dryRun, removed: name };
    io.stdout(
      `${JSON.stringify({ ...result, ...(options.dryRun ? { result: JSON.parse(text) } : {}) }, null, 2)}\n`,
    );
  } else if (options.dryRun) {
    io.stdout(text);
    io.stderr(`${options.config}: would remove server ${name}\nnothing written (--dry-run)\n`);
  } else {
    io.stdout(`${options.config}: removed server ${name}\n`);
  }
  return 0;
}

/** `K=V` pairs; a bare `K` passes K on from mcpx's own environment (`${env:K}`). */
function envPairs(items: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items) {
    const eq = item.indexOf("=");
    const key = eq < 0 ? item : item.slice(0, eq);
    if (eq < 0) checkEnvName("--env", key);
    const problem = envNameProblem(key);
    if (problem) throw new UsageError(`--env ${JSON.stringify(item)}: the name ${problem}`);
    out[key] = eq < 0 ? `\${env:${key}}` : item.slice(eq + 1);
  }
  return out;
}

function pairs(option: string, items: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items) {
    const eq = item.indexOf("=");
    if (eq <= 0) throw new UsageError(`${option} ${JSON.stringify(item)}: expected NAME=VALUE`);
    out[item.slice(0, eq)] = item.slice(eq + 1);
  }
  return out;
}

/** A variable mcpx reads (`${env:NAME}`): letters, digits and _, not starting with a digit. */
function checkEnvName(option: string, name: string): void {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    throw new UsageError(
      `${option} ${JSON.stringify(name)}: not an environment variable name (letters, digits and _, not starting with a digit)`,
    );
  }
}
