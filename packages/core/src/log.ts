/**
 * The logger every package writes through, as an interface: plugins receive one from the host
 * (`host.log`). Fields are structured; the implementation (lines, levels, JSON, redaction of
 * secrets) is @mcpx/host's createLogger.
 */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** A logger that adds these fields to every line (e.g. the upstream's name). */
  child(bindings: Record<string, unknown>): Logger;
  readonly level: LogLevel;
}

const nothing = () => {};

/** A logger that writes nothing (tests, and code given no logger). */
export const silentLogger: Logger = Object.freeze({
  level: "silent",
  debug: nothing,
  info: nothing,
  warn: nothing,
  error: nothing,
  child: () => silentLogger,
});
