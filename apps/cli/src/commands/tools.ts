/**
 * `mcpx tools list`: per configured server, the revision and transport mcpx negotiated and the
 * tools it offers (as mcpx exposes them, with the upstream's own name), or why it is unreachable.
 */
import { type JSONObject, redact } from "@mcpx/core";
import type { MainIO } from "../io.js";
import { type CommonOptions, printJson, withUpstreams } from "../one-shot.js";
import { forTerminal } from "../render.js";

export interface ToolsListOptions extends CommonOptions {
  server?: string;
}

interface ServerTools {
  server: string;
  status: string;
  revision?: string;
  transport?: string;
  error?: string;
  tools: { name: string; original: string; description?: string }[];
}

export async function toolsList(opts: ToolsListOptions, io: MainIO): Promise<number> {
  return withUpstreams(opts, io, async ({ config, gateway }) => {
    const out: ServerTools[] = [];
    for (const state of gateway.pool.states()) {
      if (opts.server && state.name !== opts.server) continue;
      const entry: ServerTools = { server: state.name, status: state.status, tools: [] };
      if (state.revision) entry.revision = state.revision;
      if (state.transport) entry.transport = state.transport;
      if (state.error) entry.error = state.error;
      const client = gateway.pool.client(state.name);
      const server = gateway.pool.servers().find((s) => s.name === state.name);
      if (client && server) {
        try {
          const tools = await client.listTools();
          entry.tools = tools.map((t: JSONObject) => {
            const tool: ServerTools["tools"][number] = {
              name: gateway.namespaces.name(server, String(t.name)),
              original: String(t.name),
            };
            if (typeof t.description === "string") tool.description = t.description;
            return tool;
          });
        } catch (err) {
          // an upstream's error may quote a credential
          entry.error = redact((err as Error).message, config.secrets);
        }
      }
      out.push(entry);
    }
    if (opts.server && out.length === 0) {
      io.stderr(`mcpx: no server named ${opts.server} in the config\n`);
      return 1;
    }
    if (opts.json) printJson(io, { servers: out });
    else io.stdout(render(out));
    return out.some((s) => s.status !== "connected") ? 1 : 0;
  });
}

/** For a person: what the upstream wrote (names, descriptions, its errors) without control characters. */
function render(servers: ServerTools[]): string {
  const lines: string[] = [];
  for (const s of servers) {
    if (s.status !== "connected") {
      lines.push(`${s.server}: ${s.status}${s.error ? ` (${forTerminal(s.error)})` : ""}`);
      continue;
    }
    lines.push(
      `${s.server}: ${s.revision} over ${s.transport}, ${s.tools.length} tool${s.tools.length === 1 ? "" : "s"}`,
    );
    const names = s.tools.map((t) => forTerminal(t.name));
    const width = Math.max(0, ...names.map((n) => n.length));
    for (const [i, t] of s.tools.entries()) {
      const desc = t.description ? `  ${firstLine(t.description)}` : "";
      lines.push(`  ${(names[i] ?? "").padEnd(width)}${desc}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

function firstLine(text: string): string {
  const line = forTerminal(text.split("\n")[0] ?? "");
  return line.length > 100 ? `${line.slice(0, 97)}...` : line;
}
