/** The control channel between a test and its relay child: one JSON object per line, each handed on. */
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";

export function onJsonLines<T>(input: Readable, handle: (msg: T) => void): void {
  createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
    if (line) handle(JSON.parse(line) as T);
  });
}
