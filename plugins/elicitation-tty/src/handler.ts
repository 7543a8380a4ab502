/**
 * The elicitation handler that asks on the terminal. It takes a question only while its input and
 * output are terminals (otherwise the next handler answers: the broker, or cancel), asks one question
 * at a time (two upstreams asking at once wait their turn), names the server that asks (the spec:
 * clients MUST make clear which server is requesting information), and gives the terminal back to
 * whoever drew on it (the CLI's progress bar) when done.
 */
import {
  type ElicitationHandler,
  type ElicitRequestParams,
  type ElicitResult,
  forTerminal,
  oneLine,
  type ServerRequestContext,
} from "@mcpx/core";
import { askForm } from "./form.js";
import { Dismissed, Prompter, type TerminalStreams } from "./prompter.js";
import { askUrl, type OpenUrl } from "./url.js";

export interface TtyTerminal extends TerminalStreams {
  /**
   * Whether a person is there to ask: input and output are terminals (default: their isTTY). A
   * question is never asked, and a browser never opened, otherwise.
   */
  interactive?: boolean | (() => boolean);
  /** Told before a question takes the terminal (true) and after it gives it back (false). */
  onAsk?: (asking: boolean) => void;
  /** Opens a URL the person consented to; absent: the person opens it. */
  openUrl?: OpenUrl;
}

export class TtyElicitation {
  readonly #terminal: TtyTerminal;
  /** The question being asked: the next one waits for it. */
  #turn: Promise<unknown> = Promise.resolve();

  constructor(terminal: TtyTerminal) {
    this.#terminal = terminal;
  }

  /** Whether a person can be asked now. */
  interactive(): boolean {
    const { interactive, input, output } = this.#terminal;
    if (typeof interactive === "function") return interactive();
    if (interactive !== undefined) return interactive;
    return (input as { isTTY?: boolean }).isTTY === true && (output as { isTTY?: boolean }).isTTY === true;
  }

  handler(name: string): ElicitationHandler {
    return {
      name,
      modes: ["form", "url"],
      canAnswer: () => this.interactive(),
      handle: (req, ctx) => this.ask(req, ctx),
    };
  }

  ask(req: ElicitRequestParams, ctx: ServerRequestContext): Promise<ElicitResult> {
    const asked = this.#turn.then(() => this.#ask(req, ctx));
    this.#turn = asked.catch(() => {});
    return asked;
  }

  async #ask(req: ElicitRequestParams, ctx: ServerRequestContext): Promise<ElicitResult> {
    // Withdrawn while it waited its turn: nobody is shown anything.
    if (ctx.signal.aborted) return { action: "cancel" };
    const terminal = this.#terminal;
    terminal.onAsk?.(true);
    const prompter = new Prompter(terminal, ctx.signal);
    try {
      const url = req.mode === "url";
      const during = ctx.related ? ` (during ${oneLine(ctx.related.method)})` : "";
      prompter.say(`\n${oneLine(ctx.upstream)} asks${url ? " you to open a URL" : ""}${during}:`);
      for (const line of forTerminal(String(req.message ?? "")).split("\n")) prompter.say(`  ${line}`);
      const result = url
        ? await askUrl(prompter, req.url, terminal.openUrl)
        : await askForm(prompter, req.requestedSchema);
      prompter.say(`  answered: ${result.action}`);
      return result;
    } catch (err) {
      if (!(err instanceof Dismissed)) throw err;
      // Ctrl-C or the end of the input: dismissed without a choice; or the server took it back.
      prompter.say(err.by === "withdrawn" ? "\n  withdrawn by the server" : "\n  answered: cancel");
      return { action: "cancel" };
    } finally {
      prompter.close();
      terminal.onAsk?.(false);
    }
  }
}
