/**
 * SSE reading checked on generated streams: whatever the events (ids, event names, data of several
 * lines in any Unicode, comments, LF or CRLF line ends) and wherever the byte stream is cut (inside a
 * field, inside a UTF-8 character, between the two newlines that end an event), readSse hands over
 * exactly the events written, in order. fast-check: 100 runs; a failure prints its seed.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Body, readSse } from "../src/index.js";

/** Field text: any Unicode without line ends (SSE has no escaping for them). */
const text = fc.string({ unit: "grapheme", maxLength: 20 }).map((s) => s.replaceAll(/[\r\n]/g, " "));

const event = fc.record({
  // An id must not hold NUL (the spec ignores such an id); a value's one leading space is eaten.
  id: fc.option(
    text.map((s) => s.replaceAll("\0", "").trimStart()),
    { nil: undefined },
  ),
  event: fc.option(
    text.map((s) => s.trimStart()).filter((s) => s !== ""),
    { nil: undefined },
  ),
  data: fc.array(text, { minLength: 1, maxLength: 4 }),
  comment: fc.boolean(),
});
type Event = typeof event extends fc.Arbitrary<infer T> ? T : never;

function serialise(events: Event[], eol: string): Buffer {
  let out = "";
  for (const e of events) {
    if (e.comment) out += `: keep-alive${eol}`;
    if (e.id !== undefined) out += `id: ${e.id}${eol}`;
    if (e.event !== undefined) out += `event: ${e.event}${eol}`;
    for (const d of e.data) out += `data: ${d}${eol}`;
    out += eol;
  }
  return Buffer.from(out);
}

/** A body that yields the bytes cut at the given offsets, as undici's body does. */
function body(bytes: Buffer, cuts: number[]): Body {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Buffer[] = [];
  let start = 0;
  for (const c of at) {
    parts.push(bytes.subarray(start, c));
    start = c;
  }
  parts.push(bytes.subarray(start));
  return {
    async *[Symbol.asyncIterator]() {
      for (const p of parts) yield new Uint8Array(p);
    },
    destroy() {},
  } as unknown as Body;
}

describe("SSE reading (properties)", () => {
  it("properties/sse-parsing-across-arbitrary-chunk-splits", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(event, { maxLength: 8 }),
        fc.constantFrom("\n", "\r\n"),
        fc.array(fc.nat(), { maxLength: 30 }),
        async (events, eol, cuts) => {
          const seen: { id?: string; event?: string; data: string }[] = [];
          await readSse(
            body(serialise(events, eol), cuts),
            {
              event: (e) => seen.push({ id: e.id, event: e.event, data: e.data }),
              retry: () => {},
              problem: () => {},
            },
            { upstream: "up", maxEventBytes: 1 << 20 },
          );
          // Each event with the id it carried (the transports keep the last one for resumption).
          const expected = events.map((e) => ({ id: e.id, event: e.event, data: e.data.join("\n") }));
          expect(seen).toEqual(expected);
        },
      ),
    );
  });
});
