/**
 * Lines out of a byte stream, linear and bounded: pieces, several at once, CRLF, a UTF-8 character
 * split across chunks, a last line without newline; every byte searched once; a line over the limit
 * dropped as it streams (only its ends kept) and the stream read on after it.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ErrorCode,
  type FramedLine,
  FrameTooLargeError,
  formatBytes,
  LineFramer,
  LocalError,
  type OversizedLine,
  oversizedFrameId,
} from "../src/index.js";

const MiB = 1024 * 1024;
const CHUNK = 64 * 1024;

/** A line of `size` bytes of JSON-ish text, with recognisable ends. */
function bigLine(size: number, head = '{"jsonrpc":"2.0","id":5,"result":{"text":"', tail = '"}}'): Buffer {
  const line = Buffer.alloc(size, "x");
  line.write(head, 0);
  line.write(tail, size - Buffer.byteLength(tail));
  return line;
}

function* chunks(buf: Buffer, size = CHUNK): Generator<Buffer> {
  for (let at = 0; at < buf.length; at += size) yield buf.subarray(at, at + size);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("LineFramer", () => {
  it("framing/lines-in-pieces-and-several-at-once", () => {
    const f = new LineFramer(1024);
    expect(f.push(Buffer.from('{"a":'))).toEqual([]);
    expect(f.push(Buffer.from('1}\n{"b":2}\n{"c"'))).toEqual(['{"a":1}', '{"b":2}']);
    expect(f.push(Buffer.from(":3}\n"))).toEqual(['{"c":3}']);
    expect(f.end()).toBeUndefined();
  });

  it("framing/crlf-tolerated", () => {
    const f = new LineFramer(1024);
    expect(f.push(Buffer.from('{"a":1}\r\n{"b":2}\r'))).toEqual(['{"a":1}']);
    // the CR and its LF in different chunks
    expect(f.push(Buffer.from('\n{"c":3}\r\n'))).toEqual(['{"b":2}', '{"c":3}']);
  });

  it("framing/utf8-split-across-chunks-kept-whole", () => {
    const f = new LineFramer(1024);
    const bytes = Buffer.from('{"t":"世界"}\n');
    // byte 8 is inside 世 (bytes 6..8): the character is cut in two
    expect(f.push(bytes.subarray(0, 8))).toEqual([]);
    expect(f.push(bytes.subarray(8))).toEqual(['{"t":"世界"}']);
  });

  it("framing/last-line-without-newline", () => {
    const f = new LineFramer(1024);
    expect(f.push(Buffer.from('{"a":1}\n{"b"'))).toEqual(['{"a":1}']);
    expect(f.push(Buffer.from(":2}"))).toEqual([]);
    expect(f.end()).toBe('{"b":2}');
    expect(f.end()).toBeUndefined();
  });

  it("framing/each-byte-scanned-once", () => {
    const line = bigLine(20 * MiB);
    const fed = new Set<Buffer>();
    let scanned = 0;
    const indexOf = Buffer.prototype.indexOf as (this: Buffer, ...args: unknown[]) => number;
    // What the framer searches: every indexOf on a chunk it was given, counted up to where it stopped.
    vi.spyOn(Buffer.prototype, "indexOf").mockImplementation(function (this: Buffer, ...args: unknown[]) {
      const at = indexOf.apply(this, args);
      if (fed.has(this)) {
        const from = typeof args[1] === "number" ? args[1] : 0;
        scanned += at === -1 ? this.length - from : at - from + 1;
      }
      return at;
    });
    const concat = vi.spyOn(Buffer, "concat");
    const f = new LineFramer(64 * MiB);
    const out: FramedLine[] = [];
    for (const c of [...chunks(line), Buffer.from("\n")]) {
      fed.add(c);
      out.push(...f.push(c));
    }
    expect(scanned).toBe(line.length + 1);
    // joined once, for the one line
    expect(concat).toHaveBeenCalledTimes(1);
    expect(out).toHaveLength(1);
    expect(out[0]).toBe(line.toString("utf8"));
  });

  it("framing/oversized-line-dropped-with-bounded-memory", () => {
    const limit = MiB;
    const f = new LineFramer(limit);
    const line = bigLine(20 * MiB);
    let most = 0;
    for (const c of chunks(line)) {
      expect(f.push(c)).toEqual([]);
      most = Math.max(most, f.buffered);
    }
    // never more than the limit plus one chunk, and once over it only the two ends
    expect(most).toBeLessThanOrEqual(limit + CHUNK);
    expect(f.buffered).toBeLessThanOrEqual(600);
    const [report] = f.push(Buffer.from("\r\n")) as [OversizedLine];
    expect(report).toEqual({
      oversized: true,
      bytes: 20 * MiB,
      head: line.subarray(0, 256).toString(),
      tail: line.subarray(-256).toString(),
    });
    expect(report.head.startsWith('{"jsonrpc":"2.0","id":5,"result":')).toBe(true);
    expect(f.buffered).toBe(0);
  });

  it("framing/stream-usable-after-an-oversized-line", () => {
    const f = new LineFramer(100);
    const big = bigLine(1000);
    const out: FramedLine[] = [];
    out.push(...f.push(Buffer.from('{"a":1}\n')));
    out.push(...f.push(big.subarray(0, 600)));
    out.push(...f.push(Buffer.concat([big.subarray(600), Buffer.from('\n{"b":2}\n{"c"')])));
    out.push(...f.push(Buffer.from(":3}")));
    const last = f.end();
    expect(out.map((l) => (typeof l === "string" ? l : `oversized ${l.bytes}`))).toEqual([
      '{"a":1}',
      "oversized 1000",
      '{"b":2}',
    ]);
    expect(last).toBe('{"c":3}');
    // a line exactly at the limit is taken
    const exact = "y".repeat(100);
    expect(f.push(Buffer.from(`${exact}\n`))).toEqual([exact]);
  });

  it("framing/oversized-frame-id-only-at-anchored-positions", () => {
    const oversized = (head: string, tail: string): OversizedLine => ({
      oversized: true,
      bytes: 1,
      head,
      tail,
    });
    // id first (most servers) or last (the official TypeScript SDK), response or request
    expect(oversizedFrameId(oversized('{"jsonrpc":"2.0","id":5,"result":{"content":[', "…]}}"))).toEqual({
      id: 5,
      kind: "response",
    });
    expect(
      oversizedFrameId(oversized('{"result":{"content":[{"text":"', '"}]},"jsonrpc":"2.0","id":7}')),
    ).toEqual({ id: 7, kind: "response" });
    expect(
      oversizedFrameId(oversized('{"error":{"code":-1,"message":"', '"},"id":"a\\"b","jsonrpc":"2.0"}')),
    ).toEqual({ id: 'a"b', kind: "response" });
    expect(oversizedFrameId(oversized('{"jsonrpc":"2.0","id":"r1","method":"tools/call",', "}}"))).toEqual({
      id: "r1",
      kind: "request",
    });
    expect(
      oversizedFrameId(oversized('{"method":"tools/call","params":{"x":"', '"},"jsonrpc":"2.0","id":3}')),
    ).toEqual({ id: 3, kind: "request" });
    // a notification: what it is, no id
    expect(
      oversizedFrameId(oversized('{"jsonrpc":"2.0","method":"notifications/message","params":{', "}}")),
    ).toEqual({ kind: "request" });
    // an id that is not the top level's, or not where it is trusted, is not taken
    const response = { kind: "response" };
    expect(oversizedFrameId(oversized('{"result":{"id":9,"text":"', '"}}'))).toEqual(response);
    expect(oversizedFrameId(oversized('{"result":{"text":"', '","meta":{"id":9}}}'))).toEqual(response);
    expect(oversizedFrameId(oversized('{"result":{"text":"', 'x\\",\\"id\\":9}"}}'))).toEqual(response);
    // not a JSON-RPC object at its head (or an error for nobody): nothing is known of it
    expect(oversizedFrameId(oversized('{"jsonrpc":"2.0","id":null,"error":', "}}"))).toBeUndefined();
    expect(oversizedFrameId(oversized('[{"jsonrpc":"2.0","id":1,"result":', "}]"))).toBeUndefined();
    expect(oversizedFrameId(oversized("xxxxxxxx", ',"id":1}'))).toBeUndefined();
  });

  it("framing/frame-too-large-names-the-upstream-size-and-limit", () => {
    const err = new FrameTooLargeError("big", { size: 100 * MiB + 1 }, 64 * MiB);
    expect(err).toBeInstanceOf(LocalError);
    expect(err.code).toBe(ErrorCode.FrameTooLarge);
    expect(err.code).toBe(-31001);
    expect(err.message).toBe(
      "upstream big sent a frame of 100.0 MiB, over upstream.maxFrameBytes (64 MiB); it was dropped",
    );
    const sse = new FrameTooLargeError("s", { what: "an SSE event", size: MiB, atLeast: true }, MiB);
    expect(sse.message).toBe(
      "upstream s sent an SSE event of more than 1 MiB, over upstream.maxFrameBytes (1 MiB); it was dropped",
    );
    expect(sse.toJSONRPC()).toEqual({
      code: -31001,
      message: sse.message,
      data: { size: MiB, maxFrameBytes: MiB },
    });
    expect([formatBytes(512), formatBytes(64 * 1024), formatBytes(1.5 * MiB)]).toEqual([
      "512 bytes",
      "64 KiB",
      "1.5 MiB",
    ]);
  });
});
