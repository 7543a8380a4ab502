/** Reading a mirrored header's value on the server side, and the -32020 that names a bad one. */
import { decodeHeaderValue, HeaderMismatchError, looksLikeSentinel } from "@mcpx/core";

/** Anything but visible ASCII, space and tab (node:http passes other bytes through as latin1). */
const UNSAFE = /[^\x20-\x7e\t]/;

export function mismatch(message: string, header: string): HeaderMismatchError {
  return new HeaderMismatchError(`Header mismatch: ${message}`, { header });
}

/** The header's value decoded; a Base64 sentinel that does not decode is malformed. */
export function decoded(raw: string, display: string): string {
  if (UNSAFE.test(raw)) {
    throw mismatch(
      `${display} header value has characters a header cannot carry plainly (use the Base64 sentinel)`,
      display,
    );
  }
  const value = decodeHeaderValue(raw);
  if (value === raw && looksLikeSentinel(raw)) {
    throw mismatch(`${display} header value is a malformed Base64 sentinel`, display);
  }
  return value;
}

/** A value quoted for an error message, cut at 80 characters. */
export function show(v: unknown): string {
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return `'${s !== undefined && s.length > 80 ? `${s.slice(0, 80)}…` : s}'`;
}
