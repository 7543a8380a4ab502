/**
 * How a failed command ends: one readable line on stderr (`mcpx: what went wrong (hint)`), or with
 * --json one JSON object `{ "error": { "code", "message", "hint"? } }` on stderr, and the exit code
 * that says which kind of failure it was (errors.ts).
 */
import {
  ConfigError,
  ConnectionClosedError,
  McpError,
  PluginError,
  UpstreamUnavailableError,
} from "@mcpx/core";
import type { CommanderError } from "commander";
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_UNREACHABLE, EXIT_USAGE, UsageError } from "./errors.js";
import type { MainIO } from "./io.js";
import { forTerminal } from "./render.js";

interface Reported {
  exitCode: number;
  code: string;
  message: string;
  hint?: string;
  /** The lines a person reads (several only for a config with several problems). */
  lines?: string[];
}

export function reportError(err: unknown, io: MainIO, json: boolean): number {
  const r = classify(err);
  if (json) {
    const error = { code: r.code, message: r.message, ...(r.hint ? { hint: r.hint } : {}) };
    io.stderr(`${JSON.stringify({ error })}\n`);
  } else {
    const hint = r.hint ? ` (${r.hint})` : "";
    // An upstream's words, as it wrote them, minus what would drive the terminal.
    for (const line of r.lines ?? [r.message]) io.stderr(`mcpx: ${forTerminal(line)}${hint}\n`);
  }
  return r.exitCode;
}

/**
 * A command-line error of commander's: its message without the "error: " prefix, its suggestion
 * ("Did you mean tools?") as the hint, and where to read the usage. Help and --version are no errors.
 */
export function reportUsage(err: CommanderError, path: string, io: MainIO, json: boolean): number {
  if (err.code === "commander.helpDisplayed" || err.code === "commander.version") return EXIT_OK;
  const help = path ? `mcpx ${path} --help` : "mcpx --help";
  if (err.code === "commander.help") {
    // A command with subcommands run without one: its help is on stderr already (unless --json).
    return reportError(
      new UsageError(`${path ? `mcpx ${path}` : "mcpx"} needs a command`, `${help} lists them`),
      io,
      json,
    );
  }
  const text = err.message.replace(/^error: /, "");
  const suggestion = /\n?\(Did you mean (.+)\?\)\s*$/.exec(text);
  const message = (suggestion ? text.slice(0, suggestion.index) : text).trim();
  const hint = suggestion ? `did you mean ${suggestion[1]}?` : `${help} for usage`;
  return reportError(new UsageError(message, hint), io, json);
}

function classify(err: unknown): Reported {
  if (err instanceof CliError) {
    return {
      exitCode: err.exitCode,
      code: err.code,
      message: err.message,
      ...(err.hint ? { hint: err.hint } : {}),
    };
  }
  if (err instanceof ConfigError) return configProblem(err);
  if (err instanceof PluginError) return { exitCode: EXIT_USAGE, code: "config", message: err.message };
  if (unreachable(err)) {
    return { exitCode: EXIT_UNREACHABLE, code: "unreachable", message: (err as Error).message };
  }
  if (err instanceof McpError) {
    // The upstream answered with an error: the call failed, and its JSON-RPC code says how.
    return { exitCode: EXIT_FAILURE, code: "call-failed", message: `${err.message} (JSON-RPC ${err.code})` };
  }
  return {
    exitCode: EXIT_FAILURE,
    code: "failed",
    message: err instanceof Error ? err.message : String(err),
  };
}

/** A config that cannot be read names the file by its absolute path and says how to make one. */
function configProblem(err: ConfigError): Reported {
  const cause = err.cause as NodeJS.ErrnoException | undefined;
  if (cause?.code === "ENOENT" && typeof cause.path === "string") {
    return {
      exitCode: EXIT_USAGE,
      code: "config",
      message: `no config file at ${cause.path}`,
      hint: "create one with `mcpx config init`, name another with --config, or run a server without one: --stdio '<command>' or --url <url>",
    };
  }
  return { exitCode: EXIT_USAGE, code: "config", message: err.message, lines: err.problems };
}

/**
 * The upstream could not be asked: its connection closed, or mcpx refused the request because the
 * upstream is down (UpstreamUnavailableError, JSON-RPC -31002, in core's catalogue of local codes).
 */
function unreachable(err: unknown): boolean {
  return err instanceof ConnectionClosedError || err instanceof UpstreamUnavailableError;
}
