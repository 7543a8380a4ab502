/** The logger's implementation: one line per call, structured fields, secrets replaced in every line. */
import type { Logger, LogLevel } from "@mcpx/core";

const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export interface LoggerOptions {
  level?: LogLevel;
  /** Where a finished line goes; stderr by default, since stdout may carry MCP. */
  write?: (line: string) => void;
  /** Values replaced by "[redacted]" in every line, whatever field or message they appear in. */
  secrets?: () => Iterable<string>;
  json?: boolean;
}

export function redact(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const s of secrets) {
    if (s.length >= 4 && out.includes(s)) out = out.split(s).join("[redacted]");
  }
  return out;
}

export function createLogger(options: LoggerOptions = {}, bindings: Record<string, unknown> = {}): Logger {
  const level = options.level ?? "info";
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const threshold = rank[level];
  const emit = (lvl: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (rank[lvl] < threshold) return;
    const all = { ...bindings, ...fields };
    let line: string;
    if (options.json) {
      line = JSON.stringify({ time: new Date().toISOString(), level: lvl, message, ...all });
    } else {
      const tail = Object.entries(all)
        .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
        .join(" ");
      line = `mcpx ${lvl.padEnd(5)} ${message}${tail ? ` ${tail}` : ""}`;
    }
    write(options.secrets ? redact(line, options.secrets()) : line);
  };
  return {
    level,
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
    child: (b) => createLogger(options, { ...bindings, ...b }),
  };
}
