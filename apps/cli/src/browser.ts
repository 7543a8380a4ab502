/** A browser opened on a URL for `mcpx auth login`, where the machine has one. */
import { spawn } from "node:child_process";

/**
 * Opens `url` in the user's browser, where there is one: detached, its output ignored, and any
 * failure too (the URL is printed all the same).
 */
export function openBrowser(url: string): void {
  // The URL comes from an authorization server's metadata: only a web URL is opened, and never
  // through a shell (cmd's `start` would read | ^ < > in it), so it stays one argument.
  if (!/^https?:\/\//i.test(url)) return;
  const [command, args] =
    process.platform === "darwin"
      ? ["open", [url]]
      : process.platform === "win32"
        ? ["rundll32", ["url.dll,FileProtocolHandler", url]]
        : ["xdg-open", [url]];
  try {
    const child = spawn(command, args as string[], { detached: true, stdio: "ignore" });
    child.on("error", () => {});
    child.unref();
  } catch {
    // no browser here: the printed URL is the way
  }
}
