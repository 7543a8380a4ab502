/** `mcpx resources list|templates|read` and `mcpx prompts list|get`: the catalog as a client of mcpx sees it. */
import type { JSONObject } from "@mcpx/core";
import type { ListKind } from "@mcpx/gateway";
import { cliContext } from "../cli-peer.js";
import type { MainIO } from "../io.js";
import { findItem, serversFor, serversForUri } from "../lookup.js";
import { printJson, type UpstreamOptions, withUpstreams } from "../one-shot.js";
import { forTerminal, renderContent } from "../render.js";
import { type Cell, styleFor, table } from "../style.js";

/** What identifies an item of each list (a resource's name is only a label: two may share it). */
const KEY: Record<ListKind, string> = {
  tools: "name",
  prompts: "name",
  resources: "uri",
  resourceTemplates: "uriTemplate",
};

export async function listKind(kind: ListKind, opts: UpstreamOptions, io: MainIO): Promise<number> {
  const items = await withUpstreams(opts, io, ({ gateway }) => gateway.catalog.list(kind));
  if (opts.json) {
    printJson(io, { [kind]: items });
    return 0;
  }
  // For a person: what the upstreams wrote, without control characters; what identifies each item
  // (two resources may share a name, never a URI) and its description's first line.
  const text = (v: unknown) => (typeof v === "string" ? forTerminal(v.trim().split("\n")[0] ?? "") : "");
  const rows: Cell[][] = items.map((item) => [
    { text: forTerminal(String(item[KEY[kind]])), colour: "cyan" },
    { text: text(item.description), colour: "dim" },
  ]);
  io.stdout(table(rows, styleFor(io)));
  return 0;
}

export async function readResource(uri: string, opts: UpstreamOptions, io: MainIO): Promise<number> {
  return withUpstreams(
    opts,
    io,
    async ({ gateway }) => {
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
    },
    serversForUri(uri),
  );
}

export async function getPrompt(
  name: string,
  args: Record<string, string>,
  opts: UpstreamOptions,
  io: MainIO,
): Promise<number> {
  return withUpstreams(
    opts,
    io,
    async (rt) => {
      await findItem(rt, "prompts", name);
      const result = await rt.gateway.dispatcher.handle(
        "prompts/get",
        { name, arguments: args },
        cliContext(io),
      );
      if (opts.json) printJson(io, result);
      else {
        for (const m of (result.messages as JSONObject[] | undefined) ?? []) {
          io.stdout(`${forTerminal(String(m.role))}: ${renderContent([m.content]).trimEnd()}\n`);
        }
      }
      return 0;
    },
    serversFor(name),
  );
}
