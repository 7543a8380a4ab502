/** A session of the scheme against the test servers, and a logger that keeps every line. */
import type { LiveCredentials, Logger, LogLevel } from "@mcpx/core";
import { afterEach } from "vitest";
import { type Authorizer, createOAuthScheme, MemoryTokenStore, type TokenStore } from "../../src/index.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

/** Closed after the test. */
export function closing<T extends { close(): Promise<void> }>(thing: T): T {
  cleanups.push(() => thing.close());
  return thing;
}

export interface CapturingLogger extends Logger {
  lines: string[];
}

export function capturingLogger(lines: string[] = []): CapturingLogger {
  const write = (level: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
    lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  };
  return {
    lines,
    level: "debug",
    debug: write("debug"),
    info: write("info"),
    warn: write("warn"),
    error: write("error"),
    child: () => capturingLogger(lines),
  };
}

export interface SessionSetup {
  authorizer?: Authorizer;
  store?: TokenStore;
  log?: Logger;
  options?: Record<string, unknown>;
  name?: string;
}

/** The live credentials the scheme gives an upstream at `url`. */
export async function sessionFor(url: string, setup: SessionSetup = {}): Promise<LiveCredentials> {
  const scheme = createOAuthScheme(
    {
      ...(setup.authorizer ? { authorizer: setup.authorizer } : {}),
      store: setup.store ?? new MemoryTokenStore(),
    },
    setup.log,
  );
  const effect = await scheme.apply(setup.options ?? {}, { name: setup.name ?? "up", url });
  if (!effect.live) throw new Error("the oauth scheme gave no live credentials");
  return effect.live;
}
