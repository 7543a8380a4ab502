/** Turns the text of a JSON body or an SSE event into messages; what cannot be read is logged and skipped. */
import { decodeMessages, type JSONRPCMessage, type Logger } from "@mcpx/core";

export function readFrames(text: string, log: Logger, upstream: string, where: string): JSONRPCMessage[] {
  if (text.trim() === "") return [];
  try {
    return decodeMessages(text);
  } catch (err) {
    log.warn(`upstream ${upstream} sent ${where} that mcpx cannot read; skipped: ${(err as Error).message}`, {
      upstream,
    });
    return [];
  }
}

/** Whether these messages answer the request with this id. */
export function answers(messages: readonly JSONRPCMessage[], id: string | number | undefined): boolean {
  return id !== undefined && messages.some((m) => !("method" in m) && m.id === id);
}
