/**
 * Which of an upstream's tools mcpx shows: a server's `tools.include` / `tools.exclude` globs
 * (picomatch), on the name the upstream gives the tool. The catalog serves through it and the CLI
 * lists through it, so `mcpx tools list` shows what a client of the gateway sees.
 */
import type { ToolFilter } from "@mcpx/config";
import picomatch from "picomatch";

/** A test of an upstream's own tool name: in the include globs (all when none) and in no exclude glob. */
export function toolFilter(filter: ToolFilter = {}): (name: string) => boolean {
  const include = filter.include?.length ? picomatch(filter.include) : () => true;
  const exclude = filter.exclude?.length ? picomatch(filter.exclude) : () => false;
  return (name) => include(name) && !exclude(name);
}
