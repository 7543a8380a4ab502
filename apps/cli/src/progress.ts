/**
 * The one-line progress bar of `mcpx call` on a terminal, drawn on stderr from the upstream's
 * notifications/progress: a bar and the share done when the server gives a total, the count alone
 * when it does not, a spinner turning either way, and the notification's message when its revision
 * carries one (2025-03-26 on). It is drawn over itself (carriage return, erase line) and never wider
 * than the terminal (a line that wrapped could not be erased); a question asked on the terminal
 * pauses it, and it is erased when the call ends, leaving nothing behind.
 */
import { forTerminal } from "./render.js";

const SPINNER = ["|", "/", "-", "\\"];
const BAR_WIDTH = 20;
/** How often the spinner turns while nothing new arrives, so a person sees the call is alive. */
const SPIN_MS = 150;
/** Carriage return, then erase the whole line (ECMA-48 EL 2). */
const ERASE = "\r\u001b[2K";

export interface ProgressOutput {
  write(text: string): unknown;
  /** The terminal's width (default 80). */
  columns?: number;
}

export class ProgressBar {
  readonly #out: ProgressOutput;
  #progress: number | undefined;
  #total: number | undefined;
  #message = "";
  #frame = 0;
  #timer: NodeJS.Timeout | undefined;
  #drawn = false;
  #paused = false;
  #ended = false;

  constructor(out: ProgressOutput) {
    this.#out = out;
  }

  /** A notifications/progress's params (its progressToken aside). */
  update(params: Record<string, unknown>): void {
    if (this.#ended || typeof params.progress !== "number") return;
    this.#progress = params.progress;
    this.#total = typeof params.total === "number" && params.total > 0 ? params.total : undefined;
    // Each notification says what it says now: a message is not carried over to one without.
    this.#message =
      typeof params.message === "string" ? forTerminal(params.message).replace(/\s+/g, " ") : "";
    this.#frame++;
    this.#draw();
    if (!this.#timer) {
      this.#timer = setInterval(() => {
        this.#frame++;
        this.#draw();
      }, SPIN_MS);
      this.#timer.unref();
    }
  }

  /** The line as drawn now (without the control sequences around it). */
  line(): string {
    if (this.#progress === undefined) return "";
    const spin = SPINNER[this.#frame % SPINNER.length];
    let text: string;
    if (this.#total !== undefined) {
      const share = Math.min(1, Math.max(0, this.#progress / this.#total));
      const filled = Math.round(share * BAR_WIDTH);
      const percent = `${Math.floor(share * 100)}%`.padStart(4);
      text = `${spin} [${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}] ${percent} ${this.#progress}/${this.#total}`;
    } else {
      text = `${spin} ${this.#progress}`;
    }
    if (this.#message) text += ` ${this.#message}`;
    const width = Math.max(10, (this.#out.columns ?? 80) - 1);
    return text.length > width ? `${text.slice(0, width - 1)}…` : text;
  }

  /** Erased and not drawn (a question takes the terminal) until resume. */
  pause(): void {
    this.#paused = true;
    this.#erase();
  }

  resume(): void {
    this.#paused = false;
    this.#draw();
  }

  /** Erased for good: the call ended. */
  end(): void {
    this.#ended = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#erase();
  }

  #draw(): void {
    if (this.#paused || this.#ended || this.#progress === undefined) return;
    this.#out.write(`${ERASE}${this.line()}`);
    this.#drawn = true;
  }

  #erase(): void {
    if (!this.#drawn) return;
    this.#out.write(ERASE);
    this.#drawn = false;
  }
}
