/**
 * What the gateway brings to checking a request's mirrored headers: the request's headers as a
 * reader, and each listed tool's parameter headers. The rules themselves (which header mirrors
 * what, how a value is read and compared) are the client's revision's (`revision.server.checkHeaders`,
 * `revision.toolHeaders`).
 *
 * A tool's parameter headers are read once per catalog generation and set of rules, not per call.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { HeaderReader, JSONObject, ParamHeader, ToolHeaderRules } from "@mcpx/core";
import type { Catalog } from "../../catalog.js";

const NONE: readonly ParamHeader[] = Object.freeze([]);

/** node:http's headers as a reader (names are lower case; a repeated header is joined with ", "). */
export function headerReader(headers: IncomingHttpHeaders): HeaderReader {
  return (name) => {
    const v = headers[name];
    return Array.isArray(v) ? v.join(", ") : v;
  };
}

/** Tool name → its parameter headers as a revision reads them, rebuilt when the catalog's generation moves. */
export class ParamHeaderIndex {
  readonly #catalog: Catalog;
  #generation = -1;
  #tools: readonly JSONObject[] = [];
  readonly #byRules = new Map<ToolHeaderRules, Map<string, readonly ParamHeader[]>>();
  #loading: Promise<void> | undefined;

  constructor(catalog: Catalog) {
    this.#catalog = catalog;
  }

  /** At once while the catalog's generation holds (every call but the first after a change). */
  of(rules: ToolHeaderRules, tool: string): readonly ParamHeader[] | Promise<readonly ParamHeader[]> {
    if (this.#generation !== this.#catalog.generation)
      return this.#reload().then(() => this.#lookup(rules, tool));
    return this.#lookup(rules, tool);
  }

  #lookup(rules: ToolHeaderRules, tool: string): readonly ParamHeader[] {
    let byName = this.#byRules.get(rules);
    if (!byName) {
      byName = new Map();
      for (const t of this.#tools) {
        const { headers } = rules.declared(t.inputSchema);
        if (headers.length > 0) byName.set(String(t.name), headers);
      }
      this.#byRules.set(rules, byName);
    }
    return byName.get(tool) ?? NONE;
  }

  #reload(): Promise<void> {
    this.#loading ??= (async () => {
      const generation = this.#catalog.generation;
      try {
        this.#tools = await this.#catalog.list("tools");
        this.#byRules.clear();
        this.#generation = generation;
      } finally {
        this.#loading = undefined;
      }
    })();
    return this.#loading;
  }
}
