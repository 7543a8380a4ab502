/**
 * `mcpx tools list`: per configured server, the revision and transport mcpx negotiated and the
 * tools it shows (as mcpx exposes them, with the upstream's own name: the server's tools.include /
 * tools.exclude applied, the gateway's own filter), or why it is unreachable. `-s` narrows to one
 * server (and connects only it), `--filter <glob>` to the names that match.
 */
import type { JSONObject } from "@mcpx/core";
import { toolFilter } from "@mcpx/gateway";
import { redact } from "@mcpx/host";
import { UnreachableError } from "../errors.js";
import type { MainIO } from "../io.js";
import { checkServer } from "../lookup.js";
import { printJson, type UpstreamOptions, withUpstreams } from "../one-shot.js";
import { forTerminal } from "../render.js";
import { type Cell, type Style, styleFor, table } from "../style.js";

export interface ToolsListOptions extends UpstreamOptions {
  server?: string;
  filter?: string;
}

interface ServerTools {
  server: string;
  status: string;
  revision?: string;
  transport?: string;
  error?: string;
  /** How many the server shows before --filter. */
  shown?: number;
  tools: { name: string; original: string; description?: string }[];
}

export async function toolsList(opts: ToolsListOptions, io: MainIO): Promise<number> {
  const matches = opts.filter === undefined ? undefined : toolFilter({ include: [opts.filter] });
  const out = await withUpstreams(
    opts,
    io,
    async ({ config, gateway }) => {
      const servers: ServerTools[] = [];
      for (const state of gateway.pool.states()) {
        const entry: ServerTools = { server: state.name, status: state.status, tools: [] };
        if (state.revision) entry.revision = state.revision;
        if (state.transport) entry.transport = state.transport;
        if (state.error) entry.error = state.error;
        const client = gateway.pool.client(state.name);
        const server = gateway.pool.servers().find((s) => s.name === state.name);
        if (client && server) {
          try {
            const shown = toolFilter(server.tools);
            const tools = (await client.listTools())
              .filter((t: JSONObject) => shown(String(t.name)))
              .map((t: JSONObject) => {
                const tool: ServerTools["tools"][number] = {
                  name: gateway.namespaces.name(server, String(t.name)),
                  original: String(t.name),
                };
                if (typeof t.description === "string") tool.description = t.description;
                return tool;
              });
            entry.shown = tools.length;
            entry.tools = matches ? tools.filter((t) => matches(t.name) || matches(t.original)) : tools;
          } catch (err) {
            // an upstream's error may quote a credential
            entry.error = redact((err as Error).message, config.secrets);
          }
        }
        servers.push(entry);
      }
      return servers;
    },
    (config) => {
      if (opts.server === undefined) return undefined;
      checkServer(config, opts.server);
      return [opts.server];
    },
  );
  if (opts.json) printJson(io, { servers: out.map(({ shown: _, ...s }) => s) });
  else io.stdout(render(out, opts, styleFor(io)));
  const down = out.filter((s) => s.status !== "connected");
  if (down.length > 0) {
    // The listing is printed; the exit code and one line on stderr say what could not be reached.
    throw new UnreachableError(
      `${down.map((s) => s.server).join(", ")} ${down.length === 1 ? "is" : "are"} not connected`,
    );
  }
  return 0;
}

/** For a person: what the upstream wrote (names, descriptions, its errors) without control characters. */
function render(servers: ServerTools[], opts: ToolsListOptions, style: Style): string {
  let text = "";
  for (const s of servers) {
    const name = style.paint("bold", s.server);
    if (s.status !== "connected") {
      text += `${name}: ${style.paint("red", s.status)}${s.error ? ` (${forTerminal(s.error)})` : ""}\n`;
      continue;
    }
    const count = s.tools.length;
    const of = opts.filter !== undefined ? `${count} of ${s.shown ?? count}` : `${count}`;
    text += `${name}: ${s.revision} over ${s.transport}, ${of} tool${(s.shown ?? count) === 1 ? "" : "s"}\n`;
    const rows: Cell[][] = s.tools.map((t) => [
      { text: forTerminal(t.name), colour: "cyan" },
      { text: t.description ? firstLine(t.description) : "", colour: "dim" },
    ]);
    text += table(rows, style, "  ");
  }
  return text;
}

function firstLine(text: string): string {
  return forTerminal(text.trim().split("\n")[0] ?? "");
}
