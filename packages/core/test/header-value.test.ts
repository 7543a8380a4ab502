import { describe, expect, it } from "vitest";
import { decodeHeaderValue, encodeHeaderValue, isPlainHeaderValue } from "../src/index.js";

describe("header-value", () => {
  // The examples of 2026-07-28 streamable-http.mdx, "Value Encoding".
  it.each([
    ["us-west1", "us-west1"],
    ["Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="],
    [" padded ", "=?base64?IHBhZGRlZCA=?="],
    ["line1\nline2", "=?base64?bGluZTEKbGluZTI=?="],
    ["=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="],
  ])("header-value/spec-examples %j", (value, header) => {
    expect(encodeHeaderValue(value)).toBe(header);
    expect(decodeHeaderValue(header)).toBe(value);
  });

  it("header-value/plain-ascii", () => {
    expect(encodeHeaderValue("a b\tc!~")).toBe("a b\tc!~");
    expect(encodeHeaderValue("")).toBe("");
    expect(isPlainHeaderValue("get_weather")).toBe(true);
  });

  it("header-value/non-ascii", () => {
    expect(encodeHeaderValue("café")).toMatch(/^=\?base64\?.*\?=$/);
    expect(encodeHeaderValue("a\u0000b")).toMatch(/^=\?base64\?/);
    expect(encodeHeaderValue("a\u007fb")).toMatch(/^=\?base64\?/);
    expect(encodeHeaderValue("a\rb")).toMatch(/^=\?base64\?/);
  });

  it("header-value/edge-whitespace", () => {
    expect(encodeHeaderValue(" a")).toMatch(/^=\?base64\?/);
    expect(encodeHeaderValue("a\t")).toMatch(/^=\?base64\?/);
    expect(encodeHeaderValue(" ")).toMatch(/^=\?base64\?/);
  });

  it("header-value/looks-like-sentinel", () => {
    // already-encoded text is encoded again, so the server decodes exactly what was meant
    const once = encodeHeaderValue("x y");
    expect(once).toBe("x y");
    const sentinel = encodeHeaderValue("héllo");
    const twice = encodeHeaderValue(sentinel);
    expect(twice).not.toBe(sentinel);
    expect(decodeHeaderValue(twice)).toBe(sentinel);
    expect(encodeHeaderValue("=?base64??=")).toMatch(/^=\?base64\?.+\?=$/);
  });

  it("header-value/round-trip", () => {
    for (const v of [
      "",
      "plain",
      "Zürich",
      "  both  ",
      "=?base64?Zm9v?=",
      "tab\tinside",
      "😀",
      "a\nb",
      "=?base64?",
    ]) {
      expect(decodeHeaderValue(encodeHeaderValue(v))).toBe(v);
    }
  });

  it("header-value/decode-invalid-sentinel", () => {
    // not Base64 inside the markers: left as it is, so it cannot match a body value by accident
    expect(decodeHeaderValue("=?base64?***?=")).toBe("=?base64?***?=");
    expect(decodeHeaderValue("plain")).toBe("plain");
  });
});
