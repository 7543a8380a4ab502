/**
 * A POST's `application/json` answer, read as it arrives. The spec's answer is one JSON object; some
 * servers (the suite's reference server among them) answer with several JSON lines instead, the last
 * the response and those before it notifications (or requests), and keep a subscriptions/listen
 * answer open that way. Both are read: a body whose first line is a JSON value on its own is JSON
 * lines, each line delivered as it completes, in order; anything else (a value spread over several
 * lines, as pretty-printed JSON is) is read whole and decoded once at the end.
 *
 * Bounded as a JSON body always was: the whole body at most `maxBytes` (a Content-Length over it
 * refused before reading a byte; past it nothing more is read and the body is destroyed).
 */
import { decodeMessages, type FramedLine, type JSONRPCMessage, LineFramer } from "@mcpx/core";
import type { Body } from "@mcpx/http";

export interface JsonBodyParts {
  /** The messages of one line (or of the whole body), as they arrive. */
  deliver(messages: JSONRPCMessage[]): void;
  /** A line (numbered from 1) that is no JSON-RPC, skipped; line 0 is a body read whole. */
  unreadable(line: number, err: Error): void;
}

export interface JsonBodyEnd {
  /** The body was longer than allowed: what came past the limit was not read. */
  cut: boolean;
  /** The body's declared length, when it is what refused it. */
  declared?: number;
}

export async function readJsonBody(
  body: Body,
  maxBytes: number,
  contentLength: string | undefined,
  parts: JsonBodyParts,
): Promise<JsonBodyEnd> {
  const declared = contentLength === undefined ? Number.NaN : Number(contentLength);
  if (declared > maxBytes) {
    body.destroy();
    return { cut: true, declared };
  }
  // The body as a whole is bounded, so no line can pass the framer's limit.
  const framer = new LineFramer(maxBytes);
  let mode: "lines" | "whole" | undefined;
  const whole: string[] = [];
  let number = 0;
  const take = (line: FramedLine) => {
    number++;
    if (typeof line !== "string") return;
    if (mode === undefined) {
      if (line.trim() === "") return;
      mode = isJson(line) ? "lines" : "whole";
    }
    if (mode === "whole") {
      whole.push(line);
      return;
    }
    if (line.trim() === "") return;
    try {
      parts.deliver(decodeMessages(line));
    } catch (err) {
      parts.unreadable(number, err as Error);
    }
  };
  let size = 0;
  let cut = false;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    if (chunk.length > maxBytes - size) {
      cut = true;
      break;
    }
    size += chunk.length;
    for (const line of framer.push(chunk)) take(line);
  }
  // Leaving the loop early destroyed the body (and its socket): nothing more is read.
  if (cut) {
    body.destroy();
    return { cut };
  }
  const last = framer.end();
  if (last !== undefined) take(last);
  if (mode === "whole") {
    try {
      parts.deliver(decodeMessages(whole.join("\n")));
    } catch (err) {
      parts.unreadable(0, err as Error);
    }
  }
  return { cut };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
