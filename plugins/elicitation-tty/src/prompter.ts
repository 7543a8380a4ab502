/**
 * One question's hold on the terminal: a node:readline interface over the input and output for as
 * long as it is asked, closed after (which gives the terminal its cooked mode back). Ctrl-C while it
 * asks (readline reads it as a key in raw mode, so the process gets no SIGINT), the end of the input
 * and the server withdrawing the question all end it with Dismissed.
 */
import { createInterface, type Interface } from "node:readline";

export interface TerminalStreams {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Whether to drive the input as a terminal (raw mode, line editing); default: output.isTTY. */
  terminal?: boolean;
}

export type DismissedBy = "interrupt" | "end-of-input" | "withdrawn";

/** The person pressed Ctrl-C, the input ended, or the server withdrew the question. */
export class Dismissed extends Error {
  constructor(readonly by: DismissedBy) {
    super(`the question was dismissed (${by})`);
    this.name = "Dismissed";
  }
}

export class Prompter {
  readonly #rl: Interface;
  readonly #output: NodeJS.WritableStream;
  readonly #signal: AbortSignal;
  #dismissed: DismissedBy | undefined;
  #fail: ((by: DismissedBy) => void) | undefined;
  readonly #onAbort = () => this.#dismiss("withdrawn");

  constructor(streams: TerminalStreams, signal: AbortSignal) {
    this.#output = streams.output;
    this.#signal = signal;
    const terminal = streams.terminal ?? (streams.output as { isTTY?: boolean }).isTTY === true;
    this.#rl = createInterface({ input: streams.input, output: streams.output, terminal, historySize: 0 });
    this.#rl.on("SIGINT", () => this.#dismiss("interrupt"));
    this.#rl.on("close", () => this.#dismiss("end-of-input"));
    // readline re-emits its input's errors; a terminal that breaks ends the prompt like end of input.
    this.#rl.on("error", () => this.#dismiss("end-of-input"));
    if (signal.aborted) this.#dismissed = "withdrawn";
    else signal.addEventListener("abort", this.#onAbort, { once: true });
  }

  #dismiss(by: DismissedBy): void {
    this.#dismissed ??= by;
    const fail = this.#fail;
    this.#fail = undefined;
    fail?.(by);
  }

  /** Writes a line (or several) of its own. */
  say(text: string): void {
    this.#output.write(`${text}\n`);
  }

  /** Asks and resolves with what was typed (without the newline). */
  ask(prompt: string): Promise<string> {
    if (this.#dismissed) return Promise.reject(new Dismissed(this.#dismissed));
    return new Promise((resolve, reject) => {
      this.#fail = (by) => reject(new Dismissed(by));
      this.#rl.question(prompt, (answer) => {
        this.#fail = undefined;
        resolve(answer);
      });
    });
  }

  /** Lets go of the terminal. */
  close(): void {
    this.#signal.removeEventListener("abort", this.#onAbort);
    this.#dismissed ??= "end-of-input";
    this.#fail = undefined;
    this.#rl.close();
  }
}
