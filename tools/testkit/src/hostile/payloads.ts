/** What a hostile server writes: garbage lines, floods, malicious tool entries, questions it asks. */
import type { Frame, Id, JSONObject } from "../scripted/server.js";
import {
  GARBAGE_KINDS,
  type GarbageKind,
  MALICIOUS_TOOLS,
  type MaliciousTool,
  type ServerRequestKind,
} from "./modes.js";

const BOM = "\uFEFF";

/** The lines of each garbage kind, each ending in "\n". */
export function garbageLines(kinds: readonly GarbageKind[] = GARBAGE_KINDS): Buffer[] {
  const out: Buffer[] = [];
  for (const kind of kinds) {
    switch (kind) {
      case "not-json":
        out.push(line("{this is not json"), line("hello"), line('"unterminated'));
        break;
      case "not-jsonrpc":
        out.push(
          line('{"hello":"world"}'),
          line("[1,2,3]"),
          line('"just a string"'),
          line('{"jsonrpc":"1.0","method":5}'),
          line('{"jsonrpc":"2.0","id":{"an":"object"},"result":{}}'),
        );
        break;
      case "binary":
        // NUL, bytes that never start UTF-8, a truncated two-byte sequence.
        out.push(Buffer.from([0x00, 0xff, 0xfe, 0x80, 0xc3, 0x28, 0x01, 0x0a]));
        break;
      case "bom":
        out.push(line(BOM), line(`${BOM}not json after a byte-order mark`));
        break;
      case "empty":
        out.push(line(""), line("    "), Buffer.from("\r\n"));
        break;
    }
  }
  return out;
}

function line(text: string): Buffer {
  return Buffer.from(`${text}\n`, "utf8");
}

/** One line of a flood, identical each time (the writer repeats it at full speed). */
/** Methods named like members of Object.prototype: a lookup `TABLE[method]` finds the prototype's. */
export const PROTOTYPE_NAMES = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"];

/**
 * Notifications and requests whose methods are named like Object.prototype members, each once, in
 * one chunk of lines (`prototype-names` flood).
 */
export function prototypeNameLines(): string {
  return PROTOTYPE_NAMES.flatMap((method, i) => [
    JSON.stringify({ jsonrpc: "2.0", method, params: {} }),
    JSON.stringify({ jsonrpc: "2.0", id: `proto-${i}`, method, params: {} }),
  ])
    .map((l) => `${l}\n`)
    .join("");
}

export function floodLine(what: "log" | "progress" | "list-changed"): string {
  const frame: Frame =
    what === "log"
      ? {
          jsonrpc: "2.0",
          method: "notifications/message",
          params: { level: "info", logger: "flood", data: "one more line of a flood" },
        }
      : what === "progress"
        ? {
            jsonrpc: "2.0",
            method: "notifications/progress",
            params: { progressToken: "nobody-asked-for-this", progress: 1, total: 2 },
          }
        : { jsonrpc: "2.0", method: "notifications/tools/list_changed" };
  return `${JSON.stringify(frame)}\n`;
}

/** Tool entries of a malicious list; `good` are the real tools, kept beside them. */
export function maliciousTools(items: readonly MaliciousTool[] = MALICIOUS_TOOLS, good: JSONObject[] = []) {
  const schema = { type: "object" };
  const out: unknown[] = [...good];
  for (const item of items) {
    switch (item) {
      case "no-input-schema":
        out.push({ name: "no_schema" });
        break;
      case "non-string-name":
        out.push({ name: 42, inputSchema: schema }, { name: { an: "object" }, inputSchema: schema });
        break;
      case "nul-in-name":
        out.push({ name: "nul\u0000name", inputSchema: schema });
        break;
      case "bidi-in-name":
        // Right-to-left override and isolates: the name shows as something it is not.
        out.push(
          { name: "safe\u202Eexe.txt", inputSchema: schema },
          { name: "a\u2066b\u2069", inputSchema: schema },
        );
        break;
      case "huge-name":
        out.push({ name: "n".repeat(100 * 1024), inputSchema: schema });
        break;
      case "duplicate":
        out.push(
          { name: "twice", inputSchema: schema },
          { name: "twice", inputSchema: { type: "object", properties: { x: {} } } },
        );
        break;
    }
  }
  return out;
}

/** A question the server asks mcpx, as method and params; `colliding` is the id of the client's request. */
export function serverRequest(
  kind: ServerRequestKind,
  colliding: Id,
): { method: string; params?: JSONObject; id?: Id } {
  switch (kind) {
    case "sampling":
      return {
        method: "sampling/createMessage",
        params: { messages: [{ role: "user", content: { type: "text", text: "hostile" } }], maxTokens: 5 },
      };
    case "elicitation":
      return {
        method: "elicitation/create",
        params: { message: "Your password?", requestedSchema: { type: "object", properties: {} } },
      };
    case "roots":
      return { method: "roots/list" };
    case "unknown-method":
      return { method: "hostile/unknown", params: { anything: true } };
    case "colliding-id":
      return { method: "ping", id: colliding };
  }
}
