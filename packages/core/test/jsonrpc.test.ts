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
  MAX_NESTING_DEPTH,
  NestingTooDeepError,
  nestingDepth,
  ParseError,
  replacedForDepth,
} from "../src/index.js";

/** An object nested `depth` levels: `{}` is 1, `{"a":{}}` is 2. */
function nested(depth: number): Record<string, unknown> {
  let v: Record<string, unknown> = {};
  for (let i = 1; i < depth; i++) v = { a: v };
  return v;
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return undefined;
}

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

  it("jsonrpc/depth-limit-exact-boundary", () => {
    expect(MAX_NESTING_DEPTH).toBe(512);
    const request = (depth: number) =>
      JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: nested(depth) });
    // the limit passes, as it came
    const at = decodeFrame(request(MAX_NESTING_DEPTH)) as { params: unknown };
    expect(nestingDepth(at.params)).toBe(MAX_NESTING_DEPTH);
    // one more is refused: -32602, naming the member, the depth and the limit, with the request's id
    const over = thrown(() => decodeFrame(request(MAX_NESTING_DEPTH + 1)));
    expect(over).toBeInstanceOf(NestingTooDeepError);
    expect((over as NestingTooDeepError).code).toBe(-32602);
    expect((over as NestingTooDeepError).requestId).toBe(9);
    expect((over as Error).message).toMatch(
      /^params of tools\/call nested 513 levels deep, over mcpx's limit of 512 /,
    );
    expect((over as NestingTooDeepError).data).toEqual({ depth: 513, limit: 512 });
    // in an array as much as in an object, in any member, in a batch element
    let arr: unknown[] = [];
    for (let i = 1; i <= MAX_NESTING_DEPTH; i++) arr = [arr];
    const extra = thrown(() =>
      decodeFrame(
        JSON.stringify([
          { jsonrpc: "2.0", method: "a" },
          { jsonrpc: "2.0", id: "x", method: "b", params: {}, extra: arr },
        ]),
      ),
    );
    expect((extra as NestingTooDeepError).requestId).toBe("x");
    expect((extra as Error).message).toMatch(/^extra of b nested 513 levels deep/);
    // a notification has no id to answer
    const note = thrown(() =>
      decodeFrame(`{"jsonrpc":"2.0","method":"n","params":${'{"a":'.repeat(5000)}{}${"}".repeat(5000)}}`),
    );
    expect(note).toBeInstanceOf(NestingTooDeepError);
    expect((note as NestingTooDeepError).requestId).toBeUndefined();
  });

  it("jsonrpc/deep-response-decodes-as-its-error", () => {
    // 100,000 levels: the walk is iterative, so the check itself cannot overflow
    const text = `{"jsonrpc":"2.0","id":4,"result":{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}}`;
    const msg = decodeFrame(text);
    expect(msg).toMatchObject({ jsonrpc: "2.0", id: 4, error: { code: -32603 } });
    const error = (msg as { error: { message: string; data: unknown } }).error;
    expect(error.message).toMatch(
      /^result of the answer to request 4 nested 100001 levels deep, over mcpx's limit of 512 .*it was dropped$/,
    );
    expect(error.data).toEqual({ depth: 100_001, limit: 512 });
    // mcpx's own replacement, told from an error a peer sent with the same words
    expect(replacedForDepth(error as never)).toBe(true);
    const sent = decodeFrame(JSON.stringify({ jsonrpc: "2.0", id: 4, error })) as unknown as { error: never };
    expect(replacedForDepth(sent.error)).toBe(false);
  });

  it("jsonrpc/shallow-big-frame-decodes", () => {
    // 1 MiB of text in a flat frame: one object deep, decoded as it is (a walk, if any, visits a
    // handful of nodes, not a million characters)
    const big = "x".repeat(1024 * 1024);
    const wide = Array.from({ length: 100_000 }, (_, i) => i);
    const text = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { text: big, wide } });
    expect(text.length).toBeGreaterThan(1024 * 1024);
    const msg = decodeFrame(text) as unknown as { result: { text: string; wide: number[] } };
    expect(msg.result.text).toBe(big);
    expect(msg.result.wide).toEqual(wide);
    // and a short frame is never walked at all: nesting d levels takes 2d characters
    expect(nestingDepth(JSON.parse(`[${"[".repeat(511)}${"]".repeat(511)}]`))).toBe(512);
  });
});
