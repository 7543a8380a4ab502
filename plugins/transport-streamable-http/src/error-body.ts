/**
 * The body of an HTTP error status. It answers the request when it is JSON-RPC (a 400 with -32022,
 * a 404 with -32601); when not, the status itself is the answer (the era probe keys off a bare 400,
 * 404 or 405), so nothing is logged here.
 */
import { decodeMessages, type JSONRPCMessage } from "@mcpx/core";

export function parseQuietly(text: string): JSONRPCMessage[] | undefined {
  if (text.trim() === "") return undefined;
  try {
    return decodeMessages(text);
  } catch {
    return undefined;
  }
}
