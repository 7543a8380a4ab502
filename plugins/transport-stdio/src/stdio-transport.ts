import { type ChildProcess, spawn } from "node:child_process";
import {
  ConnectionClosedError,
  decodeMessages,
  encodeFrame,
  type FramedLine,
  FrameTooLargeError,
  formatBytes,
  type JSONRPCMessage,
  LineFramer,
  type NegotiatedSession,
  type OversizedLine,
  oversizedFrameId,
  type Transport,
  type TransportCapabilities,
  type TransportContext,
  type UpstreamTarget,
} from "@mcpx/core";
import { childEnv } from "./child-env.js";

/** The longest stderr line logged whole; a child may write megabytes without a newline. */
const STDERR_LINE_BYTES = 64 * 1024;
/** How long a failed write waits for the child's exit to say why. */
const WRITE_ERROR_WAIT_MS = 250;

/**
 * One stdio upstream: newline-delimited JSON-RPC on the child's stdin and stdout. A line that is a
 * JSON array is a batch and each element is delivered. The child's stderr goes to the log with the
 * upstream's name. When the child exits, the sink hears it at once, so no caller waits for a deadline.
 * A line over upstream.maxFrameBytes is dropped as it streams in and fails the request it answers.
 *
 * The child leads a process group of its own (POSIX), and closing signals the group: a server run
 * through `npx -y …` or a shell (`sh -c "node server.js; …"`) is a grandchild of mcpx, which a signal
 * to the direct child alone would leave running. If mcpx itself is killed (SIGKILL) no signal is
 * sent; what remains is that the children's stdin closes with mcpx, and a server that exits at the
 * end of its input (as the stdio transport of the spec expects) ends then.
 */
/**
 * Lines on the child's stdin and stdout: no headers, nothing per request to close (a request is
 * cancelled by notifications/cancelled), no session.
 */
export const STDIO_CAPABILITIES: TransportCapabilities = Object.freeze({
  headers: false,
  abortableSends: false,
  perRequestStreams: false,
  sessions: false,
});

export class StdioTransport implements Transport {
  readonly kind = "stdio";
  readonly capabilities = STDIO_CAPABILITIES;
  readonly #target: UpstreamTarget;
  readonly #ctx: TransportContext;
  #child: ChildProcess | undefined;
  #exited: Promise<void> | undefined;
  #closing = false;
  /** mcpx gave up on the child's output (an oversized line naming no request) and is ending it. */
  #abandoned = false;
  #stopping: Promise<void> | undefined;
  #closedError: Error | undefined;
  /** Lines the child wrote that were not JSON-RPC, so far. */
  #unreadable = 0;

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
        // A process group of its own, so that closing reaches its descendants too (see #signal).
        // On Windows this would open a console window instead: there the child alone is ended.
        detached: GROUPS,
      });
      this.#child = child;
      const out = new LineFramer(this.#ctx.settings.maxFrameBytes);
      const err = new LineFramer(STDERR_LINE_BYTES);
      child.stdout?.on("data", (chunk: Buffer) => {
        for (const line of out.push(chunk)) this.#line(line);
      });
      child.stderr?.on("data", (chunk: Buffer) => {
        for (const line of err.push(chunk)) this.#stderr(line);
      });
      // EPIPE on a child that died mid-write surfaces here; the exit handler reports it.
      child.stdin?.on("error", (e) => log.debug("stdin error", { upstream: name, error: e.message }));
      this.#exited = new Promise((done) => {
        child.once("close", (code, signal) => {
          const last = out.end();
          if (last !== undefined) this.#line(last);
          const rest = err.end();
          if (rest !== undefined) this.#stderr(rest);
          // Already reported when mcpx gave up on the stream (an oversized line without an id).
          if (this.#abandoned) {
            done();
            return;
          }
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

  #line(line: FramedLine): void {
    if (this.#closedError) return;
    if (typeof line !== "string") {
      this.#oversized(line);
      return;
    }
    if (line.trim() === "") return;
    let messages: JSONRPCMessage[];
    try {
      messages = decodeMessages(line);
    } catch (err) {
      // A bad line is reported and skipped; the lines after it are still read. A child that writes
      // garbage at full speed must not flood the log: the first ten are each reported, then only the
      // 100th, 1,000th, … (the log stays a few lines long whatever the child writes).
      const n = ++this.#unreadable;
      if (n <= 10 || Number.isInteger(Math.log10(n))) {
        this.#ctx.log.warn(`upstream sent a frame mcpx cannot read: ${(err as Error).message}`, {
          upstream: this.#target.name,
          ...(n > 1 ? { unreadableSoFar: n } : {}),
        });
      }
      return;
    }
    for (const msg of messages) this.#ctx.sink.message(msg, { via: { kind: "stdio" } });
  }

  /**
   * A line over the limit. When its kept ends show the response's top-level id, that request fails
   * and the connection goes on: newline framing is back in step at the next line. A request or
   * notification of the server's is dropped (no request of ours waits on it). Otherwise some pending
   * request may never hear its answer, and nothing says which: the connection is closed, so every
   * pending request fails at once naming the limit (and the pool restarts it).
   */
  #oversized(line: OversizedLine): void {
    const { name } = this.#target;
    const limit = this.#ctx.settings.maxFrameBytes;
    const error = new FrameTooLargeError(name, { size: line.bytes }, limit);
    const found = oversizedFrameId(line);
    if (found?.kind === "response" && found.id !== undefined) {
      this.#ctx.log.warn(`${error.message}; request ${JSON.stringify(found.id)} fails`, {
        upstream: name,
        maxFrameBytes: limit,
      });
      this.#ctx.sink.requestFailed(found.id, error);
      return;
    }
    if (found?.kind === "request") {
      this.#ctx.log.warn(`${error.message}; it was a request or notification of the server's`, {
        upstream: name,
        maxFrameBytes: limit,
      });
      return;
    }
    this.#ctx.log.warn(`${error.message}; it names no request, so the connection is closed`, {
      upstream: name,
      maxFrameBytes: limit,
    });
    this.#closedError = error;
    this.#abandoned = true;
    this.#ctx.sink.closed(error);
    void this.#stop();
  }

  #stderr(line: FramedLine): void {
    const upstream = this.#target.name;
    if (typeof line === "string") {
      if (line.trim()) this.#ctx.log.info(line, { upstream, stream: "stderr" });
      return;
    }
    this.#ctx.log.info(`${line.head} … ${line.tail}`, {
      upstream,
      stream: "stderr",
      truncated: `a line of ${formatBytes(line.bytes)}, over ${formatBytes(STDERR_LINE_BYTES)}; its middle was dropped`,
    });
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
        if (!err) return resolve();
        // A child that died before or during the write: how it ended (its exit code or signal) says
        // more than EPIPE does, and comes a moment later.
        const failed = new ConnectionClosedError(
          `upstream ${this.#target.name}: write failed: ${err.message}`,
        );
        const exited = this.#exited ?? Promise.resolve();
        void settlesWithin(exited, WRITE_ERROR_WAIT_MS).then(() => reject(this.#closedError ?? failed));
      });
    });
  }

  negotiated(_session: NegotiatedSession): void {
    // Nothing on stdio depends on the revision's transport features.
  }

  /** Closes stdin and waits; then SIGTERM, then SIGKILL, each after the grace period. */
  async close(): Promise<void> {
    // Nothing to do once the child exited (or never ran); after an abandon, wait for its end.
    if (!this.#child || !this.#exited || (this.#closedError && !this.#abandoned)) return;
    this.#closing = true;
    await this.#stop();
  }

  #stop(): Promise<void> {
    this.#stopping ??= (async () => {
      const child = this.#child;
      const exited = this.#exited;
      if (!child || !exited) return;
      const grace = this.#ctx.settings.closeGrace;
      child.stdin?.end();
      if (await settlesWithin(exited, grace)) {
        // The child ended; anything it started and left in its group is ended with it.
        this.#signal(child, "SIGTERM");
        return;
      }
      this.#signal(child, "SIGTERM");
      if (await settlesWithin(exited, grace)) return;
      this.#signal(child, "SIGKILL");
      await exited;
    })();
    return this.#stopping;
  }

  /**
   * Signals the child's process group (the child and its descendants), or the child alone where
   * there are no groups. A group with nobody left in it is no error.
   */
  #signal(child: ChildProcess, signal: NodeJS.Signals): void {
    const pid = child.pid;
    if (GROUPS && pid !== undefined) {
      try {
        process.kill(-pid, signal);
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ESRCH") return;
        this.#ctx.log.debug("could not signal the process group", {
          upstream: this.#target.name,
          error: (err as Error).message,
        });
      }
    }
    child.kill(signal);
  }
}

/** Whether children get a process group of their own (POSIX; on Windows `detached` means a console). */
const GROUPS = process.platform !== "win32";

function settlesWithin(p: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    p.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
