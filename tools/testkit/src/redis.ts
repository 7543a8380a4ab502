/**
 * A real Redis for tests: Debian's redis-server on 127.0.0.1 at a free port, nothing saved to disk.
 * Tests of the Redis store run against it and never skip: without redis-server, startRedis throws
 * and says how to install it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import * as net from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";

export interface RunningRedis {
  /** redis://[:password@]127.0.0.1:<port> */
  url: string;
  port: number;
  pid: number;
  /** Stops this redis-server (its pid only) and waits for it to exit. */
  stop(): Promise<void>;
}

export interface StartRedisOptions {
  /** `requirepass`: clients must AUTH with it. */
  password?: string;
  /** A port to take again (a restart after stop); a free one by default. */
  port?: number;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether something answers PING (+PONG, or -NOAUTH when a password is required) at the port. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => done(/^(\+PONG|-NOAUTH)/.test(data.toString("latin1"))));
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

export async function startRedis(options: StartRedisOptions = {}): Promise<RunningRedis> {
  const port = options.port ?? (await freePort());
  const dir = mkdtempSync(path.join(tmpdir(), "mcpx-redis-"));
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"];
  args.push("--dir", dir, "--daemonize", "no");
  if (options.password !== undefined) args.push("--requirepass", options.password);
  const child = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => {
    output = (output + d.toString()).slice(-4000);
  });
  child.stderr?.on("data", (d: Buffer) => {
    output = (output + d.toString()).slice(-4000);
  });
  const failed = new Promise<Error>((resolve) => {
    child.once("error", (err: NodeJS.ErrnoException) =>
      resolve(
        err.code === "ENOENT"
          ? new Error("redis-server is not installed: `apt-get install -y redis-server` (.ci/run does it)")
          : err,
      ),
    );
    child.once("exit", (code, signal) =>
      resolve(
        new Error(`redis-server exited (${signal ?? `code ${code}`}) before answering PING:\n${output}`),
      ),
    );
  });
  let failure: Error | undefined;
  void failed.then((err) => {
    failure = err;
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited(child);
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (failure) {
      rmSync(dir, { recursive: true, force: true });
      throw failure;
    }
    if (await answersPing(port)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`redis-server on port ${port} did not answer PING within 15 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const auth = options.password !== undefined ? `:${encodeURIComponent(options.password)}@` : "";
  return { url: `redis://${auth}127.0.0.1:${port}`, port, pid: child.pid as number, stop };
}
