/**
 * The header-value codec of 2026-07-28 (Streamable HTTP, "Value Encoding"), used for Mcp-Name and
 * Mcp-Param-{Name}. A value is sent as is when it is visible ASCII with inner spaces and tabs only;
 * otherwise, and also when it already looks like the sentinel, as `=?base64?{Base64(UTF-8)}?=`, so a
 * server never decodes a literal into something the client did not send.
 */

const PREFIX = "=?base64?";
const SUFFIX = "?=";

/** Visible ASCII (0x21–0x7E), space and tab; nothing else may be sent plain. */
const PLAIN = /^[\x20-\x7e\t]*$/;
const EDGE_WHITESPACE = /^[ \t]|[ \t]$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function looksLikeSentinel(value: string): boolean {
  return value.startsWith(PREFIX) && value.endsWith(SUFFIX) && value.length >= PREFIX.length + SUFFIX.length;
}

/** True when the value can be sent without the Base64 sentinel. */
export function isPlainHeaderValue(value: string): boolean {
  return PLAIN.test(value) && !EDGE_WHITESPACE.test(value) && !looksLikeSentinel(value);
}

export function encodeHeaderValue(value: string): string {
  if (isPlainHeaderValue(value)) return value;
  return PREFIX + Buffer.from(value, "utf8").toString("base64") + SUFFIX;
}

/**
 * The value a header carried: the sentinel's Base64 decoded as UTF-8, anything else as is. A
 * sentinel whose body is not Base64 is returned unchanged (it then will not match the body).
 */
export function decodeHeaderValue(header: string): string {
  if (!looksLikeSentinel(header)) return header;
  const body = header.slice(PREFIX.length, header.length - SUFFIX.length);
  if (!BASE64.test(body) || body.length % 4 !== 0) return header;
  return Buffer.from(body, "base64").toString("utf8");
}
