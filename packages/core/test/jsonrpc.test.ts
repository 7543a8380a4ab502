import { describe, expect, it } from "vitest";
import {
  decodeFrame,
  decodeMessages,
  encodeFrame,
  InvalidRequestError,
  isErrorResponse,
  isNotification,
  isRequest,
  isResultResponse,
  ParseError,
} from "../src/index.js";

describe("jsonrpc", () => {
  it("jsonrpc/decode-request", () => {
    const m = decodeFrame('{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}}');
    expect(m).toEqual({ jsonrpc: "2.0", id: 7, method: "tools/list", params: {} });
    expect(!Array.isArray(m) && isRequest(m)).toBe(true);
  });

  it("jsonrpc/ids-kept-raw", () => {
    const a = decodeFrame('{"jsonrpc":"2.0","id":"abc-1","method":"ping"}');
    const b = decodeFrame('{"jsonrpc":"2.0","id":0,"result":{}}');
    const c = decodeFrame('{"jsonrpc":"2.0","id":"42","result":{}}');
    expect((a as { id: unknown }).id).toBe("abc-1");
    expect((b as { id: unknown }).id).toBe(0);
    // a numeric-looking string stays a string: the answer must carry exactly what was sent
    expect((c as { id: unknown }).id).toBe("42");
  });

  it("jsonrpc/classify", () => {
    const [req, note, ok, err] = decodeMessages(
      '[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"},{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}]',
    );
    expect(isRequest(req!)).toBe(true);
    expect(isNotification(note!)).toBe(true);
    expect(isResultResponse(ok!)).toBe(true);
    expect(isErrorResponse(err!)).toBe(true);
  });

  it("jsonrpc/batch", () => {
    const frame = decodeFrame('[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":"x","method":"b"}]');
    expect(Array.isArray(frame)).toBe(true);
    expect(decodeMessages('{"jsonrpc":"2.0","method":"a"}')).toHaveLength(1);
    expect(encodeFrame(frame)).toBe(
      '[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":"x","method":"b"}]',
    );
  });

  it("jsonrpc/parse-error", () => {
    const e = (() => {
      try {
        decodeFrame("{not json");
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(ParseError);
    expect((e as ParseError).code).toBe(-32700);
    expect((e as Error).message).toMatch(/not valid JSON/);
    expect((e as Error).message).toContain("{not json");
  });

  it.each([
    ["[]", /empty array/],
    ['"hello"', /not a JSON object/],
    ['{"id":1,"method":"x"}', /"jsonrpc" must be "2.0"/],
    ['{"jsonrpc":"1.0","id":1,"method":"x"}', /"jsonrpc" must be "2.0" \(got "1.0"\)/],
    ['{"jsonrpc":"2.0","id":1,"method":5}', /"method" must be a non-empty string \(got number 5\)/],
    ['{"jsonrpc":"2.0","id":{},"method":"x"}', /"id" of x must be a string or a number/],
    [
      '{"jsonrpc":"2.0","id":1,"method":"x","params":[1]}',
      /"params" of x must be an object \(got an array\)/,
    ],
    ['{"jsonrpc":"2.0","id":1}', /exactly one of "result" or "error"/],
    ['{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}', /exactly one/],
    ['{"jsonrpc":"2.0","id":1,"result":3}', /"result" must be an object/],
    ['{"jsonrpc":"2.0","id":1,"error":{"code":"x"}}', /numeric code and a message/],
    ['[{"jsonrpc":"2.0","method":"a"},5]', /batch element 1 is not a JSON object/],
  ])("jsonrpc/invalid-request %s", (text, message) => {
    let caught: unknown;
    try {
      decodeFrame(text);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(InvalidRequestError);
    expect((caught as InvalidRequestError).code).toBe(-32600);
    expect((caught as Error).message).toMatch(message);
  });
});
