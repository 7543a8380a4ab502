/**
 * The hostile upstream itself, driven by hand (raw stdin/stdout, raw fetch), so that each mode is
 * known to do what it says before a suite relies on it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { type HostileMode, hostileHttp, hostileStdio } from "../src/index.js";

const echo = { name: "echo", inputSchema: { type: "object" } };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

/** The hostile stdio upstream as a child of this test, with its stdout collected as bytes. */
async function stdioChild(modes: HostileMode[], versions = ["2025-06-18"]) {
  const h = await hostileStdio({ versions, tools: [echo], modes });
  const child: ChildProcess = spawn(h.command, h.args, { stdio: ["pipe", "pipe", "pipe"] });
  // A child that crashes or exits at start resets its pipes (ECONNRESET, EPIPE): that is the test.
  for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.on("error", () => {});
  let out = Buffer.alloc(0);
  child.stdout?.on("data", (chunk: Buffer) => {
    out = Buffer.concat([out, chunk]);
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  cleanups.push(async () => {
    child.kill();
    await h.close();
  });
  const send = (frame: object) => child.stdin?.write(`${JSON.stringify(frame)}\n`);
  const until = async (cond: () => boolean) => {
    for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(cond()).toBe(true);
  };
  const text = () => out.toString("latin1");
  const init = () =>
    send({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: versions[0], capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
  /** The complete line answering `id`, once it has arrived. */
  const answer = async (id: number) => {
    const find = () =>
      out
        .toString("utf8")
        .split("\n")
        .slice(0, -1)
        .find((l) => l.includes(`"id":${id},`));
    await until(() => find() !== undefined);
    return find() ?? "";
  };
  return { h, child, send, until, text, bytes: () => out, exited, init, answer };
}

describe("the hostile upstream over stdio", () => {
  it("hostile/garbage-lines-before-every-frame", async () => {
    const c = await stdioChild([{ mode: "garbage-lines" }]);
    c.init();
    await c.until(() => c.text().includes('"id":0'));
    const bytes = c.bytes();
    expect(bytes.includes(Buffer.from([0x00, 0xff, 0xfe]))).toBe(true);
    expect(c.text()).toContain("{this is not json\n");
    expect(c.text()).toContain('{"jsonrpc":"1.0","method":5}\n');
    expect(bytes.includes(Buffer.from("\uFEFF\n"))).toBe(true);
    // The real answer is a line of its own, whole.
    const answer = c
      .text()
      .split("\n")
      .find((l) => l.includes('"id":0'));
    expect(JSON.parse(answer ?? "")).toMatchObject({ id: 0, result: { protocolVersion: "2025-06-18" } });
  });

  it("hostile/wrong-ids-as-asked", async () => {
    const c = await stdioChild([{ mode: "wrong-ids", how: "string-for-number" }]);
    c.init();
    c.send({ jsonrpc: "2.0", id: 5, method: "tools/list" });
    await c.until(() => c.text().includes('"id":"5"'));
    // The handshake is answered as asked; what follows is not.
    expect(c.text()).toContain('"id":0,');
  });

  it("hostile/flood-at-full-speed-before-the-answer", async () => {
    const c = await stdioChild([{ mode: "flood", what: "progress", count: 5000 }]);
    c.init();
    c.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: {} } });
    await c.until(() => c.text().includes('"id":1,'));
    const lines = c.text().split("\n");
    expect(lines.filter((l) => l.includes("nobody-asked-for-this"))).toHaveLength(5000);
    expect(lines.findIndex((l) => l.includes('"id":1,'))).toBe(lines.length - 2);
  });

  it("hostile/huge-answer-and-endless-line", async () => {
    const huge = await stdioChild([{ mode: "huge-answer", mib: 2 }]);
    huge.init();
    huge.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: {} } });
    expect((await huge.answer(1)).length).toBeGreaterThan(2 * 1024 * 1024);
    const endless = await stdioChild([{ mode: "endless-line" }]);
    endless.init();
    endless.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: {} } });
    await endless.until(() => endless.bytes().length > 4 * 1024 * 1024);
    expect(endless.text().slice(endless.text().indexOf('{"jsonrpc":"2.0","id":1'))).not.toContain("\n");
  });

  it("hostile/crash-mid-call-and-exit-at-start", async () => {
    const crash = await stdioChild([{ mode: "crash-mid-call", code: 3 }]);
    crash.init();
    crash.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: {} } });
    expect(await crash.exited).toBe(3);
    expect(crash.h.hostile.server.frames("tools/call")).toHaveLength(1);
    const early = await stdioChild([{ mode: "exit-at-start", code: 7 }]);
    expect(await early.exited).toBe(7);
    expect(early.h.starts).toBe(1);
  });

  it("hostile/malicious-tool-lists", async () => {
    const c = await stdioChild([{ mode: "malicious-tools" }]);
    c.init();
    c.send({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const line = await c.answer(1);
    const tools = (JSON.parse(line) as { result: { tools: { name: unknown }[] } }).result.tools;
    const names = tools.map((t) => t.name);
    expect(names).toContain("echo");
    expect(names).toContain(42);
    expect(names).toContain("nul\u0000name");
    expect(names).toContain("safe\u202Eexe.txt");
    expect(names.filter((n) => n === "twice")).toHaveLength(2);
    expect(names.some((n) => typeof n === "string" && n.length === 100 * 1024)).toBe(true);
    expect(tools.some((t) => !("inputSchema" in t))).toBe(true);
  });

  it("hostile/server-requests-wait-for-answers", async () => {
    const c = await stdioChild([{ mode: "server-requests", requests: ["unknown-method", "colliding-id"] }]);
    c.init();
    c.send({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "echo", arguments: {} } });
    await c.until(() => c.text().includes("hostile/unknown"));
    c.send({ jsonrpc: "2.0", id: "hostile-1", error: { code: -32601, message: "no" } });
    await c.until(() => c.text().includes('"method":"ping"'));
    expect(c.text()).toContain('{"jsonrpc":"2.0","id":9,"method":"ping"}');
    c.send({ jsonrpc: "2.0", id: 9, result: {} });
    await c.until(() => c.h.hostile.asked.length === 2);
    expect(c.h.hostile.asked.map((q) => q.answer)).toEqual([
      { jsonrpc: "2.0", id: "hostile-1", error: { code: -32601, message: "no" } },
      { jsonrpc: "2.0", id: 9, result: {} },
    ]);
  });

  it("hostile/unknown-revision-and-hung-handshake", async () => {
    const unknown = await stdioChild([{ mode: "unknown-revision" }]);
    unknown.init();
    unknown.send({ jsonrpc: "2.0", id: 1, method: "server/discover", params: {} });
    await unknown.until(() => unknown.text().includes('"id":1,'));
    expect(unknown.text()).toContain('"protocolVersion":"1999-01-01"');
    expect(unknown.text()).toContain('"supported":["1999-01-01"]');
    const hung = await stdioChild([{ mode: "hung-handshake" }]);
    hung.init();
    await hung.h.hostile.server.waitForMethod("initialize");
    hung.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    await hung.until(() => hung.text().includes('"id":1,'));
    expect(hung.text()).not.toContain('"id":0,');
  });
});

describe("the hostile upstream over HTTP", () => {
  async function http(modes: HostileMode[]) {
    const h = await hostileHttp({ versions: ["2025-06-18"], tools: [echo], modes });
    cleanups.push(() => h.close());
    return h;
  }
  const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: {} } };
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
      body: JSON.stringify(body),
    });

  it("hostile/echo-credentials-quotes-what-was-sent", async () => {
    const h = await http([{ mode: "echo-credentials", status: 401 }]);
    const res = await post(`${h.url}?api_key=q-secret`, call, {
      authorization: "Bearer b-secret",
      "x-api-key": "h-secret",
    });
    expect(res.status).toBe(401);
    const body = await res.text();
    for (const secret of ["Bearer b-secret", "api_key=q-secret", "x-api-key: h-secret"])
      expect(body).toContain(secret);
  });

  it("hostile/redirects-to-another-origin-a-path-or-itself", async () => {
    for (const [to, where] of [
      ["foreign", (h: { foreignUrl: string }) => h.foreignUrl],
      ["same-origin", () => "/mcp-moved"],
      ["loop", () => "/mcp"],
    ] as const) {
      const h = await http([{ mode: "redirect", status: 307, to }]);
      const res = await post(h.url, call);
      expect(res.status).toBe(307);
      expect(res.headers.get("location")).toBe(where(h));
    }
  });

  it("hostile/sse-defects-as-named", async () => {
    const read = async (defect: "no-data" | "bad-json" | "bogus-retry" | "close-mid-event") => {
      const h = await http([{ mode: "sse", defect }]);
      const res = await post(h.url, call);
      expect(res.headers.get("content-type")).toBe("text/event-stream");
      return res.text();
    };
    expect(await read("no-data")).toContain("id: 7\n\n");
    expect(await read("bad-json")).toContain("data: {not json\n\n");
    expect(await read("bogus-retry")).toContain("retry: -5\n\n");
    const cut = await read("close-mid-event");
    expect(cut.startsWith("id: cut-1\ndata: ")).toBe(true);
    expect(cut.endsWith("\n\n")).toBe(false);
    // Never ends: the headers come, the answer never does.
    const h = await http([{ mode: "sse", defect: "never-ends" }]);
    const res = await post(h.url, call);
    expect(res.status).toBe(200);
    await res.body?.cancel();
  });
});
