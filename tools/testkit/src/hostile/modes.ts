/**
 * The ways a hostile upstream misbehaves. Each mode is a plain object naming what it does and its
 * parameters; a hostile server takes any number of them and behaves as a normal scripted server of
 * its revision everywhere else. `method` says which request sets a mode off (default below); "*"
 * means every request after the handshake.
 */

/** Lines that are not a JSON-RPC message, interleaved with the real answers. */
export type GarbageKind =
  /** `{this is not json`, a bare word, an unterminated string. */
  | "not-json"
  /** Valid JSON that is not JSON-RPC: `{"hello":"world"}`, `[1,2]`, `"text"`, a message with jsonrpc 1.0. */
  | "not-jsonrpc"
  /** Bytes that are not UTF-8, with a NUL among them. */
  | "binary"
  /** A UTF-8 byte-order mark alone on a line, and one before a line of text. */
  | "bom"
  /** An empty line, one of spaces, a lone carriage return. */
  | "empty";

export const GARBAGE_KINDS: readonly GarbageKind[] = ["not-json", "not-jsonrpc", "binary", "bom", "empty"];

/** Questions a hostile server asks mcpx while a call is in flight. */
export type ServerRequestKind =
  /** sampling/createMessage, which mcpx declares only when something can answer it. */
  | "sampling"
  /** elicitation/create (form), which revisions before 2025-06-18 do not have. */
  | "elicitation"
  /** roots/list. */
  | "roots"
  /** A request with a method no revision defines. */
  | "unknown-method"
  /** A ping whose id is the very id of the client's request in flight. */
  | "colliding-id";

export const SERVER_REQUEST_KINDS: readonly ServerRequestKind[] = [
  "sampling",
  "elicitation",
  "roots",
  "unknown-method",
  "colliding-id",
];

/** Entries of a malicious tools/list. */
export type MaliciousTool =
  | "no-input-schema"
  | "non-string-name"
  | "nul-in-name"
  | "bidi-in-name"
  | "huge-name"
  | "duplicate";

export const MALICIOUS_TOOLS: readonly MaliciousTool[] = [
  "no-input-schema",
  "non-string-name",
  "nul-in-name",
  "bidi-in-name",
  "huge-name",
  "duplicate",
];

/** Defects of an SSE stream answering a POST (HTTP only). */
export type SseDefect =
  /** Nothing but comments, and the stream never ends (the request is never answered). */
  | "never-ends"
  /** The answer comes, and the stream stays open after it. */
  | "open-after-answer"
  /** Events with no data line (`event:` and `id:` only), then the answer. */
  | "no-data"
  /** Events whose data is not JSON, then the answer. */
  | "bad-json"
  /** `retry:` fields that are negative, not a number, absurdly large; then the answer. */
  | "bogus-retry"
  /** One event of `mib` MiB, then the answer. */
  | "huge-event"
  /** An event that never ends: data lines without the blank line, forever. */
  | "endless-event"
  /** The stream ends in the middle of the event that carries the answer. */
  | "close-mid-event";

export const SSE_DEFECTS: readonly SseDefect[] = [
  "never-ends",
  "open-after-answer",
  "no-data",
  "bad-json",
  "bogus-retry",
  "huge-event",
  "endless-event",
  "close-mid-event",
];

export type HostileMode =
  /** Garbage lines of each of `kinds` (default all) before every frame it writes. */
  | { mode: "garbage-lines"; kinds?: GarbageKind[] }
  /**
   * Answers with the wrong ids: `unasked` sends answers to ids never asked before the real one,
   * `duplicate` sends the real answer twice, `string-for-number` answers a number id as a string.
   */
  | { mode: "wrong-ids"; how: "unasked" | "duplicate" | "string-for-number"; method?: string }
  /** Never answers `method` (default "*": every request after the handshake). */
  | { mode: "never-answer"; method?: string }
  /**
   * `count` notifications, written at full speed, when `method` (default tools/call) is called,
   * before its answer: log lines (notifications/message), progress for a token nobody asked for, or
   * list_changed.
   */
  | { mode: "flood"; what: "log" | "progress" | "list-changed"; count: number; method?: string }
  /**
   * When `method` (default tools/call) is called, before its answer: notifications and requests whose
   * methods are named like Object.prototype members (constructor, __proto__, toString, …).
   */
  | { mode: "prototype-names"; method?: string }
  /** Answers `method` (default tools/call) with a text of `mib` MiB on one line. */
  | { mode: "huge-answer"; mib: number; method?: string }
  /** On `method` (default tools/call), starts a line that never ends (HTTP: a body that never ends). */
  | { mode: "endless-line"; method?: string }
  /** Exits with `code` (default 1) once `method` (default tools/call) arrives, without answering. */
  | { mode: "crash-mid-call"; method?: string; code?: number }
  /** Exits with `code` (default 1) as soon as it starts, before reading anything (stdio only). */
  | { mode: "exit-at-start"; code?: number }
  /** Never answers initialize nor server/discover. */
  | { mode: "hung-handshake" }
  /**
   * Answers initialize with `version` (default 1999-01-01), whatever was offered, and server/discover
   * with -32022 listing only `version`; `via` limits it to one of the two (the other is answered as
   * the server's revision answers it).
   */
  | { mode: "unknown-revision"; version?: string; via?: "initialize" | "server/discover" }
  /** While `method` (default tools/call) is in flight, asks each of `requests` (default all) and then answers. */
  | { mode: "server-requests"; requests?: ServerRequestKind[]; method?: string }
  /** tools/list holds each of `items` (default all) beside the real tools, or `tools` is not an array. */
  | { mode: "malicious-tools"; items?: MaliciousTool[]; notAnArray?: boolean }
  /**
   * HTTP only: answers `method` (default "*") with `status` (401 or 500), the body quoting the
   * request's Authorization header, query string and every other header; as plain text, or as a
   * JSON-RPC error whose message quotes them (`as: "json-rpc"`).
   */
  | { mode: "echo-credentials"; status: 401 | 500; method?: string; as?: "text" | "json-rpc" }
  /**
   * HTTP only: answers `method` (default "*") with a redirect: to another origin (a second listener
   * on 127.0.0.1 that records what reaches it), to another path of the same origin (served normally),
   * or to itself (a loop).
   */
  | { mode: "redirect"; status: 302 | 307 | 308; to: "foreign" | "same-origin" | "loop"; method?: string }
  /** HTTP only: answers `method` (default tools/call) with an SSE stream that has `defect`. */
  | { mode: "sse"; defect: SseDefect; method?: string; mib?: number };

export type ModeName = HostileMode["mode"];

/** Requests that make up the handshake of some revision. */
export const HANDSHAKE_METHODS: readonly string[] = ["initialize", "server/discover"];

const DEFAULT_METHOD: Partial<Record<ModeName, string>> = {
  "wrong-ids": "*",
  "never-answer": "*",
  flood: "tools/call",
  "prototype-names": "tools/call",
  "huge-answer": "tools/call",
  "endless-line": "tools/call",
  "crash-mid-call": "tools/call",
  "server-requests": "tools/call",
  "echo-credentials": "*",
  redirect: "*",
  sse: "tools/call",
};

/** Whether `mode` is set off by a request of `method`. "*" skips the handshake, which has modes of its own. */
export function triggers(mode: HostileMode, method: string): boolean {
  const wanted = ("method" in mode ? mode.method : undefined) ?? DEFAULT_METHOD[mode.mode];
  if (wanted === undefined) return false;
  if (wanted === "*") return !HANDSHAKE_METHODS.includes(method);
  return wanted === method;
}

/** The first mode of this name that `method` sets off. */
export function modeFor<N extends ModeName>(
  modes: readonly HostileMode[],
  name: N,
  method: string,
): Extract<HostileMode, { mode: N }> | undefined {
  return modes.find((m) => m.mode === name && triggers(m, method)) as
    | Extract<HostileMode, { mode: N }>
    | undefined;
}

/** Every mode of this name that `method` sets off. */
export function modesFor<N extends ModeName>(
  modes: readonly HostileMode[],
  name: N,
  method: string,
): Extract<HostileMode, { mode: N }>[] {
  return modes.filter((m) => m.mode === name && triggers(m, method)) as Extract<HostileMode, { mode: N }>[];
}

/** The first mode of this name, whatever sets it off. */
export function hasMode<N extends ModeName>(
  modes: readonly HostileMode[],
  name: N,
): Extract<HostileMode, { mode: N }> | undefined {
  return modes.find((m) => m.mode === name) as Extract<HostileMode, { mode: N }> | undefined;
}

export const MIB = 1024 * 1024;
