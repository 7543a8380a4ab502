/**
 * Properties of the codecs, checked on generated inputs (fast-check: 100 runs each; a failure
 * prints its seed and the shrunk counterexample, so it replays exactly).
 */
import { validateHeaderValue } from "node:http";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeFrame,
  decodeHeaderValue,
  encodeFrame,
  encodeHeaderValue,
  InvalidRequestError,
  type JSONRPCMessage,
  NestingTooDeepError,
  ParseError,
} from "../src/index.js";

const id = fc.oneof(
  fc.string(),
  fc.integer(),
  // Any finite number is an id; -0 is written "0" by JSON and so reads back as 0.
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
);
/** JSON values as JSON writes them (no -0, which JSON writes as 0). */
const value = fc.json().map((text) => JSON.parse(text) as unknown);
const object = fc.dictionary(fc.string(), value);
const method = fc.string({ minLength: 1 });

/** Any valid JSON-RPC 2.0 message, with and without its optional members. */
const message: fc.Arbitrary<JSONRPCMessage> = fc.oneof(
  fc.record(
    { jsonrpc: fc.constant("2.0" as const), id, method, params: object },
    { requiredKeys: ["jsonrpc", "id", "method"] },
  ),
  fc.record(
    { jsonrpc: fc.constant("2.0" as const), method, params: object },
    { requiredKeys: ["jsonrpc", "method"] },
  ),
  fc.record({ jsonrpc: fc.constant("2.0" as const), id, result: object }),
  fc.record({
    jsonrpc: fc.constant("2.0" as const),
    id: fc.oneof(id, fc.constant(null)),
    error: fc.record(
      { code: fc.integer(), message: fc.string(), data: value },
      { requiredKeys: ["code", "message"] },
    ),
  }),
);

/** Texts that are nearly messages: every member present or not, of the right type or any other. */
const nearlyMessage = fc
  .record(
    {
      jsonrpc: fc.oneof(fc.constant("2.0"), fc.jsonValue()),
      id: fc.oneof(id, fc.jsonValue()),
      method: fc.oneof(method, fc.jsonValue()),
      params: fc.oneof(object, fc.jsonValue()),
      result: fc.oneof(object, fc.jsonValue()),
      error: fc.oneof(
        fc.record({ code: fc.jsonValue(), message: fc.jsonValue() }, { requiredKeys: [] }),
        fc.jsonValue(),
      ),
    },
    { requiredKeys: [] },
  )
  .map((v) => JSON.stringify(v));

const anyText = fc.oneof(
  fc.string({ unit: "binary" }),
  fc.json(),
  nearlyMessage,
  fc.array(nearlyMessage, { maxLength: 4 }).map((items) => `[${items.join(",")}]`),
  // A valid frame cut short or with a byte more.
  message.chain((m) =>
    fc.integer({ min: 0, max: encodeFrame(m).length }).map((n) => encodeFrame(m).slice(0, n)),
  ),
);

describe("properties", () => {
  it("properties/jsonrpc-codec-round-trip", () => {
    fc.assert(
      fc.property(message, (m) => {
        expect(decodeFrame(encodeFrame(m))).toEqual(m);
      }),
    );
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 5 }), (batch) => {
        expect(decodeFrame(encodeFrame(batch))).toEqual(batch);
      }),
    );
    // Whatever the text, it decodes, or it is refused with a named JSON-RPC error: never a TypeError.
    fc.assert(
      fc.property(anyText, (text) => {
        try {
          decodeFrame(text);
        } catch (err) {
          const named =
            err instanceof ParseError ||
            err instanceof InvalidRequestError ||
            err instanceof NestingTooDeepError;
          if (!named) throw new Error(`decodeFrame threw ${String(err)} for ${JSON.stringify(text)}`);
        }
      }),
    );
  });

  it("properties/header-value-codec-round-trip-for-any-string", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: "binary" }), fc.string(), fc.string({ unit: "grapheme" })),
        (s) => {
          const encoded = encodeHeaderValue(s);
          expect(decodeHeaderValue(encoded)).toBe(s);
          // A valid field value (RFC 9110 §5.5): visible ASCII with inner spaces and tabs, nothing at
          // the edges that a receiver would trim; and what node:http accepts to send.
          expect(encoded).toMatch(/^(?:[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?)?$/);
          expect(() => validateHeaderValue("x-test", encoded)).not.toThrow();
        },
      ),
    );
  });
});
