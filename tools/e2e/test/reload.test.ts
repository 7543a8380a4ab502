/**
 * Reloading `mcpx serve`'s config without a restart: each way it is asked for (POST /.mcpx/reload,
 * `mcpx reload`, the file changing, SIGHUP to the built mcpx), and what it does to each upstream
 * and to the clients of the unchanged ones.
 */
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { JSONObject } from "@mcpx/core";
import { httpScript, ScriptedServer } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { BUILT_MCPX } from "../src/built-cli.js";
import { afterThisTest, configDir, freePort, mcpx, sleep } from "../src/index.js";
import { legacySession, sseReader } from "./gateway-http.helpers.js";
import { callTool, echo, type ReloadCase, reloadCase, text, until, upstream } from "./reload.helpers.js";

/** The servers' entries of these upstreams, as they were first written. */
const entries = (c: ReloadCase, ...names: string[]) =>
  Object.fromEntries(names.map((n) => [n, c.up[n]?.entry() as JSONObject]));

describe("reload", () => {
  it("reload/added-upstream-loads-the-built-in-it-needs", async () => {
    const c = await reloadCase(["a"], ["a"]);
    const applied = () => c.serving.runtime.host.plugins.map((p) => p.name);
    // Only stdio upstreams: no HTTP transport and no auth scheme applied yet.
    expect(applied()).not.toContain("@mcpx/auth-bearer");
    expect(applied()).not.toContain("@mcpx/transport-streamable-http");
    const server = new ScriptedServer({ versions: ["2025-11-25"], tools: [echo] });
    server.on("tools/call", async (req) => {
      const args = ((req.params as JSONObject | undefined)?.arguments ?? {}) as JSONObject;
      return { content: [{ type: "text", text: `web: ${String(args.text)}` }] };
    });
    const web = await httpScript(server);
    afterThisTest(() => web.close());
    const token = "tok-reload-Zx9";
    await c.write({ ...entries(c, "a"), web: { url: web.url, auth: { type: "bearer", token } } });
    const reload = await c.post("reload");
    expect(reload.status).toBe(200);
    expect(reload.body).toMatchObject({ reloaded: true, added: ["web"] });
    expect(applied()).toEqual(
      expect.arrayContaining(["@mcpx/auth-bearer", "@mcpx/transport-streamable-http"]),
    );
    const call = await callTool(c, "web__echo", { text: "hi" });
    expect(call.status).toBe(200);
    expect(text(call.body)).toBe("web: hi");
    expect(web.requests.length).toBeGreaterThan(0);
    for (const r of web.requests) expect(r.headers.authorization).toBe(`Bearer ${token}`);
    // An unknown auth type is still refused, listing every built-in type.
    await c.write({ ...entries(c, "a"), web: { url: web.url, auth: { type: "bearr", token } } });
    const refused = await c.post("reload");
    expect(refused.status).toBe(400);
    const errors = JSON.stringify(((refused.body.error as JSONObject).data as JSONObject).errors);
    expect(errors).toContain("bearr");
    for (const type of ["bearer", "basic", "header", "env", "query", "oauth"]) expect(errors).toContain(type);
  });

  it("reload/added-connects", async () => {
    const c = await reloadCase(["a", "b"], ["a"]);
    expect((await callTool(c, "b__echo", { text: "x" })).status).not.toBe(200);
    await c.write(entries(c, "a", "b"));
    const reload = await c.post("reload");
    expect(reload.status).toBe(200);
    expect(reload.body).toMatchObject({ reloaded: true, added: ["b"], removed: [], changed: [] });
    // A call right after the reload waits for the new upstream's first connection.
    const call = await callTool(c, "b__echo", { text: "hi" });
    expect(call.status).toBe(200);
    expect(text(call.body)).toBe("b: hi");
    await c.status("b", "connected");
    expect(c.up.a?.script.connections).toBe(1);
  });

  it("reload/removed-closes", async () => {
    const c = await reloadCase(["a", "b"], ["a", "b"]);
    const eof = c.up.b?.script.eof();
    await c.write(entries(c, "a"));
    expect((await c.post("reload")).body).toMatchObject({ reloaded: true, removed: ["b"], added: [] });
    // Closed cleanly: its stdin ended (the child was told to go, not killed mid-frame).
    await eof;
    await c.status("b", undefined);
    const gone = await callTool(c, "b__echo", { text: "x" });
    expect(gone.status).toBe(400);
    expect(JSON.stringify(gone.body)).toContain("b__echo");
    expect(text((await callTool(c, "a__echo", { text: "still" })).body)).toBe("a: still");
  });

  it("reload/changed-reconnects", async () => {
    const c = await reloadCase(["a", "b"], ["a", "b"]);
    expect(c.up.b?.script.connections).toBe(1);
    await c.write({ ...entries(c, "a"), b: c.up.b?.entry({ env: { MODE: "two" } }) as JSONObject });
    const reload = await c.post("reload");
    expect(reload.body).toMatchObject({ reloaded: true, changed: [{ name: "b", keys: ["env"] }] });
    await until(() => c.up.b?.script.connections === 2);
    const call = await callTool(c, "b__echo", { text: "again" });
    expect(text(call.body)).toBe("b: again");
    // The new process runs the new entry.
    expect(c.up.b?.script.env?.MODE).toBe("two");
    // The unchanged one kept its connection.
    expect(c.up.a?.script.connections).toBe(1);
  });

  it("reload/unchanged-sees-only-list-changed", async () => {
    const c = await reloadCase(["a", "b"], ["a"]);
    const s = await legacySession(c.url);
    const get = await fetch(c.url, { headers: { ...s.headers, accept: "text/event-stream" } });
    expect(get.status).toBe(200);
    const sse = sseReader(get);
    afterThisTest(() => sse.cancel());
    const initializes = () => c.up.a?.server.received.filter((r) => r.frame.method === "initialize").length;
    expect(initializes()).toBe(1);
    await c.write(entries(c, "a", "b"));
    expect((await c.post("reload")).status).toBe(200);
    await c.status("b", "connected");
    const frames: JSONObject[] = [];
    for (;;) {
      try {
        frames.push(await sse.frame(500));
      } catch {
        break; // quiet for half a second: everything the reload caused has arrived
      }
    }
    expect(frames.map((f) => f.method)).toContain("notifications/tools/list_changed");
    for (const f of frames) {
      expect(f.method).toMatch(/^notifications\/(tools|prompts|resources)\/list_changed$/);
    }
    // The session and upstream a went on untouched: the same session answers, a never re-initialized.
    const call = await s.request("tools/call", { name: "a__echo", arguments: { text: "same" } });
    expect(text(call.body.result as JSONObject)).toBe("a: same");
    const list = await s.request("tools/list");
    expect(((list.body.result as JSONObject).tools as JSONObject[]).map((t) => t.name)).toEqual([
      "a__echo",
      "a__hold",
      "b__echo",
      "b__hold",
    ]);
    expect(initializes()).toBe(1);
    expect(c.up.a?.script.connections).toBe(1);
  });

  it("reload/bad-config-refused-old-keeps-running", async () => {
    const c = await reloadCase(["a", "b"], ["a"]);
    await c.write({ ...entries(c, "a", "b"), b: { command: "node", bogus: true } });
    const refused = await c.post("reload");
    expect(refused.status).toBe(400);
    const error = refused.body.error as JSONObject;
    expect(error.message).toMatch(/^the new config was refused, the running one stays: /);
    expect((error.data as JSONObject).errors).toEqual(["servers.b.bogus: is not a known key"]);
    const [rejected] = await c.events("config.rejected");
    expect(rejected).toMatchObject({ trigger: "control", errors: (error.data as JSONObject).errors });
    expect(await c.events("config.reloaded")).toEqual([]);
    // The CLI says the same, exit 2.
    const cli = await mcpx(c.dir, "reload");
    expect(cli.code).toBe(2);
    expect(cli.stderr).toMatch(
      /^mcpx: the daemon refused the new config and keeps running the old one:\n {2}servers\.b\.bogus: is not a known key\n$/,
    );
    // Invalid JSON too.
    await writeFile(c.file, "{ not json");
    expect((await c.post("reload")).status).toBe(400);
    // The old config runs on: a answers on its first connection, b was never started.
    expect(text((await callTool(c, "a__echo", { text: "ok" })).body)).toBe("a: ok");
    expect(c.up.a?.script.connections).toBe(1);
    expect(c.up.b?.script.connections).toBe(0);
    expect(c.serving.runtime.config.servers.b).toBeUndefined();
  });

  it("reload/control-route-reloads", async () => {
    const c = await reloadCase(["a", "b"], ["a"], { listen: { token: "s3cret" } });
    const auth = { authorization: "Bearer s3cret" };
    // The same gate as every control route: the token.
    await c.write(entries(c, "a", "b"), { listen: { token: "s3cret" } });
    expect((await c.post("reload")).status).toBe(401);
    expect(c.up.b?.script.connections).toBe(0);
    const ok = await c.post("reload", {}, auth);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ reloaded: true, added: ["b"] });
    const [event] = await (async () => {
      const res = await fetch(`${c.control}events`, { headers: auth });
      return ((await res.json()) as JSONObject).events as JSONObject[];
    })().then((all) => all.filter((e) => e.type === "config.reloaded"));
    expect(event).toMatchObject({ trigger: "control", added: ["b"], removed: [], changed: [] });
    // `mcpx reload` (which reads the token from the config) says what changed.
    await c.write(entries(c, "b"), { listen: { token: "s3cret" } });
    const cli = await mcpx(c.dir, "reload");
    expect(cli).toMatchObject({ code: 0, stdout: "reloaded\nremoved: a\n", stderr: "" });
  });

  it("reload/file-change-reloads", async () => {
    const c = await reloadCase(["a", "b", "c"], ["a"], { reload: { watch: true, debounce: 50 } });
    // Saved as editors do: a new file renamed over the old.
    await c.write(entries(c, "a", "b"), { reload: { watch: true, debounce: 50 } }, { rename: true });
    await c.status("b", "connected");
    // And written in place.
    await c.write(entries(c, "a", "b", "c"), { reload: { watch: true, debounce: 50 } });
    await c.status("c", "connected");
    const reloaded = await c.events("config.reloaded");
    expect(reloaded.map((e) => e.trigger)).toEqual(reloaded.map(() => "file"));
    expect(reloaded.flatMap((e) => e.added)).toEqual(["b", "c"]);
    expect(c.up.a?.script.connections).toBe(1);
  });

  it("reload/in-flight-call-of-removed-upstream-finishes", async () => {
    const c = await reloadCase(["a", "b"], ["a", "b"]);
    // Within the grace: the call in flight finishes with its answer, then the connection closes.
    const held = callTool(c, "b__hold");
    await until(() => c.up.b?.calls() === 1);
    await c.write(entries(c, "a"), { reload: { grace: 30_000 } });
    expect((await c.post("reload")).body).toMatchObject({ removed: ["b"] });
    // Routed to no more, though its connection is still open for the call in flight.
    expect((await callTool(c, "b__echo", { text: "x" })).status).toBe(400);
    const eof = c.up.b?.script.eof();
    c.up.b?.release();
    const answer = await held;
    expect(answer.status).toBe(200);
    expect(text(answer.body)).toBe("b held");
    await eof;

    // Past the grace: the call fails with an error that says why, and nothing is left open.
    const d = await reloadCase(["a", "b"], ["a", "b"]);
    const stuck = callTool(d, "b__hold");
    await until(() => d.up.b?.calls() === 1);
    const gone = d.up.b?.script.eof();
    await d.write(entries(d, "a"), { reload: { grace: 100 } });
    expect((await d.post("reload")).status).toBe(200);
    const failed = await stuck;
    expect(failed.status).toBe(400);
    expect((failed.body.error as JSONObject).message).toBe(
      "upstream b was removed from the config by a reload; this call did not finish within reload.grace (100 ms)",
    );
    await gone;
  });

  it("reload/zero-lost-requests-under-load", async () => {
    const c = await reloadCase(["a", "b", "c"], ["a"]);
    const s = await legacySession(c.url);
    let stop = false;
    let sent = 0;
    const failures: string[] = [];
    const worker = async (w: number) => {
      while (!stop) {
        const n = sent++;
        const res = await s.request("tools/call", { name: "a__echo", arguments: { text: `${w}-${n}` } });
        const result = res.body.result as JSONObject | undefined;
        if (res.res.status !== 200 || !result || text(result) !== `a: ${w}-${n}`) {
          failures.push(`${res.res.status} ${JSON.stringify(res.body)}`);
        }
      }
    };
    const workers = [0, 1, 2, 3].map(worker);
    // Several reloads while the calls run: add, change, remove, add again, change a timeout of b.
    const steps: Record<string, JSONObject>[] = [
      entries(c, "a", "b"),
      {
        ...entries(c, "a"),
        b: c.up.b?.entry({ env: { V: "2" } }) as JSONObject,
        c: c.up.c?.entry() as JSONObject,
      },
      entries(c, "a", "c"),
      entries(c, "a", "b", "c"),
      { ...entries(c, "a", "c"), b: c.up.b?.entry({ timeouts: { request: 9000 } }) as JSONObject },
    ];
    for (const servers of steps) {
      const before = sent;
      await c.write(servers);
      expect((await c.post("reload")).status).toBe(200);
      // Calls kept flowing across this reload.
      await until(() => sent > before + 8);
    }
    stop = true;
    await Promise.all(workers);
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(40);
    expect(c.up.a?.script.connections).toBe(1);
  });

  it("reload/restart-only-key-reported", async () => {
    const c = await reloadCase(["a"], ["a"]);
    await c.write(entries(c, "a"), {
      listen: { maxBodyBytes: 1024 },
      console: false,
      log: { level: "debug" },
    });
    const reload = await c.post("reload");
    expect(reload.body).toMatchObject({
      reloaded: true,
      added: [],
      removed: [],
      changed: [],
      restartOnly: ["listen", "console", "log"],
    });
    const [event] = await c.events("config.reloaded");
    expect(event).toMatchObject({ restartOnly: ["listen", "console", "log"] });
    const cli = await mcpx(c.dir, "reload");
    // Nothing more changed since: the file still differs from what runs in the same keys only.
    expect(cli.code).toBe(0);
    expect(cli.stdout).toBe("reloaded\n");
    // Still listening where it was, with the old bound on bodies (a restart applies the new one).
    const big = await callTool(c, "a__echo", { text: "x".repeat(4096) });
    expect(big.status).toBe(200);
  });
});

describe("reload by signal", { timeout: 60_000 }, () => {
  it("reload/sighup-reloads", async () => {
    const a = await upstream("a");
    const b = await upstream("b");
    const port = await freePort();
    const config = (servers: Record<string, JSONObject>) => ({
      listen: { host: "127.0.0.1", port },
      servers,
      stateDir: ".state",
      reload: { watch: false },
    });
    const dir = await configDir(config({ a: a.entry() }));
    // The built mcpx, as a service manager runs it, told to reload with a real signal.
    const child = spawn(process.execPath, [BUILT_MCPX, "serve", "--config", join(dir, "mcpx.json")], {
      cwd: dir,
      env: { ...process.env, XDG_STATE_HOME: join(dir, ".state") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    afterThisTest(async () => {
      if (child.exitCode === null) child.kill("SIGKILL");
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    await until(() => out.includes("mcpx listening at"), 20_000);
    const connected = async () => {
      const res = await fetch(`http://127.0.0.1:${port}/.mcpx/status`);
      const upstreams = ((await res.json()) as JSONObject).upstreams as JSONObject[];
      return upstreams.filter((u) => u.status === "connected").map((u) => u.name);
    };
    await until(() => a.script.connections === 1, 20_000);
    await writeFile(join(dir, "mcpx.json"), JSON.stringify(config({ a: a.entry(), b: b.entry() })));
    child.kill("SIGHUP");
    let names = await connected();
    const end = Date.now() + 20_000;
    while (names.length < 2 && Date.now() < end) {
      await sleep(50);
      names = await connected();
    }
    expect(names).toEqual(["a", "b"]);
    expect(a.script.connections).toBe(1);
    // SIGHUP reloaded and did not stop it; SIGTERM does.
    expect(child.exitCode).toBe(null);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
