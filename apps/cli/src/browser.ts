/** A browser opened on a URL for `mcpx auth login`, where the machine has one. */
import { spawn } from "node:child_process";

/**
 * Opens `url` in the user's browser, where there is one: detached, its output ignored, and any
 * failure too (the URL is printed all the same).
 */
export function openBrowser(url: string): void {
  const [command, args] =
    process.platform === "darwin"
      ? ["open", [url]]
      : process.platform === "win32"
        ? // start's first quoted argument is the window title.
          ["cmd", ["/c", "start", '""', url.replaceAll("&", "^&")]]
        : ["xdg-open", [url]];
  try {
    const child = spawn(command, args as string[], { detached: true, stdio: "ignore" });
    child.on("error", () => {});
    child.unref();
  } catch {
    // no browser here: the printed URL is the way
  }
}
