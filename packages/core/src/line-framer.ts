/**
 * Newline-delimited JSON-RPC framing (stdio: a message is one line; spec basic/transports/stdio.mdx),
 * linear and bounded. Chunks are kept as they come and only the new bytes are searched for "\n"; a line
 * is joined once (Buffer.concat, then one UTF-8 decode, so a character split across chunks stays
 * whole). Searching and re-joining a growing string instead was quadratic: a 20 MiB line took ~6 s of
 * event-loop time and slowed every other upstream's calls from ~5 ms to ~0.5 s.
 *
 * A line longer than `maxBytes` is not kept: past the limit its bytes are dropped as they arrive (only
 * a short head and tail stay, to name and place it), and its end is reported as an OversizedLine in
 * place of the line. The lines after it are read as usual.
 */
import type { RequestId } from "./jsonrpc.js";

/** How much of each end of an oversized line is kept: enough for `{"jsonrpc":"2.0","id":…,"result":`. */
const KEPT_END_BYTES = 256;
const LF = 0x0a;
const CR = 0x0d;

/** A line that was over the limit, reported when its newline came (or the stream ended). */
export interface OversizedLine {
  readonly oversized: true;
  /** Its length in bytes (without the newline). */
  readonly bytes: number;
  /** Its first and last bytes (at most 256 each), decoded as UTF-8. */
  readonly head: string;
  readonly tail: string;
}

export type FramedLine = string | OversizedLine;

export class LineFramer {
  readonly #maxBytes: number;
  /** The current line's pieces while it is within the limit. */
  #pieces: Buffer[] = [];
  /** Bytes of the current line so far, kept or not. */
  #size = 0;
  /** Set once the current line passed the limit: its first bytes, and its last ones so far. */
  #head: Buffer | undefined;
  #tail: Buffer = Buffer.alloc(0);

  /** @param maxBytes the longest line taken, in bytes (without its newline). */
  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** Bytes held for the line in progress: never more than the limit plus the end of one chunk. */
  get buffered(): number {
    return this.#head ? this.#head.length + this.#tail.length : this.#size;
  }

  /** Feeds a chunk; returns the lines it completed (without "\n" or "\r\n"), in order. */
  push(data: Buffer | string): FramedLine[] {
    const chunk = typeof data === "string" ? Buffer.from(data) : data;
    const lines: FramedLine[] = [];
    let start = 0;
    // Each search starts where the last one stopped: every byte is looked at once.
    for (let nl = chunk.indexOf(LF, start); nl !== -1; nl = chunk.indexOf(LF, start)) {
      this.#add(chunk.subarray(start, nl));
      lines.push(this.#finish());
      start = nl + 1;
    }
    if (start < chunk.length) this.#add(chunk.subarray(start));
    return lines;
  }

  /** What is left when the stream ends: a last line without a newline, if it holds anything. */
  end(): FramedLine | undefined {
    if (this.#size === 0) return undefined;
    const last = this.#finish();
    return typeof last === "string" && last.trim() === "" ? undefined : last;
  }

  #add(piece: Buffer): void {
    if (piece.length === 0) return;
    this.#size += piece.length;
    if (this.#head) {
      this.#keepTail(piece);
      return;
    }
    this.#pieces.push(piece);
    if (this.#size <= this.#maxBytes) return;
    // Over the limit: keep the ends, drop the rest, and from now on only the tail moves.
    const pieces = this.#pieces;
    this.#pieces = [];
    this.#head = Buffer.concat(firstBytes(pieces, KEPT_END_BYTES));
    this.#tail = Buffer.concat(firstBytes(pieces.reverse(), KEPT_END_BYTES + 1, true).reverse());
  }

  /**
   * The line's last bytes so far (one more than kept, for a CR before the newline), copied so that
   * no chunk is held alive through a view.
   */
  #keepTail(piece: Buffer): void {
    const n = KEPT_END_BYTES + 1;
    this.#tail =
      piece.length >= n
        ? Buffer.from(piece.subarray(piece.length - n))
        : Buffer.from(Buffer.concat([this.#tail, piece]).subarray(-n));
  }

  #finish(): FramedLine {
    const pieces = this.#pieces;
    const head = this.#head;
    const size = this.#size;
    const tail = this.#tail;
    this.#pieces = [];
    this.#size = 0;
    this.#head = undefined;
    this.#tail = Buffer.alloc(0);
    if (head) {
      const cr = tail.at(-1) === CR ? 1 : 0;
      const end = tail.subarray(0, tail.length - cr).subarray(-KEPT_END_BYTES);
      return { oversized: true, bytes: size - cr, head: head.toString("utf8"), tail: end.toString("utf8") };
    }
    if (pieces.length === 0) return "";
    const line = pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces, size);
    return line.toString("utf8", 0, line.at(-1) === CR ? line.length - 1 : line.length);
  }
}

/** Copies of the pieces' first (or, reversed, last) `n` bytes, in the order given. */
function firstBytes(pieces: Buffer[], n: number, fromEnd = false): Buffer[] {
  const out: Buffer[] = [];
  let left = n;
  for (const p of pieces) {
    if (left === 0) break;
    const take = Math.min(left, p.length);
    out.push(Buffer.from(fromEnd ? p.subarray(p.length - take) : p.subarray(0, take)));
    left -= take;
  }
  return out;
}

/** A byte count as people read it: 512 bytes, 64 KiB, 1.5 MiB. */
export function formatBytes(n: number): string {
  for (const [unit, size] of [
    ["GiB", 2 ** 30],
    ["MiB", 2 ** 20],
    ["KiB", 2 ** 10],
  ] as const) {
    if (n >= size) {
      const v = n / size;
      return `${Number.isInteger(v) ? v : v.toFixed(1)} ${unit}`;
    }
  }
  return `${n} bytes`;
}

/**
 * What an oversized frame is, as far as its kept ends tell: a response (`result`/`error`) or a
 * request or notification (`method`/`params`), and its top-level id where that id sits at one of two
 * anchored places (anything else could be an "id" nested in the dropped middle):
 *  - id first: `{"jsonrpc":"2.0","id":5,"result":…` (or `{"id":5,…`), read from the head;
 *  - id last: `{"result":…,"jsonrpc":"2.0","id":5}` (the official TypeScript SDK's order), read from
 *    the tail, the head telling what the frame is.
 * In JSON a `"` outside a string is never escaped, so `,"id":5}` closing the line is the top level's.
 * Undefined when the head does not show a JSON-RPC object at all.
 */
export function oversizedFrameId(
  line: OversizedLine,
): { id?: RequestId; kind: "response" | "request" } | undefined {
  const head = HEAD.exec(line.head);
  if (!head) return undefined;
  const kind = head[2] === "result" || head[2] === "error" ? "response" : "request";
  const found = head[1] ?? TAIL.exec(line.tail)?.[1];
  let id: unknown;
  try {
    id = found === undefined ? undefined : JSON.parse(found);
  } catch {
    id = undefined;
  }
  return typeof id === "string" || typeof id === "number" ? { id, kind } : { kind };
}

const ID = String.raw`(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*")`;
const VERSION = String.raw`"jsonrpc"\s*:\s*"2\.0"`;
/** `{`, then the version and/or the id, then the first key that says what the frame is. */
const HEAD = new RegExp(
  String.raw`^\s*\{\s*(?:${VERSION}\s*,\s*)?(?:"id"\s*:\s*${ID}\s*,\s*)?(?:${VERSION}\s*,\s*)?"(result|error|method|params)"\s*:`,
);
/** `,`, then the version and/or the id, then the `}` that ends the line. */
const TAIL = new RegExp(
  String.raw`,\s*(?:${VERSION}\s*,\s*)?"id"\s*:\s*${ID}\s*(?:,\s*${VERSION}\s*)?\}\s*$`,
);
