/** `mcpx resources list|read` and `mcpx prompts list|get`: the catalog as a client of mcpx sees it. */
import type { JSONObject } from "@mcpx/core";
import type { ListKind } from "@mcpx/gateway";
import { cliContext } from "../cli-peer.js";
import type { MainIO } from "../io.js";
import { type CommonOptions, printJson, withUpstreams } from "../one-shot.js";
import { forTerminal, renderContent } from "../render.js";

export async function listKind(kind: ListKind, opts: CommonOptions, io: MainIO): Promise<number> {
  return withUpstreams(opts, io, async ({ gateway }) => {
    const items = await gateway.catalog.list(kind);
    if (opts.json) {
      printJson(io, { [kind]: items });
      return 0;
    }
    const key = kind === "resources" ? "uri" : kind === "resourceTemplates" ? "uriTemplate" : "name";
    // For a person: what the upstreams wrote, without control characters.
    for (const item of items) {
      const label = forTerminal(String(item[key]));
      const desc =
        typeof item.description === "string" ? `  ${forTerminal(item.description.split("\n")[0] ?? "")}` : "";
      io.stdout(`${label}${desc}\n`);
    }
    return 0;
  });
}

export async function readResource(uri: string, opts: CommonOptions, io: MainIO): Promise<number> {
  return withUpstreams(opts, io, async ({ gateway }) => {
    const result = await gateway.dispatcher.handle("resources/read", { uri }, cliContext(io));
    if (opts.json) printJson(io, result);
    else {
      for (const c of (result.contents as JSONObject[] | undefined) ?? []) {
        io.stdout(
          forTerminal(
            typeof c.text === "string"
              ? `${c.text}\n`
              : `[${String(c.mimeType ?? "blob")} ${String(c.uri)}]\n`,
          ),
        );
      }
    }
    return 0;
  });
}

export async function getPrompt(
  name: string,
  args: JSONObject,
  opts: CommonOptions,
  io: MainIO,
): Promise<number> {
  return withUpstreams(opts, io, async ({ gateway }) => {
    const result = await gateway.dispatcher.handle("prompts/get", { name, arguments: args }, cliContext(io));
    if (opts.json) printJson(io, result);
    else {
      for (const m of (result.messages as JSONObject[] | undefined) ?? []) {
        io.stdout(`${forTerminal(String(m.role))}: ${renderContent([m.content]).trimEnd()}\n`);
      }
    }
    return 0;
  });
}
