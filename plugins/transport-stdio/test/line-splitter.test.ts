/** Lines out of a byte stream: pieces, several at once, CRLF, a UTF-8 character split across chunks. */
import { describe, expect, it } from "vitest";
import { LineSplitter } from "../src/line-splitter.js";

describe("LineSplitter", () => {
  it("stdio/lines-in-pieces-and-several-at-once", () => {
    const s = new LineSplitter();
    expect(s.push('{"a":')).toEqual([]);
    expect(s.push('1}\n{"b":2}\r\n{"c"')).toEqual(['{"a":1}', '{"b":2}']);
    expect(s.push(":3}\n")).toEqual(['{"c":3}']);
    expect(s.end()).toBeUndefined();
  });

  it("stdio/utf8-split-across-chunks-kept-whole", () => {
    const s = new LineSplitter();
    const bytes = Buffer.from('{"t":"世界"}\n');
    expect(s.push(bytes.subarray(0, 8))).toEqual([]);
    expect(s.push(bytes.subarray(8))).toEqual(['{"t":"世界"}']);
  });

  it("stdio/last-line-without-newline", () => {
    const s = new LineSplitter();
    expect(s.push(Buffer.from('{"a":1}'))).toEqual([]);
    expect(s.end()).toBe('{"a":1}');
    expect(s.end()).toBeUndefined();
  });
});
