/** `mcpx stdio`: the gateway for one client on stdin and stdout (MCP hosts launch mcpx as a command). */
import type { Readable, Writable } from "node:stream";
import { StdioServer } from "@mcpx/gateway";
import { loadRuntime, type Runtime, type RuntimeOptions } from "./runtime.js";

export interface StdioOptions extends RuntimeOptions {
  input?: Readable;
  output?: Writable;
}

export async function serveStdio(opts: StdioOptions): Promise<{ runtime: Runtime; done: Promise<void> }> {
  const runtime = await loadRuntime(opts);
  const { config, gateway, host } = runtime;
  gateway.start();
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const server = new StdioServer(gateway, {
    input: opts.input ?? process.stdin,
    output: opts.output ?? process.stdout,
    log: host.log,
    // The same bound as the HTTP endpoint's bodies.
    maxFrameBytes: config.listen.maxBodyBytes,
    // The client went away: so does mcpx.
    onEnd: () => void gateway.stop().then(finish),
  });
  server.start();
  return { runtime, done };
}
