/**
 * A URL-mode question on the terminal (spec client/elicitation.mdx "Safe URL Handling"): the full URL
 * shown, and its domain on a line of its own (a URL can mislead: `https://bank.example.com.evil.io/`),
 * with a warning for punycode; nothing fetched; opened in a browser only once the person consents
 * (Enter), where one exists. Enter accepts, Ctrl-C declines. Only https, or http to this machine
 * (a local sign-in helper), is shown at all: anything else (javascript:, file:, http elsewhere, a
 * URL carrying credentials) is declined unshown: @mcpx/elicitation-rules, the broker's rule too.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { type ElicitResult, oneLine } from "@mcpx/core";
import { checkElicitationUrl } from "@mcpx/elicitation-rules";
import { Dismissed, type Prompter } from "./prompter.js";

/** Opens a URL in a browser, or says it cannot (false): nothing is printed either way. */
export type OpenUrl = (url: string) => boolean;

export async function askUrl(
  prompter: Prompter,
  raw: unknown,
  openUrl: OpenUrl | undefined,
): Promise<ElicitResult> {
  const verdict = checkElicitationUrl(raw);
  if (!verdict.ok) {
    prompter.say(`  refused, not shown: ${verdict.reason} (answered decline)`);
    return { action: "decline" };
  }
  const url = new URL(verdict.url);
  prompter.say(`  URL:    ${oneLine(url.href)}`);
  prompter.say(`  domain: ${oneLine(url.hostname)}${url.port ? ` (port ${url.port})` : ""}`);
  // WHATWG URL writes an internationalised name in punycode: xn-- labels can imitate a known name.
  if (url.hostname.split(".").some((label) => label.startsWith("xn--"))) {
    prompter.say("  warning: the domain is written in punycode (xn--): it may imitate another name");
  }
  const action = openUrl
    ? "Enter opens it in your browser (accept), Ctrl-C declines: "
    : "Open it yourself, then press Enter (accept), or Ctrl-C to decline: ";
  try {
    await prompter.ask(`  ${action}`);
  } catch (err) {
    // Ctrl-C is the person's explicit no; a withdrawn question or a closed input is no choice at all.
    if (err instanceof Dismissed && err.by === "interrupt") return { action: "decline" };
    throw err;
  }
  if (openUrl && !openUrl(url.href)) prompter.say("  (no browser could be started: open it yourself)");
  return { action: "accept" };
}

/**
 * The platform's opener, when there is a browser to open: `open` (macOS), `start` (Windows), and
 * `xdg-open` (elsewhere) only with a display, since without one xdg-open falls back to a text browser
 * that would take over this very terminal. Undefined when there is none.
 */
export function platformOpener(env: NodeJS.ProcessEnv = process.env): OpenUrl | undefined {
  if (process.platform === "darwin") return (url) => detached("open", [url]);
  if (process.platform === "win32") {
    // cmd's start takes a window title first; ^ escapes what cmd would read in the URL.
    return (url) => detached("cmd", ["/c", "start", '""', url.replace(/[&^|<>]/g, "^$&")], true);
  }
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return undefined;
  if (!onPath("xdg-open", env)) return undefined;
  return (url) => detached("xdg-open", [url]);
}

function onPath(command: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? "").split(delimiter).some((dir) => dir !== "" && existsSync(join(dir, command)));
}

function detached(command: string, args: string[], verbatim = false): boolean {
  try {
    const child = spawn(command, args, {
      detached: true,
      stdio: "ignore",
      windowsVerbatimArguments: verbatim,
    });
    child.on("error", () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}
