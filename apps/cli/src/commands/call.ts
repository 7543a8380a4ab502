/** `mcpx call <tool> [arguments]`: calls a tool by the name mcpx exposes it under and prints what it returned. */
import { ErrorCode, isCreateTaskResult, type JSONObject } from "@mcpx/core";
import { inputs, toolArguments } from "../arguments.js";
import { DaemonAnswerError, DaemonClient } from "../daemon-client.js";
import { UnreachableError, UsageError } from "../errors.js";
import { EXIT_INTERRUPTED, INTERRUPTED, interactiveCall } from "../interactive-call.js";
import type { MainIO } from "../io.js";
import { findItem, serversFor } from "../lookup.js";
import { printJson, type UpstreamOptions, withUpstreams } from "../one-shot.js";
import { renderContent } from "../render.js";
import { didYouMean } from "../suggest.js";

export interface CallOptions extends UpstreamOptions {
  arg?: string[];
  /** Through the running daemon (questions the upstream asks then reach its broker: mcpx elicit). */
  daemon?: boolean;
}

/**
 * `words` are the arguments after the tool's name: key=value pairs and/or one JSON object; each
 * value is typed by the tool's input schema (arguments.ts), so the tool is looked up first.
 */
export async function call(
  tool: string,
  words: readonly string[],
  opts: CallOptions,
  io: MainIO,
): Promise<number> {
  const given = inputs(words, opts.arg ?? []);
  if (opts.daemon) {
    if (opts.stdio !== undefined || opts.url !== undefined) {
      throw new UsageError("--daemon calls the running daemon's tools: it takes no --stdio or --url");
    }
    const daemon = await DaemonClient.reached(opts, io);
    const listed = await daemon.get<{ tools: JSONObject[] }>("list/tools");
    const found = listed.tools.find((t) => t.name === tool);
    if (!found) {
      // Not listed: the daemon says whether its upstream is down, still connecting or waiting for a
      // login (and which command signs in), which beats "no such tool"; -32602 means a typo.
      let answered: JSONObject;
      try {
        answered = await daemon.post<JSONObject>("call", {
          name: tool,
          arguments: toolArguments(given, undefined),
        });
      } catch (err) {
        if (!(err instanceof DaemonAnswerError)) throw err;
        if (err.code === ErrorCode.UpstreamUnavailable) throw new UnreachableError(err.message);
        if (err.code !== ErrorCode.InvalidParams) throw err;
        throw new UsageError(
          `the daemon has no tool ${tool}`,
          didYouMean(
            tool,
            listed.tools.map((t) => String(t.name)),
          ),
        );
      }
      // Its upstream came up between the listing and the call: the call went through.
      return print(answered, opts, io);
    }
    const args = toolArguments(given, found.inputSchema);
    return print(await daemon.post<JSONObject>("call", { name: tool, arguments: args }), opts, io);
  }
  return withUpstreams(
    opts,
    io,
    async (rt) => {
      const found = await findItem(rt, "tools", tool);
      const args = toolArguments(given, found.inputSchema);
      // Progress drawn on a terminal, Ctrl-C cancels (interactive-call.ts).
      const result = await interactiveCall(io, opts, async (ctx) => {
        const first = await rt.gateway.dispatcher.handle("tools/call", { name: tool, arguments: args }, ctx);
        // A task (SEP-2663) is followed to the tool's result: the command prints what the tool did.
        return isCreateTaskResult(first) ? rt.gateway.dispatcher.tasks.follow(first, ctx) : first;
      });
      if (result === INTERRUPTED) {
        io.stderr("cancelled\n");
        return EXIT_INTERRUPTED;
      }
      return print(result, opts, io);
    },
    serversFor(tool),
  );
}

function print(result: JSONObject, opts: CallOptions, io: MainIO): number {
  if (opts.json) printJson(io, result);
  else io.stdout(renderContent(result.content));
  return result.isError === true ? 1 : 0;
}
