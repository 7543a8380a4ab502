/**
 * Splits a byte stream into lines. A line may arrive in pieces and several may arrive at once;
 * multi-byte UTF-8 characters split across chunks are kept whole by the string decoder.
 */
import { StringDecoder } from "node:string_decoder";

export class LineSplitter {
  readonly #decoder = new StringDecoder("utf8");
  #buffer = "";

  /** Feeds a chunk and returns the complete lines it finished (without "\n" or "\r\n"). */
  push(chunk: Buffer | string): string[] {
    this.#buffer += typeof chunk === "string" ? chunk : this.#decoder.write(chunk);
    if (!this.#buffer.includes("\n")) return [];
    const parts = this.#buffer.split("\n");
    this.#buffer = parts.pop() ?? "";
    return parts.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  }

  /** What is left when the stream ends (a last line without a newline). */
  end(): string | undefined {
    const rest = this.#buffer + this.#decoder.end();
    this.#buffer = "";
    return rest.trim() === "" ? undefined : rest;
  }
}
