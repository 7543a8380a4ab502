/**
 * The stdio transport against a child that writes lines over upstream.maxFrameBytes: the request a
 * line answers fails naming the limit and the stream goes on; the server's own oversized requests and
 * notifications are dropped; a line naming no request closes the connection with that error; a stderr line without end is logged truncated.
 */
import {
  DEFAULT_UPSTREAM_SETTINGS,
  FrameTooLargeError,
  type JSONRPCMessage,
  type Logger,
  type RequestId,
  silentLogger,
} from "@mcpx/core";
import { afterEach, describe, expect, it } from "vitest";
import { StdioTransport } from "../src/index.js";

const LIMIT = 64 * 1024;
const transports: StdioTransport[] = [];
afterEach(async () => {
  for (const t of transports.splice(0)) await t.close();
});

/** A child that writes `script`'s output, then stays until its stdin ends. */
function start(script: string, log: Logger = silentLogger) {
  const failed: [RequestId, Error][] = [];
  const messages: JSONRPCMessage[] = [];
  let closed: (err: Error | undefined) => void = () => {};
  const closedWith = new Promise<Error | undefined>((r) => {
    closed = r;
  });
  let seen: () => void = () => {};
  const lastMessage = new Promise<void>((r) => {
    seen = r;
  });
  const transport = new StdioTransport(
    {
      name: "big",
      command: process.execPath,
      args: ["-e", `const x = (n) => "x".repeat(n); ${script}; process.stdin.resume();`],
    },
    {
      upstream: "big",
      log,
      settings: { ...DEFAULT_UPSTREAM_SETTINGS, maxFrameBytes: LIMIT, closeGrace: 500 },
      sink: {
        message: (msg) => {
          messages.push(msg);
          if ("method" in msg && msg.method === "last") seen();
        },
        requestFailed: (id, err) => failed.push([id, err]),
        closed: (err) => closed(err),
      },
    },
  );
  transports.push(transport);
  return { transport, failed, messages, closedWith, lastMessage };
}

describe("StdioTransport", () => {
  it("stdio/oversized-answer-fails-its-request-and-the-stream-goes-on", async () => {
    const c = start(`
      const w = (s) => process.stdout.write(s + "\\n");
      w('{"jsonrpc":"2.0","id":1,"result":{"text":"' + x(200000) + '"}}');
      w('{"result":{"text":"' + x(200000) + '"},"jsonrpc":"2.0","id":"two"}');
      w('{"jsonrpc":"2.0","id":3,"result":{}}');
      w('{"jsonrpc":"2.0","method":"last"}');
    `);
    await c.transport.open();
    await c.lastMessage;
    expect(c.failed.map(([id]) => id)).toEqual([1, "two"]);
    for (const [, err] of c.failed) {
      expect(err).toBeInstanceOf(FrameTooLargeError);
      expect(err.message).toMatch(
        /^upstream big sent a frame of 195\.\d KiB, over upstream\.maxFrameBytes \(64 KiB\)/,
      );
    }
    expect(c.messages).toEqual([
      { jsonrpc: "2.0", id: 3, result: {} },
      { jsonrpc: "2.0", method: "last" },
    ]);
    // the connection goes on
    await expect(c.transport.send({ jsonrpc: "2.0", method: "ping-note" })).resolves.toBeUndefined();
  });

  it("stdio/oversized-notification-or-server-request-dropped-and-the-stream-goes-on", async () => {
    const c = start(`
      const w = (s) => process.stdout.write(s + "\\n");
      w('{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"' + x(200000) + '"}}');
      w('{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{"x":"' + x(200000) + '"}}');
      w('{"jsonrpc":"2.0","method":"last"}');
    `);
    await c.transport.open();
    await c.lastMessage;
    // no request of mcpx's waited on them: nothing fails, nothing closes
    expect(c.failed).toEqual([]);
    expect(c.messages).toEqual([{ jsonrpc: "2.0", method: "last" }]);
    await expect(c.transport.send({ jsonrpc: "2.0", method: "ping-note" })).resolves.toBeUndefined();
  });

  it("stdio/oversized-line-naming-no-request-closes-the-connection", async () => {
    // A response whose top-level id is nowhere mcpx trusts: some request would wait for nothing.
    const c = start(`process.stdout.write('{"result":{"id":9,"data":"' + x(200000) + '"}}\\n')`);
    await c.transport.open();
    const err = await c.closedWith;
    expect(err).toBeInstanceOf(FrameTooLargeError);
    expect(err?.message).toContain("over upstream.maxFrameBytes (64 KiB)");
    // nothing more is sent, and the child is ended
    await expect(c.transport.send({ jsonrpc: "2.0", method: "x" })).rejects.toBeInstanceOf(
      FrameTooLargeError,
    );
    await c.transport.close();
    const pid = c.transport.pid as number;
    expect(() => process.kill(pid, 0)).toThrow();
  });

  it("stdio/unreadable-lines-logged-at-a-bounded-rate", async () => {
    const warnings: string[] = [];
    const log: Logger = { ...silentLogger, warn: (message) => warnings.push(message) };
    const c = start(
      `for (let i = 0; i < 5000; i++) process.stdout.write("garbage " + i + "\\n");
       process.stdout.write('{"jsonrpc":"2.0","method":"last"}\\n');`,
      log,
    );
    await c.transport.open();
    await c.lastMessage;
    // 5,000 unreadable lines: the first ten, then the 100th and the 1,000th
    expect(warnings).toHaveLength(12);
    expect(warnings.every((w) => w.startsWith("upstream sent a frame mcpx cannot read"))).toBe(true);
    expect(c.messages).toEqual([{ jsonrpc: "2.0", method: "last" }]);
  });

  it("stdio/stderr-line-bounded-and-logged-truncated", async () => {
    const lines: { message: string; fields: Record<string, unknown> | undefined }[] = [];
    let logged: () => void = () => {};
    const done = new Promise<void>((r) => {
      logged = r;
    });
    const log: Logger = {
      ...silentLogger,
      info: (message, fields) => {
        lines.push({ message, fields });
        if (message === "after") logged();
      },
    };
    const c = start(`process.stderr.write("start" + x(4 * 1024 * 1024) + "end\\nafter\\n")`, log);
    await c.transport.open();
    await done;
    expect(lines).toHaveLength(2);
    const [first] = lines;
    expect(first?.message.length).toBeLessThan(1024);
    expect(first?.message.startsWith("startxxx")).toBe(true);
    expect(first?.message.endsWith("xxxend")).toBe(true);
    expect(first?.fields).toMatchObject({ upstream: "big", stream: "stderr" });
    expect(String(first?.fields?.truncated)).toContain("a line of 4.0 MiB");
  });
});
