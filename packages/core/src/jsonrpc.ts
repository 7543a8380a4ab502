import { ErrorCode, InvalidRequestError, NestingTooDeepError, ParseError } from "./errors.js";

/** A JSON-RPC id, kept exactly as the peer sent it: a string id is as valid as a number. */
export type RequestId = string | number;

export type JSONObject = { [key: string]: unknown };

export interface JSONRPCRequest {
  jsonrpc: "2.0";
  id: RequestId;
  method: string;
  params?: JSONObject;
}

export interface JSONRPCNotification {
  jsonrpc: "2.0";
  method: string;
  params?: JSONObject;
}

export interface JSONRPCResultResponse {
  jsonrpc: "2.0";
  id: RequestId;
  result: JSONObject;
}

export interface JSONRPCErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JSONRPCErrorResponse {
  jsonrpc: "2.0";
  id: RequestId | null;
  error: JSONRPCErrorObject;
}

export type JSONRPCResponse = JSONRPCResultResponse | JSONRPCErrorResponse;
export type JSONRPCMessage = JSONRPCRequest | JSONRPCNotification | JSONRPCResponse;

/** What one decoded frame holds: a single message or a batch (a JSON array). */
export type JSONRPCFrame = JSONRPCMessage | JSONRPCMessage[];

export function isRequest(m: JSONRPCMessage): m is JSONRPCRequest {
  return "method" in m && "id" in m;
}

export function isNotification(m: JSONRPCMessage): m is JSONRPCNotification {
  return "method" in m && !("id" in m);
}

export function isResponse(m: JSONRPCMessage): m is JSONRPCResponse {
  return !("method" in m);
}

export function isErrorResponse(m: JSONRPCMessage): m is JSONRPCErrorResponse {
  return "error" in m && !("method" in m);
}

export function isResultResponse(m: JSONRPCMessage): m is JSONRPCResultResponse {
  return "result" in m && !("method" in m);
}

function isObject(v: unknown): v is JSONObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isId(v: unknown): v is RequestId {
  return typeof v === "string" || (typeof v === "number" && Number.isFinite(v));
}

/**
 * Checks that a parsed value is one JSON-RPC 2.0 message and returns it typed. Throws
 * InvalidRequestError (-32600) with a message that names what is wrong.
 */
export function toMessage(value: unknown, where = "message"): JSONRPCMessage {
  if (!isObject(value)) {
    throw new InvalidRequestError(`${where} is not a JSON object (got ${describe(value)})`);
  }
  if (value.jsonrpc !== "2.0") {
    throw new InvalidRequestError(`${where}: "jsonrpc" must be "2.0" (got ${describe(value.jsonrpc)})`);
  }
  if ("method" in value) {
    if (typeof value.method !== "string" || value.method === "") {
      throw new InvalidRequestError(
        `${where}: "method" must be a non-empty string (got ${describe(value.method)})`,
      );
    }
    if ("params" in value && value.params !== undefined && !isObject(value.params)) {
      throw new InvalidRequestError(
        `${where}: "params" of ${value.method} must be an object (got ${describe(value.params)})`,
      );
    }
    if ("id" in value && !isId(value.id)) {
      throw new InvalidRequestError(
        `${where}: "id" of ${value.method} must be a string or a number (got ${describe(value.id)})`,
      );
    }
    return value as unknown as JSONRPCMessage;
  }
  const hasResult = "result" in value;
  const hasError = "error" in value;
  if (hasResult === hasError) {
    throw new InvalidRequestError(
      `${where} has no "method" and must then hold exactly one of "result" or "error"`,
    );
  }
  if (hasResult) {
    if (!isId(value.id)) {
      throw new InvalidRequestError(
        `${where}: response "id" must be a string or a number (got ${describe(value.id)})`,
      );
    }
    if (!isObject(value.result)) {
      throw new InvalidRequestError(`${where}: "result" must be an object (got ${describe(value.result)})`);
    }
    return value as unknown as JSONRPCMessage;
  }
  if (value.id !== null && !isId(value.id)) {
    throw new InvalidRequestError(
      `${where}: error response "id" must be a string, a number or null (got ${describe(value.id)})`,
    );
  }
  const error = value.error;
  if (!isObject(error) || typeof error.code !== "number" || typeof error.message !== "string") {
    throw new InvalidRequestError(`${where}: "error" must be an object with a numeric code and a message`);
  }
  return value as unknown as JSONRPCMessage;
}

/**
 * How deep a message's members may nest (an object or array is one level: `{"a":{}}` is 2). Far
 * over any real schema, and far under what JSON.stringify survives on Node 20's default stack
 * (about 4,000 levels: it recurses, and every frame mcpx forwards is serialised again).
 */
export const MAX_NESTING_DEPTH = 512;

/**
 * Decodes one frame of text: a single message, or a batch (a JSON array of messages).
 * Throws ParseError (-32700) when the text is not JSON and InvalidRequestError (-32600) when the
 * JSON is not JSON-RPC 2.0; both messages say what was wrong.
 *
 * A member nested deeper than MAX_NESTING_DEPTH: a request or notification throws
 * NestingTooDeepError (-32602; `requestId` says which request to answer); a response decodes as the
 * error response it amounts to (-32603, naming the limit), so whoever waits for it fails at once
 * with the reason rather than at its timeout, and nothing that deep travels on.
 */
export function decodeFrame(text: string): JSONRPCFrame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new ParseError(
      `frame is not valid JSON: ${reason} (frame starts ${JSON.stringify(text.slice(0, 40))})`,
    );
  }
  // Nesting d levels takes at least 2d characters: a shorter frame cannot be too deep, and is not walked.
  const walk = text.length > 2 * MAX_NESTING_DEPTH;
  if (Array.isArray(value)) {
    if (value.length === 0) throw new InvalidRequestError("batch is an empty array");
    return value.map((item, i) => {
      const msg = toMessage(item, `batch element ${i}`);
      return walk ? withinDepth(msg) : msg;
    });
  }
  const msg = toMessage(value);
  return walk ? withinDepth(msg) : msg;
}

/**
 * How many levels of objects and arrays a value holds (0 for a string, number, boolean or null).
 * Iterative: a hostile value is as deep as its text allows, and the check must not overflow either.
 */
export function nestingDepth(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  const nodes: object[] = [value];
  const depths: number[] = [1];
  let max = 0;
  while (nodes.length > 0) {
    const node = nodes.pop() as Record<string, unknown>;
    const depth = depths.pop() as number;
    if (depth > max) max = depth;
    if (Array.isArray(node)) {
      for (const child of node) {
        if (typeof child === "object" && child !== null) {
          nodes.push(child);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    for (const key in node) {
      const child = node[key];
      if (typeof child === "object" && child !== null) {
        nodes.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return max;
}

/** The message as it is, or refused (a request, a notification) or replaced (a response) if too deep. */
function withinDepth(msg: JSONRPCMessage): JSONRPCMessage {
  for (const key in msg) {
    const depth = nestingDepth((msg as unknown as JSONObject)[key]);
    if (depth <= MAX_NESTING_DEPTH) continue;
    const data = { depth, limit: MAX_NESTING_DEPTH };
    const over = `nested ${depth} levels deep, over mcpx's limit of ${MAX_NESTING_DEPTH} (MAX_NESTING_DEPTH: JSON nesting of one message)`;
    if ("method" in msg) {
      const id = "id" in msg ? msg.id : undefined;
      throw new NestingTooDeepError(`${key} of ${msg.method} ${over}`, data, id);
    }
    const answer = msg.id === null ? "an error response" : `the answer to request ${JSON.stringify(msg.id)}`;
    const error = {
      code: ErrorCode.InternalError,
      message: `${key} of ${answer} ${over}; it was dropped`,
      data,
    };
    replaced.add(error);
    return { jsonrpc: "2.0", id: msg.id, error };
  }
  return msg;
}

/** The error objects decodeFrame put in place of responses nested too deep (a peer cannot forge one). */
const replaced = new WeakSet<JSONRPCErrorObject>();

/** Whether this error stands for a response nested too deep, dropped as it was decoded (to warn of it). */
export function replacedForDepth(error: JSONRPCErrorObject): boolean {
  return replaced.has(error);
}

/** Decodes a frame and always returns a list, so a batch is dispatched element by element. */
export function decodeMessages(text: string): JSONRPCMessage[] {
  const frame = decodeFrame(text);
  return Array.isArray(frame) ? frame : [frame];
}

export function encodeFrame(frame: JSONRPCFrame): string {
  return JSON.stringify(frame);
}

export function request(id: RequestId, method: string, params?: JSONObject): JSONRPCRequest {
  return params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
}

export function notification(method: string, params?: JSONObject): JSONRPCNotification {
  return params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
}

export function resultResponse(id: RequestId, result: JSONObject): JSONRPCResultResponse {
  return { jsonrpc: "2.0", id, result };
}

export function errorResponse(id: RequestId | null, error: JSONRPCErrorObject): JSONRPCErrorResponse {
  return { jsonrpc: "2.0", id, error };
}

function describe(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  return typeof v === "object" ? "an object" : `${typeof v} ${String(v)}`;
}
