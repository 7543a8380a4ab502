/**
 * Carries a ScriptedServer over stdio: the upstream's command is the relay, which connects back to
 * this process over a local socket. Each spawn of the command is one connection.
 */

import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onJsonLines } from "../json-lines.js";
import { relayPath } from "./relay-path.js";
import type { Frame, ScriptedServer } from "./server.js";

export interface StdioScript {
  /** What to put in the upstream's config: run this command with these args. */
  readonly command: string;
  readonly args: string[];
  readonly server: ScriptedServer;
  /** How many times the command was started. */
  readonly connections: number;
  /** The environment of each child started, in order (the relay reports it first thing). */
  readonly envs: Record<string, string>[];
  /** The environment of the latest child. */
  readonly env: Record<string, string> | undefined;
  /** Resolves when the next (or current) child has connected. */
  connected(): Promise<void>;
  /** Writes a raw line to the client (a batch, a malformed frame). */
  sendRaw(line: string): void;
  /** Writes a line to the child's stderr. */
  stderr(text: string): void;
  /** Makes the child exit with this code. */
  exit(code: number): void;
  /** Resolves when the child's stdin has ended (the client closed it). */
  eof(): Promise<void>;
  close(): Promise<void>;
}

export async function stdioScript(server: ScriptedServer): Promise<StdioScript> {
  const socketPath = join(tmpdir(), `mcpx-relay-${randomBytes(6).toString("hex")}.sock`);
  let current: Socket | undefined;
  let connections = 0;
  let onConnect: (() => void)[] = [];
  let onEof: (() => void)[] = [];
  let eofSeen = false;
  const envs: Record<string, string>[] = [];

  const write = (obj: unknown) => current?.write(`${JSON.stringify(obj)}\n`);
  server.pushOut = (frame: Frame) => write({ line: JSON.stringify(frame) });

  const net = createServer((socket) => {
    current = socket;
    connections++;
    // A new child is a new session: nothing negotiated yet.
    server.negotiated = undefined;
    eofSeen = false;
    onJsonLines<{ line?: string; eof?: boolean; env?: Record<string, string> }>(socket, (msg) => {
      if (msg.env) envs.push(msg.env);
      if (typeof msg.line === "string") void handleLine(msg.line, socket);
      if (msg.eof) {
        eofSeen = true;
        for (const fn of onEof) fn();
        onEof = [];
      }
    });
    socket.on("error", () => {});
    for (const fn of onConnect) fn();
    onConnect = [];
  });

  async function handleLine(line: string, socket: Socket): Promise<void> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      server.failures.push(`client sent a line that is not JSON: ${line.slice(0, 80)}`);
      return;
    }
    const frames = (Array.isArray(parsed) ? parsed : [parsed]) as Frame[];
    const responses = await server.receive(frames);
    for (const r of responses) socket.write(`${JSON.stringify({ line: JSON.stringify(r) })}\n`);
  }

  await new Promise<void>((resolve) => net.listen(socketPath, resolve));
  return {
    command: process.execPath,
    args: [relayPath(), socketPath],
    server,
    get connections() {
      return connections;
    },
    envs,
    get env() {
      return envs.at(-1);
    },
    connected: () =>
      current && !current.destroyed ? Promise.resolve() : new Promise<void>((r) => onConnect.push(r)),
    sendRaw: (line) => write({ line }),
    stderr: (text) => write({ stderr: text }),
    exit: (code) => write({ exit: code }),
    eof: () => (eofSeen ? Promise.resolve() : new Promise<void>((r) => onEof.push(r))),
    close: () =>
      new Promise<void>((resolve) => {
        current?.destroy();
        net.close(() => {
          rmSync(socketPath, { force: true });
          resolve();
        });
      }),
  };
}
