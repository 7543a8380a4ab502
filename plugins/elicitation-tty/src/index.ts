/**
 * @mcpx/elicitation-tty: questions an upstream asks mcpx (elicitations), asked of the person at the
 * terminal: form mode field by field, url mode by consent to open the URL. Built into the CLI's
 * one-shot commands (`mcpx call` on a terminal); `mcpx serve` has the broker instead.
 */
import { definePlugin, type Plugin } from "@mcpx/core";
import { TtyElicitation, type TtyTerminal } from "./handler.js";
import { platformOpener } from "./url.js";

export { type Field, formFields, readAnswer } from "./fields.js";
export { askForm } from "./form.js";
export { TtyElicitation, type TtyTerminal } from "./handler.js";
export { Dismissed, type DismissedBy, Prompter, type TerminalStreams } from "./prompter.js";
export { askUrl, type OpenUrl, platformOpener } from "./url.js";

export const PLUGIN_NAME = "@mcpx/elicitation-tty";

export interface TtyOptions {
  /** Open a URL the person consented to in their browser, where there is one (default true). */
  openBrowser?: boolean;
}

const optionsSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    openBrowser: {
      type: "boolean",
      default: true,
      description: "Open a URL you consent to in your browser, where there is one (default: true)",
    },
  },
};

/**
 * The plugin asking on this terminal: give it the streams (and, optionally, what to pause while it
 * asks). The default export is this on the process's stdin and stderr.
 */
export function ttyElicitation(terminal: () => TtyTerminal): Plugin<TtyOptions> {
  return definePlugin<TtyOptions>({
    name: PLUGIN_NAME,
    apiVersion: 1,
    optionsSchema,
    apply(host, options) {
      const t = terminal();
      const openUrl = options?.openBrowser === false ? undefined : (t.openUrl ?? platformOpener());
      const asker = new TtyElicitation({ ...t, openUrl });
      host.registerElicitationHandler(asker.handler(PLUGIN_NAME));
    },
  });
}

// process.stdin is made on first use: only when the plugin is applied.
export default ttyElicitation(() => ({ input: process.stdin, output: process.stderr }));
