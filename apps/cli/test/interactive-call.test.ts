/**
 * The call a person runs at a terminal, in-process: the progress bar's line and its erasure, what is
 * asked for where, and Ctrl-C (SIGINT emitted on the process): the first aborts the call's signal,
 * a second exits at once. The tmux tests in tools/e2e (cli-tty/*) run the same on a real terminal.
 */
import { PassThrough } from "node:stream";
import type { JSONObject } from "@mcpx/core";
import type { CallContext } from "@mcpx/gateway";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EXIT_INTERRUPTED, INTERRUPTED, interactiveCall } from "../src/interactive-call.js";
import type { MainIO } from "../src/io.js";
import { ProgressBar } from "../src/progress.js";
import type { Terminal } from "../src/terminal.js";

const ERASE = "\r\u001b[2K";

function terminalIO(isTTY: boolean): { io: MainIO; drawn: () => string } {
  const output = Object.assign(new PassThrough(), { columns: 60 });
  let drawn = "";
  output.on("data", (d: Buffer) => {
    drawn += d.toString("utf8");
  });
  const terminal: Terminal = { output, input: undefined, status: undefined };
  return { io: { stdout: () => {}, stderr: () => {}, isTTY, terminal }, drawn: () => drawn };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the progress bar", () => {
  it("progress/bar-or-count-with-its-message-paused-and-erased", () => {
    let out = "";
    const bar = new ProgressBar({ write: (t) => (out += t), columns: 60 });
    bar.update({ progress: 3, total: 12, message: "copying\ta.txt\u001b[31m" });
    expect(bar.line()).toBe("/ [#####---------------]  25% 3/12 copying a.txt");
    bar.update({ progress: 40 });
    expect(bar.line()).toBe("- 40");
    // never wider than the terminal
    bar.update({ progress: 1, message: "x".repeat(100) });
    expect(bar.line()).toHaveLength(59);
    // a question pauses it: erased, and not drawn until resumed
    bar.pause();
    expect(out.endsWith(ERASE)).toBe(true);
    const paused = out.length;
    bar.update({ progress: 2, total: 4 });
    expect(out.length).toBe(paused);
    bar.resume();
    expect(out.endsWith(`${ERASE}${bar.line()}`)).toBe(true);
    bar.end();
    expect(out.endsWith(ERASE)).toBe(true);
    bar.update({ progress: 3, total: 4 });
    expect(out.endsWith(ERASE)).toBe(true);
  });

  it("progress/asked-for-only-where-it-is-drawn", async () => {
    const asked = async (io: MainIO, json = false) => {
      let token: unknown;
      await interactiveCall(io, { json }, async (ctx) => {
        token = ctx.progressToken;
        ctx.notify("notifications/progress", {
          progressToken: ctx.progressToken ?? "",
          progress: 1,
          total: 2,
        });
        return {};
      });
      return token;
    };
    const onTerminal = terminalIO(true);
    expect(await asked(onTerminal.io)).toBeDefined();
    expect(onTerminal.drawn()).toContain("50% 1/2");
    expect(onTerminal.drawn().endsWith(ERASE)).toBe(true);
    // stdout piped, --json, or no terminal at all: not asked for, nothing drawn
    const piped = terminalIO(false);
    expect(await asked(piped.io)).toBeUndefined();
    expect(piped.drawn()).toBe("");
    const json = terminalIO(true);
    expect(await asked(json.io, true)).toBeUndefined();
    expect(await asked({ stdout: () => {}, stderr: () => {} })).toBeUndefined();
  });
});

describe("Ctrl-C", () => {
  it("interrupt/first-cancels-the-call-second-exits-at-once", async () => {
    const exit = vi.spyOn(process, "exit").mockImplementation((() => undefined) as never);
    const listeners = process.listenerCount("SIGINT");
    let context: CallContext | undefined;
    let finish: (() => void) | undefined;
    const outcome = interactiveCall(terminalIO(true).io, {}, (ctx) => {
      context = ctx;
      // A call that outlives the first Ctrl-C (an upstream slow to let go), then ends cancelled.
      return new Promise<JSONObject>((_, reject) => {
        finish = () => reject(new Error("cancelled"));
      });
    });
    process.emit("SIGINT", "SIGINT");
    expect(context?.signal.aborted).toBe(true);
    expect(context?.signal.reason).toBe("interrupted");
    expect(exit).not.toHaveBeenCalled();
    process.emit("SIGINT", "SIGINT");
    expect(exit).toHaveBeenCalledWith(EXIT_INTERRUPTED);
    finish?.();
    expect(await outcome).toBe(INTERRUPTED);
    // its listener is gone with the call
    expect(process.listenerCount("SIGINT")).toBe(listeners);
  });
});
