/**
 * x-mcp-header on a connection: the parameter headers of each listed tool, as the connection's
 * revision reads them (`revision.toolHeaders`: the rules are the revision's, 2026-07-28's plugin
 * holds them). At tools/list a tool with an invalid annotation is left out; at tools/call the value
 * at each annotated path becomes its header, or the call is refused before sending.
 */
import {
  type JSONObject,
  type ParamHeader,
  ParamHeaderError,
  type Tool,
  type ToolHeaderRules,
} from "@mcpx/core";

export class ListedToolHeaders {
  readonly #rules: ToolHeaderRules;
  /** Each listed tool's parameter headers, or why it was left out. */
  readonly #byTool = new Map<string, readonly ParamHeader[] | { invalid: string }>();

  constructor(rules: ToolHeaderRules) {
    this.#rules = rules;
  }

  /**
   * The tools of a whole list that are kept, their annotations recorded; `leftOut` is told of each
   * tool with an invalid one. Runs on the screened list (valid tools, unique names), so a later
   * duplicate never replaces the annotations of the tool kept.
   */
  screen(tools: Tool[], leftOut: (tool: Tool, reason: string) => void): Tool[] {
    const kept: Tool[] = [];
    for (const tool of tools) {
      const { headers, problems } = this.#rules.declared(tool.inputSchema);
      if (problems.length === 0) {
        this.#byTool.set(tool.name, headers);
        kept.push(tool);
      } else {
        const reason = problems.join("; ");
        this.#byTool.set(tool.name, { invalid: reason });
        leftOut(tool, reason);
      }
    }
    return kept;
  }

  /**
   * The Mcp-Param-* headers of a call of `tool`: none for a tool not listed or without annotations;
   * ParamHeaderError for a tool left out at tools/list or an argument no header can carry.
   */
  forCall(tool: string, args: JSONObject | undefined): Record<string, string> | undefined {
    const known = this.#byTool.get(tool);
    if (known === undefined) return undefined;
    if (!Array.isArray(known)) {
      throw new ParamHeaderError(
        `tool ${tool} was left out at tools/list: ${(known as { invalid: string }).invalid}`,
      );
    }
    if (known.length === 0) return undefined;
    return this.#rules.values(tool, known, args);
  }
}
