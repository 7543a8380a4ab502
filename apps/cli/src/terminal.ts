/**
 * The person at the terminal, when stderr is one: a call's progress bar is drawn there (when stdout
 * is a terminal too), and the questions upstreams ask (elicitations) are asked there (when stdin is
 * one too) by @mcpx/elicitation-tty, built in for the one-shot commands alone (`mcpx serve` has the
 * broker). Off a terminal nothing is drawn and nothing asked: the CLI behaves as it always did.
 */
import { isatty } from "node:tty";
import type { Plugin } from "@mcpx/core";
import { ttyElicitation } from "@mcpx/elicitation-tty";

/** What a question pauses while it holds the terminal (the progress bar of the call running). */
export interface StatusLine {
  pause(): void;
  resume(): void;
}

export interface Terminal {
  /** stderr. */
  readonly output: NodeJS.WritableStream & { columns?: number };
  /** stdin, when it is a terminal (made on first use). */
  readonly input: NodeJS.ReadableStream | undefined;
  /** The status line drawn now, if any. */
  status: StatusLine | undefined;
}

/** The process's terminal, or undefined when stderr is not one. */
export function processTerminal(): Terminal | undefined {
  if (!process.stderr.isTTY) return undefined;
  return {
    output: process.stderr,
    // isatty(0), not process.stdin.isTTY: reading process.stdin creates the stream.
    get input() {
      return isatty(0) ? process.stdin : undefined;
    },
    status: undefined,
  };
}

/** The built-ins a one-shot command adds on this terminal: the questions asked there. */
export function terminalPlugins(terminal: Terminal | undefined): Plugin<unknown>[] {
  const input = terminal?.input;
  if (!terminal || !input) return [];
  const plugin = ttyElicitation(() => ({
    input,
    output: terminal.output,
    onAsk: (asking) => (asking ? terminal.status?.pause() : terminal.status?.resume()),
  }));
  return [plugin as Plugin<unknown>];
}
