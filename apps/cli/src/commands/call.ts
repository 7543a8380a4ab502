/** `mcpx call <tool> [arguments]`: calls a tool by the name mcpx exposes it under and prints what it returned. */
import { InvalidParamsError, type JSONObject } from "@mcpx/core";
import { cliContext } from "../cli-peer.js";
import { DaemonClient } from "../daemon-client.js";
import type { MainIO } from "../io.js";
import { type CommonOptions, printJson, withUpstreams } from "../one-shot.js";
import { renderContent } from "../render.js";

export interface CallOptions extends CommonOptions {
  arg?: string[];
  /** Through the running daemon (questions the upstream asks then reach its broker: mcpx elicit). */
  daemon?: boolean;
}

/** Arguments from a JSON object and/or repeated --arg key=value (values parsed as JSON when they are JSON). */
export function parseArguments(json: string | undefined, pairs: readonly string[] = []): JSONObject {
  let args: JSONObject = {};
  if (json !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch (err) {
      throw new InvalidParamsError(`arguments are not valid JSON: ${(err as Error).message}`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new InvalidParamsError("arguments must be a JSON object");
    }
    args = parsed as JSONObject;
  }
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new InvalidParamsError(`--arg ${JSON.stringify(pair)} is not key=value`);
    const raw = pair.slice(eq + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // a plain string
    }
    args[pair.slice(0, eq)] = value;
  }
  return args;
}

export async function call(
  tool: string,
  json: string | undefined,
  opts: CallOptions,
  io: MainIO,
): Promise<number> {
  const args = parseArguments(json, opts.arg);
  if (opts.daemon) {
    const daemon = await DaemonClient.forConfig(opts, io);
    if (!(await daemon.reachable(2000))) {
      io.stderr(`mcpx: no daemon answers at ${daemon.base} (start one with mcpx serve)\n`);
      return 1;
    }
    return print(await daemon.post<JSONObject>("call", { name: tool, arguments: args }), opts, io);
  }
  return withUpstreams(opts, io, async ({ gateway }) => {
    const result = await gateway.dispatcher.handle(
      "tools/call",
      { name: tool, arguments: args },
      cliContext(io),
    );
    return print(result, opts, io);
  });
}

function print(result: JSONObject, opts: CallOptions, io: MainIO): number {
  if (opts.json) printJson(io, result);
  else io.stdout(renderContent(result.content));
  return result.isError === true ? 1 : 0;
}
