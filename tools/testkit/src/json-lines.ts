/** The control channel between a test and its relay child: one JSON object per line, each handed on. */
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";

export function onJsonLines<T>(input: Readable, handle: (msg: T) => void): void {
  createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })
    .on("line", (line) => {
      if (line) handle(JSON.parse(line) as T);
    })
    // readline re-emits its input's errors: a child that crashes resets the channel (ECONNRESET),
    // which the test observes through the child's exit, not as an uncaught error here.
    .on("error", () => {});
}
