/**
 * Loading only a config's `listen` block: what a command that talks to a running daemon needs (its
 * address and token) and nothing more. `${env:NAME}` is expanded in `listen` alone, so `mcpx status`
 * runs without the variables that hold the upstreams' secrets, and never reads them.
 */
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import { ConfigError } from "@mcpx/core";
import { expandEnv } from "./env.js";
import { JsonSyntaxError, parseJson } from "./json.js";
import { DEFAULT_LISTEN, type LoadOptions } from "./load.js";
import type { ListenConfig } from "./types.js";
import { validateConfig } from "./validate.js";

export interface ListenOnly {
  /** The config file's absolute path. */
  path: string;
  listen: ListenConfig;
}

/** Reads a config file's `listen` (with its defaults). Throws ConfigError, as loadConfig does. */
export async function loadListen(file: string, options: LoadOptions = {}): Promise<ListenOnly> {
  const configPath = path.resolve(file);
  const fail = (problems: string[], cause?: unknown) =>
    new ConfigError(`${file}: ${problems.join("; ")}`, problems, cause === undefined ? undefined : { cause });
  let text: string;
  try {
    text = await readFile(configPath, "utf8");
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (err as Error).message;
    throw fail([`cannot read the config file: ${reason}`], err);
  }
  let data: unknown;
  try {
    data = parseJson(text);
  } catch (err) {
    const where = err instanceof JsonSyntaxError ? `at line ${err.line}, column ${err.column}: ` : "";
    const what =
      err instanceof JsonSyntaxError ? err.message.slice(err.message.indexOf(": ") + 2) : String(err);
    throw fail([`invalid JSON ${where}${what}`], err);
  }
  const written =
    typeof data === "object" && data !== null ? (data as { listen?: unknown }).listen : undefined;
  // Checked as a config with no servers, so only what `listen` holds can be wrong.
  const expansion = expandEnv({ listen: written ?? {} }, options.env ?? process.env);
  // As loadConfig does: a reference that failed is left as written, and what the schema says of it is noise.
  const failedAt = expansion.problems.map((p) => p.path);
  const problems = [
    ...expansion.problems.map((p) => `${p.path}: ${p.message}`),
    ...validateConfig({ ...(expansion.value as object), servers: {} }).filter(
      (line) => !failedAt.some((at) => line.startsWith(`${at}: `) || line.startsWith(`${at}.`)),
    ),
  ];
  if (problems.length > 0) throw fail(problems);
  const listen = (expansion.value as { listen: Partial<ListenConfig> }).listen;
  return {
    path: configPath,
    listen: { ...DEFAULT_LISTEN, ...listen, sessions: { ...DEFAULT_LISTEN.sessions, ...listen.sessions } },
  };
}
