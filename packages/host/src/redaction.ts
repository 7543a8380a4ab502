/**
 * Taking credentials out of what mcpx tells anyone: the forms a credential takes in text a server
 * may echo back, and the cleaning of an error (message, data, every field) before it leaves.
 * `redact` (log.ts) replaces; this says what to replace and where. Error paths only: nothing here
 * runs when nothing fails.
 */
import { redact } from "./log.js";

/** Takes credentials out of a text (identity when there are none). */
export type Redactor = (text: string) => string;

/**
 * The forms `value` takes in text a server may send back: as it is; inside a JSON string (`"` and
 * `\` escaped, `/` as `\/` too, non-ASCII as `\u00e9` as Python writes it); percent-encoded (as
 * encodeURIComponent writes it, and as a form or query string does, space as `+`).
 */
export function secretForms(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  const forms = new Set([
    value,
    json,
    json.replaceAll("/", "\\/"),
    json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
    encodeURIComponent(value),
    new URLSearchParams({ v: value }).toString().slice(2),
  ]);
  return [...forms];
}

/**
 * Every form of every secret, once each, longest first (a credential inside a longer one, `tok`
 * in `Bearer tok`, must not leave the longer one's remains behind). Call it where secrets are
 * collected, once, so redacting never recomputes them.
 */
export function expandSecrets(values: Iterable<string>): string[] {
  const all = new Set<string>();
  for (const v of values) if (v !== "") for (const form of secretForms(v)) all.add(form);
  return [...all].sort((a, b) => b.length - a.length);
}

/** A Redactor over these (already expanded) secrets; undefined when there are none. */
export function redactorOf(secrets: readonly string[] | undefined): Redactor | undefined {
  if (secrets === undefined || secrets.length === 0) return undefined;
  return (text) => redact(text, secrets);
}

/** Past this depth a value in an error is dropped rather than walked (decoded frames stop at 512). */
const MAX_WALK = 1024;

/** A JSON-like value with every string (keys too) redacted; the same value when nothing changed. */
export function redactValue(value: unknown, clean: Redactor): unknown {
  return walk(value, clean, 0, new WeakSet());
}

function walk(value: unknown, clean: Redactor, depth: number, seen: WeakSet<object>): unknown {
  if (typeof value === "string") return clean(value);
  // A value already on the path is a cycle: left as it is (its strings are cleaned where first met).
  if (typeof value !== "object" || value === null || seen.has(value)) return value;
  if (depth > MAX_WALK) return "[redacted]";
  seen.add(value);
  let out: unknown;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((v, i) => {
      const c = walk(v, clean, depth + 1, seen);
      if (c === v) return;
      copy ??= [...value];
      copy[i] = c;
    });
    out = copy;
  } else {
    let copy: Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(value)) {
      const ck = clean(k);
      const cv = walk(v, clean, depth + 1, seen);
      if (ck === k && cv === v) continue;
      copy ??= { ...value };
      if (ck !== k) delete copy[k];
      // Defined, not assigned: a key "__proto__" (JSON.parse makes it an own key) stays a key.
      Object.defineProperty(copy, ck, { value: cv, enumerable: true, writable: true, configurable: true });
    }
    out = copy;
  }
  seen.delete(value);
  return out ?? value;
}

/**
 * The error with every credential taken out, in place: its message and stack, its cause, and every
 * field of its own (McpxError's `data`, HttpStatusError's `body`, ConfigError's `problems`, …). In
 * place, so its class, its code and the error itself stay what they were (an error shared by every
 * request of a closed connection is cleaned once for all of them). Anything but an Error is
 * returned as it is.
 */
export function redactError<T>(err: T, clean: Redactor, seen = new WeakSet<object>()): T {
  if (!(err instanceof Error) || seen.has(err)) return err;
  seen.add(err);
  const e = err as Error & Record<string, unknown>;
  for (const key of ["message", "stack", "cause", ...Object.keys(e)]) {
    const v = e[key];
    if (typeof v !== "string" && (typeof v !== "object" || v === null)) continue;
    const c = v instanceof Error ? redactError(v, clean, seen) : walk(v, clean, 0, new WeakSet());
    if (c !== v) replace(e, key, c);
  }
  return err;
}

/**
 * Sets a field, or shadows it with an own one where it is a getter (DOMException's message). A
 * frozen error keeps what it has: there is no cleaning it in place.
 */
function replace(e: Record<string, unknown>, key: string, value: unknown): void {
  try {
    e[key] = value;
  } catch {
    try {
      Object.defineProperty(e, key, { value, writable: true, configurable: true });
    } catch {
      // frozen
    }
  }
}
