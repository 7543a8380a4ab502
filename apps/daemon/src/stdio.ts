/**
 * `mcpx stdio`: the gateway for one client on stdin and stdout (MCP hosts launch mcpx as a command).
 * When the client goes away (its input ends) or the host ends mcpx (stop: the CLI calls it on
 * SIGTERM, SIGINT, SIGHUP), every upstream goes too, those still connecting included, and nothing of
 * mcpx's keeps the process alive after.
 */
import type { Readable, Writable } from "node:stream";
import { StdioServer } from "@mcpx/gateway";
import { loadRuntime, type Runtime, type RuntimeOptions } from "./runtime.js";

export interface StdioOptions extends RuntimeOptions {
  input?: Readable;
  output?: Writable;
}

export interface StdioServing {
  runtime: Runtime;
  /** Resolves once mcpx has stopped: the input ended, or stop() was called, and every upstream is closed. */
  done: Promise<void>;
  /** Stops reading the input, ends the client's requests and closes every upstream. */
  stop(): Promise<void>;
}

export async function serveStdio(opts: StdioOptions): Promise<StdioServing> {
  const runtime = await loadRuntime({ ...opts, store: true });
  const { config, gateway, host } = runtime;
  const input = opts.input ?? process.stdin;
  gateway.start();
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      // Read no more: an input still open (a signal came first) would keep the process alive.
      input.destroy();
      await server.close();
      await gateway.stop();
      await runtime.closeStore();
      finish();
    })();
    return stopping;
  };
  const server = new StdioServer(gateway, {
    input,
    output: opts.output ?? process.stdout,
    log: host.log,
    // The same bound as the HTTP endpoint's bodies.
    maxFrameBytes: config.listen.maxBodyBytes,
    // The client went away: so does mcpx.
    onEnd: () => void stop(),
  });
  server.start();
  return { runtime, done, stop };
}
