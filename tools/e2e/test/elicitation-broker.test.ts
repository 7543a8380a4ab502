/**
 * The elicitation broker end to end: a real daemon (`serve`) in front of scripted upstreams of each
 * revision that has elicitation, questions held by the broker while someone is attached, listed by
 * the control API and `mcpx elicit list`, answered with `mcpx elicit answer`, and the answer arriving
 * at the upstream — or, with nobody attached, cancel at once.
 */
import type { JSONObject } from "@mcpx/core";
import type { Handler, ScriptedServer } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { type DaemonUpstream, daemonCase } from "../src/index.js";

const ask = { name: "ask", description: "asks", inputSchema: { type: "object", properties: {} } };

const form = {
  message: "Who are you?",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", minLength: 2, description: "your name" },
      age: { type: "integer", minimum: 18, default: 36 },
      newsletter: { type: "boolean", default: true },
    },
    required: ["name"],
  },
};

/** A legacy tool that asks its client (mcpx) with elicitation/create and returns the answer as text. */
function legacyAsk(params: JSONObject): Handler {
  return async (_req, ctx) => {
    const answer = await ctx.server.request("elicitation/create", params, { push: ctx.push });
    return { content: [{ type: "text", text: JSON.stringify(answer.result ?? answer.error) }] };
  };
}

/** A modern tool that asks through input_required and returns the answer its retry carried. */
function modernAsk(params: JSONObject): Handler {
  return (req) => {
    const responses = req.params?.inputResponses as JSONObject | undefined;
    if (!responses) {
      return {
        resultType: "input_required",
        inputRequests: { who: { method: "elicitation/create", params } },
        requestState: "asked-once",
      };
    }
    return { resultType: "complete", content: [{ type: "text", text: JSON.stringify(responses.who) }] };
  };
}

function upstream(name: string, version: string, params: JSONObject): DaemonUpstream {
  const modern = version === "2026-07-28";
  return {
    name,
    versions: [version],
    tools: [ask],
    handlers: { "tools/call": modern ? modernAsk(params) : legacyAsk(params) },
  };
}

/** The form as each revision writes it: 2025-06-18 has no `mode`. */
function formFor(version: string): JSONObject {
  return version === "2025-06-18" ? form : { mode: "form", ...form };
}

const REVISIONS = ["2025-06-18", "2025-11-25", "2026-07-28"] as const;
const NAMES: Record<string, string> = { "2025-06-18": "r0618", "2025-11-25": "r1125", "2026-07-28": "r0728" };

function text(result: JSONObject): unknown {
  const content = result.content as { text: string }[] | undefined;
  return JSON.parse(content?.[0]?.text ?? "null");
}

function noFailures(scripted: Record<string, ScriptedServer>): void {
  for (const [name, s] of Object.entries(scripted)) expect(s.failures, name).toEqual([]);
}

describe("elicitation broker (daemon, control API, mcpx elicit)", () => {
  it("broker/form-answered-from-cli", async () => {
    const d = await daemonCase(REVISIONS.map((v) => upstream(NAMES[v] as string, v, formFor(v))));
    await d.watch();
    for (const version of REVISIONS) {
      const name = NAMES[version] as string;
      const call = d.post<JSONObject>("call", { name: `${name}__ask`, arguments: {} });
      const [pending] = await d.pending();
      expect(pending).toMatchObject({
        upstream: name,
        version,
        mode: "form",
        message: "Who are you?",
        related: "tools/call",
        state: "pending",
        requestedSchema: form.requestedSchema,
      });
      const id = String(pending?.id);
      const list = await d.cli("elicit", "list");
      expect(list.code).toBe(0);
      expect(list.stdout).toContain("1 pending elicitation (1 watcher attached):");
      expect(list.stdout).toContain(`  ${id}  form  from ${name}, during tools/call, expires in`);
      expect(list.stdout).toContain("    Who are you?");
      expect(list.stdout).toContain("    name        string, required       your name\n");
      expect(list.stdout).toContain("    age         integer, default 36\n");
      expect(list.stdout).toContain("    newsletter  boolean, default true\n");
      const answered = await d.cli("elicit", "answer", id, "--field", "name=Ada", "--field", "newsletter=no");
      expect(answered).toEqual({
        code: 0,
        stdout: `answered ${id}: accept {"name":"Ada","newsletter":false,"age":36}\n`,
        stderr: "",
      });
      const result = await call;
      expect(result.status).toBe(200);
      // the upstream got the answer: what was set kept, the rest from the schema's defaults
      expect(text(result.body)).toEqual({
        action: "accept",
        content: { name: "Ada", newsletter: false, age: 36 },
      });
      expect((await d.get<{ pending: unknown[] }>("elicitations")).pending).toEqual([]);
    }
    noFailures(d.scripted);
  });

  it("broker/decline", async () => {
    const d = await daemonCase(REVISIONS.map((v) => upstream(NAMES[v] as string, v, formFor(v))));
    await d.watch();
    for (const version of REVISIONS) {
      const name = NAMES[version] as string;
      const call = d.post<JSONObject>("call", { name: `${name}__ask`, arguments: {} });
      const [pending] = await d.pending();
      const answered = await d.cli("elicit", "answer", String(pending?.id), "--decline");
      expect(answered.stdout).toBe(`answered ${String(pending?.id)}: decline\n`);
      expect(text((await call).body)).toEqual({ action: "decline" });
    }
    // --cancel is the third answer
    const call = d.post<JSONObject>("call", { name: "r1125__ask", arguments: {} });
    const [pending] = await d.pending();
    expect((await d.cli("elicit", "answer", String(pending?.id), "--cancel")).code).toBe(0);
    expect(text((await call).body)).toEqual({ action: "cancel" });
    const listed = await d.cli("elicit", "list", "--json");
    const settled = JSON.parse(listed.stdout).settled as JSONObject[];
    expect(settled.map((s) => s.action)).toEqual(["decline", "decline", "decline", "cancel"]);
    noFailures(d.scripted);
  });

  it("broker/cancel-when-nobody-listens", async () => {
    const d = await daemonCase(REVISIONS.map((v) => upstream(NAMES[v] as string, v, formFor(v))));
    for (const version of REVISIONS) {
      const name = NAMES[version] as string;
      // nobody attached (no watch, no list --wait): cancel at once, which is truthful
      const result = await d.post<JSONObject>("call", { name: `${name}__ask`, arguments: {} });
      expect(text(result.body)).toEqual({ action: "cancel" });
    }
    const listed = await d.cli("elicit", "list");
    expect(listed.stdout).toContain("No pending elicitations (0 watchers attached).");
    expect(listed.stdout).toContain("from r0618: cancel (nobody was attached to answer)");
    const events = (await d.get<{ events: JSONObject[] }>("events")).events;
    expect(events.filter((e) => e.type === "elicitation.settled").map((e) => e.action)).toEqual([
      "cancel",
      "cancel",
      "cancel",
    ]);
    noFailures(d.scripted);
  });

  it("broker/list-wait-attaches", async () => {
    const d = await daemonCase([upstream("r1125", "2025-11-25", formFor("2025-11-25"))]);
    // `list --wait` attaches (so the question is held) and lists once one is pending
    const listing = d.cli("elicit", "list", "--wait", "10");
    for (let i = 0; i < 200; i++) {
      if ((await d.get<{ watchers: number }>("elicitations")).watchers === 1) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const call = d.post<JSONObject>("call", { name: "r1125__ask", arguments: {} });
    const out = await listing;
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^1 pending elicitation \(\d watchers? attached\):\n/);
    expect(out.stdout).toContain("    Who are you?\n");
    const [pending] = await d.pending();
    await d.cli("elicit", "answer", String(pending?.id), "--decline");
    expect(text((await call).body)).toEqual({ action: "decline" });
    noFailures(d.scripted);
  });

  it("broker/answer-slower-than-the-request-timeout", async () => {
    // the call's own timeout is 300 ms; the person takes longer, and the upstream is waiting on mcpx
    const d = await daemonCase([upstream("r1125", "2025-11-25", formFor("2025-11-25"))], {
      requestTimeoutMs: 300,
    });
    await d.watch();
    const call = d.post<JSONObject>("call", { name: "r1125__ask", arguments: {} });
    const [pending] = await d.pending();
    await new Promise((r) => setTimeout(r, 900));
    await d.cli("elicit", "answer", String(pending?.id), "--field", "name=Slow");
    expect(text((await call).body)).toMatchObject({ action: "accept", content: { name: "Slow" } });
    // and once answered, the call's clock runs again
    expect(d.scripted.r1125?.frames("notifications/cancelled")).toEqual([]);
    noFailures(d.scripted);
  });

  it("broker/deadline-cancels", async () => {
    const d = await daemonCase([upstream("r1125", "2025-11-25", formFor("2025-11-25"))], {
      plugins: [["@mcpx/elicitation-broker", { timeoutMs: 400 }]],
    });
    await d.watch();
    const call = d.post<JSONObject>("call", { name: "r1125__ask", arguments: {} });
    const [pending] = await d.pending();
    expect(Date.parse(String(pending?.expiresAt)) - Date.parse(String(pending?.createdAt))).toBe(400);
    // nobody answers: at the deadline the answer is cancel
    expect(text((await call).body)).toEqual({ action: "cancel" });
    const listing = await d.get<{ pending: unknown[]; settled: JSONObject[] }>("elicitations");
    expect(listing.pending).toEqual([]);
    expect(listing.settled.at(-1)).toMatchObject({
      action: "cancel",
      reason: "no answer before the deadline",
    });
    // the config's options reached the built-in, which is applied once
    const plugins = await d.cli("plugins", "list", "--json");
    const names = (JSON.parse(plugins.stdout).plugins as { name: string }[]).map((p) => p.name);
    expect(names.filter((n) => n === "@mcpx/elicitation-broker")).toHaveLength(1);
    noFailures(d.scripted);
  });

  it("broker/url-shown-only-https-or-loopback", async () => {
    const urls: string[] = [];
    const d = await daemonCase([
      {
        name: "r1125",
        versions: ["2025-11-25"],
        tools: [ask],
        handlers: {
          "tools/call": async (req, ctx) => {
            const url = String((req.params?.arguments as JSONObject | undefined)?.url);
            urls.push(url);
            const answer = await ctx.server.request(
              "elicitation/create",
              { mode: "url", message: "Sign in", url, elicitationId: `el-${urls.length}` },
              { push: ctx.push },
            );
            return { content: [{ type: "text", text: JSON.stringify(answer.result) }] };
          },
        },
      },
    ]);
    await d.watch();
    for (const url of [
      "https://auth.example.com/sign-in?x=1",
      "http://127.0.0.1:8123/cb",
      "http://localhost/x",
    ]) {
      const call = d.post<JSONObject>("call", { name: "r1125__ask", arguments: { url } });
      const [pending] = await d.pending();
      expect(pending).toMatchObject({ mode: "url", url, elicitationId: `el-${urls.length}` });
      const list = await d.cli("elicit", "list");
      expect(list.stdout).toContain(`    url:  ${url}`);
      expect(list.stdout).toContain(`    host: ${new URL(url).host}`);
      await d.cli("elicit", "answer", String(pending?.id), "--decline");
      expect(text((await call).body)).toEqual({ action: "decline" });
    }
    for (const url of ["http://evil.example/phish", "javascript:alert(1)", "file:///etc/passwd"]) {
      // refused by mcpx itself: never held, never shown, declined
      const result = await d.post<JSONObject>("call", { name: "r1125__ask", arguments: { url } });
      expect(text(result.body)).toEqual({ action: "decline" });
    }
    const listing = await d.get<{ pending: unknown[]; settled: JSONObject[] }>("elicitations");
    expect(listing.pending).toEqual([]);
    const refused = listing.settled.slice(-3);
    for (const s of refused) {
      expect(s).toMatchObject({ mode: "url", action: "decline" });
      expect(String(s.reason)).toMatch(/^URL refused: /);
      expect(s.url).toBeUndefined();
    }
    const list = await d.cli("elicit", "list");
    for (const bad of ["evil.example", "alert(1)", "/etc/passwd"]) expect(list.stdout).not.toContain(bad);
    expect(list.stdout).toContain("decline (URL refused: plain http to a host other than this machine");
    noFailures(d.scripted);
  });

  it("broker/answer-checked-against-schema", async () => {
    const d = await daemonCase([upstream("r0618", "2025-06-18", formFor("2025-06-18"))]);
    await d.watch();
    const call = d.post<JSONObject>("call", { name: "r0618__ask", arguments: {} });
    const [pending] = await d.pending();
    const id = String(pending?.id);
    const bad = await d.cli("elicit", "answer", id, "--field", "age=twelve", "--field", "colour=red");
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toBe(
      [
        "mcpx: colour: is not a field of this form (fields: name, age, newsletter)",
        "mcpx: name: is required",
        "mcpx: age: must be integer",
        "mcpx: nothing was sent; the elicitation is still pending",
        "",
      ].join("\n"),
    );
    const young = await d.cli("elicit", "answer", id, "--json", '{"name":"A","age":12}');
    expect(young.code).toBe(2);
    expect(young.stderr).toContain("mcpx: name: must NOT have fewer than 2 characters\n");
    expect(young.stderr).toContain("mcpx: age: must be >= 18\n");
    // still pending; the daemon checks too, whoever sends the answer
    expect(await d.pending()).toHaveLength(1);
    const direct = await d.post<{ error: { code: number; message: string } }>(`elicitations/${id}/answer`, {
      action: "accept",
      content: { name: 42 },
    });
    expect(direct.status).toBe(400);
    expect(direct.body.error).toMatchObject({ code: -32602 });
    expect(direct.body.error.message).toContain("name: must be string");
    // a good answer goes through, defaults filled
    const good = await d.cli("elicit", "answer", id, "--json", '{"name":"Ada","age":40}');
    expect(good.code).toBe(0);
    expect(text((await call).body)).toEqual({
      action: "accept",
      content: { name: "Ada", age: 40, newsletter: true },
    });
    // an unknown id
    const unknown = await d.cli("elicit", "answer", "nope", "--decline");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('mcpx: no pending elicitation "nope"\n');
    noFailures(d.scripted);
  });
});

describe("url mode end to end", () => {
  it("2025-11-25/elicitation/url-end-to-end", async () => {
    const d = await daemonCase([
      {
        name: "pay",
        versions: ["2025-11-25"],
        tools: [ask],
        handlers: {
          "tools/call": async (_req, ctx) => {
            const answer = await ctx.server.request(
              "elicitation/create",
              {
                mode: "url",
                message: "Confirm the payment in your browser",
                url: "https://pay.example.com/confirm?session=abc",
                elicitationId: "pay-42",
              },
              { push: ctx.push },
            );
            return { content: [{ type: "text", text: JSON.stringify(answer.result) }] };
          },
        },
      },
    ]);
    const w = await d.watch();
    const call = d.post<JSONObject>("call", { name: "pay__ask", arguments: {} });
    const [pending] = await d.pending();
    const id = String(pending?.id);
    // stored: the URL, its host, the server's id; shown by the control API and mcpx elicit list
    expect(pending).toMatchObject({
      upstream: "pay",
      version: "2025-11-25",
      mode: "url",
      message: "Confirm the payment in your browser",
      url: "https://pay.example.com/confirm?session=abc",
      host: "pay.example.com",
      elicitationId: "pay-42",
      state: "pending",
    });
    const list = await d.cli("elicit", "list");
    expect(list.stdout).toContain(`  ${id}  url  from pay, during tools/call, expires in`);
    expect(list.stdout).toContain(
      "    url:  https://pay.example.com/confirm?session=abc\n    host: pay.example.com\n",
    );
    // a URL takes no fields
    expect((await d.cli("elicit", "answer", id, "--field", "x=1")).code).toBe(2);
    // answered: consent; the upstream gets accept
    expect((await d.cli("elicit", "answer", id)).stdout).toBe(`answered ${id}: accept\n`);
    expect(text((await call).body)).toEqual({ action: "accept" });
    // still listed, waiting for the server to complete it
    const waiting = await d.get<{ pending: JSONObject[] }>("elicitations");
    expect(waiting.pending).toMatchObject([{ id, state: "accepted" }]);
    expect((await d.cli("elicit", "list")).stdout).toContain(
      `  ${id}  url  from pay, during tools/call, waiting for completion`,
    );
    // notifications/elicitation/complete: honoured, gone; an unknown id is ignored
    d.scripted.pay?.notify("notifications/elicitation/complete", { elicitationId: "unknown" });
    d.scripted.pay?.notify("notifications/elicitation/complete", { elicitationId: "pay-42" });
    for (let i = 0; i < 100; i++) {
      if ((await d.get<{ pending: unknown[] }>("elicitations")).pending.length === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const done = await d.get<{ pending: unknown[]; settled: JSONObject[] }>("elicitations");
    expect(done.pending).toEqual([]);
    expect(done.settled.at(-1)).toMatchObject({
      id,
      action: "accept",
      reason: "completed by the server",
      url: "https://pay.example.com/confirm?session=abc",
    });
    // the watcher saw it arrive, wait, and complete
    expect(w.events.map((e) => e.event)).toEqual(["snapshot", "pending", "pending", "settled"]);
    expect(d.scripted.pay?.frames("initialize")[0]?.params?.capabilities).toMatchObject({
      elicitation: { form: {}, url: {} },
    });
    noFailures(d.scripted);
  });

  it("2026-07-28/elicitation/url-end-to-end", async () => {
    const url = "http://127.0.0.1:9/oauth/start";
    const d = await daemonCase([
      upstream("oauth", "2026-07-28", { mode: "url", message: "Connect your account", url }),
    ]);
    await d.watch();
    const call = d.post<JSONObject>("call", { name: "oauth__ask", arguments: {} });
    const [pending] = await d.pending();
    const id = String(pending?.id);
    expect(pending).toMatchObject({
      upstream: "oauth",
      version: "2026-07-28",
      mode: "url",
      url,
      host: "127.0.0.1:9",
    });
    // 2026-07-28 has no elicitationId
    expect(pending?.elicitationId).toBeUndefined();
    const list = await d.cli("elicit", "list");
    expect(list.stdout).toContain(`    url:  ${url}`);
    expect((await d.cli("elicit", "answer", id)).code).toBe(0);
    // accept is consent; the retry carries it and learns the outcome from the server
    expect(text((await call).body)).toEqual({ action: "accept" });
    // no completion to wait for: gone at once
    expect((await d.get<{ pending: unknown[] }>("elicitations")).pending).toEqual([]);
    const calls = d.scripted.oauth?.frames("tools/call") ?? [];
    expect(calls).toHaveLength(2);
    expect(calls[1]?.params).toMatchObject({
      inputResponses: { who: { action: "accept" } },
      requestState: "asked-once",
    });
    const meta = calls[0]?.params?._meta as JSONObject;
    expect(meta["io.modelcontextprotocol/clientCapabilities"]).toMatchObject({
      elicitation: { form: {}, url: {} },
    });
    noFailures(d.scripted);
  });
});
