/**
 * A hostile upstream over stdio: the upstream's command is stdio-main.mjs, which connects back to
 * this process over a local socket (as the scripted servers' relay does); the HostileServer here
 * decides every byte it writes. Each spawn of the command is one connection.
 */

import { randomBytes } from "node:crypto";
import { existsSync, rmSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { onJsonLines } from "../json-lines.js";
import type { Frame } from "../scripted/server.js";
import { type HostileOptions, HostileServer, type Wire } from "./hostile-server.js";
import { hasMode } from "./modes.js";

export interface HostileStdio {
  /** What to put in the upstream's config: run this command with these args. */
  readonly command: string;
  readonly args: string[];
  readonly hostile: HostileServer;
  /** How many times the command was started (each start reports at once, even one that exits at start). */
  readonly starts: number;
  /** Lines read from the child's stdin that are not JSON (what mcpx wrote that it should not have). */
  readonly unreadable: string[];
  /** Resolves when the next (or current) child has connected. */
  connected(): Promise<void>;
  /** Resolves when `n` children have been started in all. */
  started(n: number, timeoutMs?: number): Promise<void>;
  /** Writes bytes to the current child's stdout as they are. */
  raw(bytes: Buffer | string): void;
  close(): Promise<void>;
}

/** The child's script (plain JS, beside this file in the sources; found from the build too). */
export function hostileMainPath(): string {
  for (const rel of ["./stdio-main.mjs", "../src/hostile/stdio-main.mjs"]) {
    const p = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(p)) return p;
  }
  throw new Error("testkit: src/hostile/stdio-main.mjs not found");
}

export async function hostileStdio(options: HostileOptions): Promise<HostileStdio> {
  const hostile = new HostileServer(options);
  const server = hostile.server;
  const socketPath = join(tmpdir(), `mcpx-hostile-${randomBytes(6).toString("hex")}.sock`);
  const exitAtStart = hasMode(options.modes, "exit-at-start");
  let current: Socket | undefined;
  let starts = 0;
  let onStart: (() => void)[] = [];
  const unreadable: string[] = [];

  const command = (obj: unknown) => current?.write(`${JSON.stringify(obj)}\n`);
  const wireOf = (socket: Socket): Wire => {
    const to = (obj: unknown) => socket.write(`${JSON.stringify(obj)}\n`);
    return {
      frame: (f: Frame) => to({ write: Buffer.from(`${JSON.stringify(f)}\n`).toString("base64") }),
      raw: (bytes) => to({ write: bytes.toString("base64") }),
      repeat: (text, times) => to({ repeat: Buffer.from(text).toString("base64"), times }),
      endless: (start) => to({ endless: Buffer.from(start).toString("base64") }),
      exit: (code) => to({ exit: code }),
    };
  };

  const net = createServer((socket) => {
    current = socket;
    // A new child is a new session: nothing negotiated yet.
    server.negotiated = undefined;
    const wire = wireOf(socket);
    server.pushOut = (f) => hostile.emit(f, wire);
    onJsonLines<{ line?: string; env?: unknown }>(socket, (msg) => {
      if (msg.env !== undefined) {
        starts++;
        const waiting = onStart;
        onStart = [];
        for (const fn of waiting) fn();
      }
      if (typeof msg.line === "string") onLine(msg.line, wire);
    });
    socket.on("error", () => {});
  });

  function onLine(line: string, wire: Wire): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      unreadable.push(line.slice(0, 200));
      return;
    }
    for (const frame of (Array.isArray(parsed) ? parsed : [parsed]) as Frame[]) {
      hostile.receive(frame, wire).catch((err: Error) => server.failures.push(`hostile: ${err.message}`));
    }
  }

  await new Promise<void>((resolve) => net.listen(socketPath, resolve));
  const args = [hostileMainPath(), socketPath];
  if (exitAtStart) args.push(`--exit-at-start=${exitAtStart.code ?? 1}`);
  return {
    command: process.execPath,
    args,
    hostile,
    get starts() {
      return starts;
    },
    unreadable,
    connected: () => (current && !current.destroyed ? Promise.resolve() : waitStart()),
    started: (n, timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        if (starts >= n) return resolve();
        const timer = setTimeout(
          () => reject(new Error(`hostile stdio: ${starts} starts, not ${n}, in ${timeoutMs} ms`)),
          timeoutMs,
        );
        const check = () => {
          if (starts < n) return onStart.push(check);
          clearTimeout(timer);
          resolve();
        };
        onStart.push(check);
      }),
    raw: (bytes) => command({ write: Buffer.from(bytes).toString("base64") }),
    close: () =>
      new Promise<void>((resolve) => {
        current?.destroy();
        net.close(() => {
          rmSync(socketPath, { force: true });
          resolve();
        });
      }),
  };

  function waitStart(): Promise<void> {
    return new Promise<void>((resolve) => onStart.push(resolve));
  }
}
