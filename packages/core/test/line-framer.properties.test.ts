/**
 * Line framing checked on generated streams: whatever the lines (any Unicode, CRLF or LF, empty
 * ones) and wherever the byte stream is cut (inside a line, inside a UTF-8 character, at a newline),
 * the framer gives back exactly the lines written; lines over its limit come back as oversized with
 * their exact size, and the lines around them are untouched. fast-check: 100 runs; a failure prints
 * its seed and the shrunk counterexample.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type FramedLine, LineFramer } from "../src/index.js";

/** A line: any Unicode text without a newline (a CR inside is data; only the one before LF is eaten). */
const line = fc
  .string({ unit: "grapheme", maxLength: 40 })
  .map((s) => s.replaceAll("\n", " ").replace(/\r$/, ""));

/** Byte offsets at which the encoded stream is cut into chunks. */
function chunks(bytes: Buffer, cuts: number[]): Buffer[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let start = 0;
  for (const c of at) {
    out.push(bytes.subarray(start, c));
    start = c;
  }
  out.push(bytes.subarray(start));
  return out;
}

function frame(framer: LineFramer, parts: Buffer[]): FramedLine[] {
  const got: FramedLine[] = [];
  for (const p of parts) got.push(...framer.push(p));
  const last = framer.end();
  if (last !== undefined) got.push(last);
  return got;
}

describe("line framing (properties)", () => {
  it("properties/line-framing-across-arbitrary-chunk-splits", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ text: line, crlf: fc.boolean() }), { maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        (lines, cuts) => {
          const stream = Buffer.from(lines.map((l) => `${l.text}${l.crlf ? "\r\n" : "\n"}`).join(""));
          const got = frame(new LineFramer(1 << 20), chunks(stream, cuts));
          expect(got).toEqual(lines.map((l) => l.text));
        },
      ),
    );
  });

  it("properties/oversized-lines-reported-with-their-size-whatever-the-splits", () => {
    const max = 16;
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: "grapheme", maxLength: 30 }).map((s) => s.replaceAll(/[\r\n]/g, " ")),
          {
            maxLength: 12,
          },
        ),
        fc.array(fc.nat(), { maxLength: 30 }),
        (lines, cuts) => {
          const stream = Buffer.from(lines.map((l) => `${l}\n`).join(""));
          const framer = new LineFramer(max);
          const got = frame(framer, chunks(stream, cuts));
          expect(got).toHaveLength(lines.length);
          lines.forEach((l, i) => {
            const bytes = Buffer.byteLength(l);
            if (bytes <= max) expect(got[i]).toBe(l);
            else expect(got[i]).toMatchObject({ oversized: true, bytes });
          });
          expect(framer.buffered).toBe(0);
        },
      ),
    );
  });
});
