/**
 * Tool parameters mirrored into HTTP headers (x-mcp-header, 2026-07-28): one type for both sides.
 * The client reads a listed tool's annotations and writes a call's headers; the server checks a
 * call's headers against its arguments. How a revision reads and writes them is its own
 * (`Revision.toolHeaders`); a revision without them answers with `NO_TOOL_HEADERS`.
 */
import type { JSONObject } from "./jsonrpc.js";

export interface ParamHeader {
  /** The name after `Mcp-Param-`, as the tool's schema gives it ("Region"). */
  readonly name: string;
  /** The chain of `properties` keys from the schema's root to the annotated parameter. */
  readonly path: readonly string[];
  /** The parameter's type: only these can be mirrored. */
  readonly type: "string" | "integer" | "boolean";
}

/** What a tool's inputSchema declares: its valid parameter headers, and what makes the tool invalid. */
export interface ToolHeaders {
  readonly headers: readonly ParamHeader[];
  /** Empty when every annotation is valid; a client leaves out a tool with any. */
  readonly problems: readonly string[];
}

export interface ToolHeaderRules {
  /** The parameter headers a tool's inputSchema declares. */
  declared(inputSchema: unknown): ToolHeaders;
  /**
   * The Mcp-Param-* headers of one call, encoded; throws ParamHeaderError when an argument cannot
   * be one (the call is refused before it is sent).
   */
  values(tool: string, headers: readonly ParamHeader[], args: JSONObject | undefined): Record<string, string>;
}

const NONE: ToolHeaders = Object.freeze({ headers: Object.freeze([]), problems: Object.freeze([]) });

/** The rules of a revision that mirrors no tool parameter (every initialize-era revision). */
export const NO_TOOL_HEADERS: ToolHeaderRules = Object.freeze({
  declared: () => NONE,
  values: () => ({}),
});
