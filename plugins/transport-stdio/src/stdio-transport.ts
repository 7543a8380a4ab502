import { type ChildProcess, spawn } from "node:child_process";
import {
  ConnectionClosedError,
  decodeMessages,
  encodeFrame,
  type JSONRPCMessage,
  type NegotiatedSession,
  type Transport,
  type TransportContext,
  type UpstreamTarget,
} from "@mcpx/core";
import { childEnv } from "./child-env.js";
import { LineSplitter } from "./line-splitter.js";

/**
 * One stdio upstream: newline-delimited JSON-RPC on the child's stdin and stdout. A line that is a
 * JSON array is a batch and each element is delivered. The child's stderr goes to the log with the
 * upstream's name. When the child exits, the sink hears it at once, so no caller waits for a deadline.
 */
export class StdioTransport implements Transport {
  readonly kind = "stdio";
  readonly #target: UpstreamTarget;
  readonly #ctx: TransportContext;
  #child: ChildProcess | undefined;
  #exited: Promise<void> | undefined;
  #closing = false;
  #closedError: Error | undefined;

  constructor(target: UpstreamTarget, ctx: TransportContext) {
    if (!target.command) throw new ConnectionClosedError(`upstream ${target.name} has no command to run`);
    this.#target = target;
    this.#ctx = ctx;
  }

  /** The child's process id, once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  open(): Promise<void> {
    const { name, command, args = [], cwd } = this.#target;
    const log = this.#ctx.log;
    return new Promise((resolve, reject) => {
      const child = spawn(command as string, args, {
        cwd,
        env: childEnv(this.#target.env),
        stdio: ["pipe", "pipe", "pipe"],
        windowsHide: true,
      });
      this.#child = child;
      const out = new LineSplitter();
      const err = new LineSplitter();
      child.stdout?.on("data", (chunk: Buffer) => {
        for (const line of out.push(chunk)) this.#line(line);
      });
      child.stderr?.on("data", (chunk: Buffer) => {
        for (const line of err.push(chunk))
          if (line.trim()) log.info(line, { upstream: name, stream: "stderr" });
      });
      // EPIPE on a child that died mid-write surfaces here; the exit handler reports it.
      child.stdin?.on("error", (e) => log.debug("stdin error", { upstream: name, error: e.message }));
      this.#exited = new Promise((done) => {
        child.once("close", (code, signal) => {
          const last = out.end();
          if (last !== undefined) this.#line(last);
          const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
          const error = new ConnectionClosedError(`upstream ${name} (${command}) ${how}`);
          this.#closedError = error;
          if (!this.#closing) log.warn(`upstream process ${how}`, { upstream: name });
          this.#ctx.sink.closed(this.#closing ? undefined : error);
          done();
        });
      });
      child.once("error", (e) => {
        const error = new ConnectionClosedError(
          `upstream ${name}: cannot run ${command}: ${e.message}`,
          undefined,
          {
            cause: e,
          },
        );
        this.#closedError = error;
        reject(error);
      });
      child.once("spawn", () => resolve());
    });
  }

  #line(line: string): void {
    if (line.trim() === "") return;
    let messages: JSONRPCMessage[];
    try {
      messages = decodeMessages(line);
    } catch (err) {
      // A bad line is reported and skipped; the lines after it are still read.
      this.#ctx.log.warn(`upstream sent a frame mcpx cannot read: ${(err as Error).message}`, {
        upstream: this.#target.name,
      });
      return;
    }
    for (const msg of messages) this.#ctx.sink.message(msg, { via: { kind: "stdio" } });
  }

  send(msg: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin?.writable || this.#closedError) {
      return Promise.reject(
        this.#closedError ?? new ConnectionClosedError(`upstream ${this.#target.name} is not running`),
      );
    }
    return new Promise((resolve, reject) => {
      stdin.write(`${encodeFrame(msg)}\n`, (err) => {
        if (err)
          reject(new ConnectionClosedError(`upstream ${this.#target.name}: write failed: ${err.message}`));
        else resolve();
      });
    });
  }

  negotiated(_session: NegotiatedSession): void {
    // Nothing on stdio depends on the revision's transport features.
  }

  /** Closes stdin and waits; then SIGTERM, then SIGKILL, each after the grace period. */
  async close(): Promise<void> {
    const child = this.#child;
    if (!child || !this.#exited || this.#closedError) return;
    this.#closing = true;
    const grace = this.#ctx.settings.closeGrace;
    child.stdin?.end();
    if (await settlesWithin(this.#exited, grace)) return;
    child.kill("SIGTERM");
    if (await settlesWithin(this.#exited, grace)) return;
    child.kill("SIGKILL");
    await this.#exited;
  }
}

function settlesWithin(p: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    p.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
