/** The warnings of one import, each naming the key in the host file it is about. */
import { formatKeyPath } from "@mcpx/core";
import type { ImportWarning } from "./types.js";

export type KeyPath = readonly (string | number)[];

export class Report {
  readonly warnings: ImportWarning[] = [];
  /** Where the servers are in the host file (`mcpServers`, `mcp.servers`…): a warning below is about one. */
  serversAt: KeyPath = [];

  warn(at: KeyPath, message: string): void {
    const depth = this.serversAt.length;
    const below = depth > 0 && at.length > depth && this.serversAt.every((seg, i) => at[i] === seg);
    const server = below ? String(at[depth]) : undefined;
    const warning: ImportWarning = { at: formatKeyPath(at) || "(root)", message };
    this.warnings.push(server === undefined ? warning : { server, ...warning });
  }

  /** Every key of `entry` not in `known`, one warning each: nothing is dropped silently. */
  unknownKeys(entry: Record<string, unknown>, known: ReadonlySet<string>, at: KeyPath, host: string): void {
    for (const key of Object.keys(entry)) {
      if (!known.has(key)) this.warn([...at, key], `not a ${host} key mcpx knows; left out`);
    }
  }
}
