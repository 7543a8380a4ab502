/**
 * The CLI's exit codes and the errors that carry them. Scripts branch on the code, so each means one
 * thing (documented in `mcpx --help` and the README):
 *   0 ok · 1 the call failed (the upstream answered an error, or a result with isError) ·
 *   2 usage or config · 3 unreachable (an upstream that failed to connect or is not connected, or no
 *   daemon answering).
 */

export const EXIT_OK = 0;
/** The call failed: the upstream answered an error, or a result with isError (or something unexpected). */
export const EXIT_FAILURE = 1;
/** The command line or the config is wrong (or a plugin the config lists). */
export const EXIT_USAGE = 2;
/** The config (or a plugin it lists) is invalid: a usage error like any other. */
export const EXIT_CONFIG = EXIT_USAGE;
/** An upstream (or the daemon) cannot be reached. */
export const EXIT_UNREACHABLE = 3;

/** An error of the CLI's own, with its exit code, a stable string code for --json, and a hint. */
export abstract class CliError extends Error {
  abstract readonly exitCode: number;
  abstract readonly code: string;
  readonly hint: string | undefined;
  constructor(message: string, hint?: string) {
    super(message);
    this.name = new.target.name;
    this.hint = hint;
  }
}

/** What was typed cannot be run: an unknown tool or server, an argument that does not fit its type. */
export class UsageError extends CliError {
  readonly exitCode = EXIT_USAGE;
  readonly code = "usage";
}

/** An upstream (or the daemon) that is not connected: the command could not ask it anything. */
export class UnreachableError extends CliError {
  readonly exitCode = EXIT_UNREACHABLE;
  readonly code = "unreachable";
}

/** A running daemon serves another config than the one asked about (`mcpx status` without --any). */
export class OtherConfigError extends CliError {
  readonly exitCode = EXIT_USAGE;
  readonly code = "other-config";
}

/**
 * `mcpx auth login` could not sign in: the redirect's port is busy, nobody came back in time, the
 * authorization server refused. The message says which.
 */
export class LoginError extends CliError {
  readonly exitCode = EXIT_FAILURE;
  readonly code = "login";
}
