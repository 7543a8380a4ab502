/**
 * The terminal's questions with scripted input: node:readline over PassThrough streams, driven as a
 * terminal (raw keys: Enter is \r, Ctrl-C is \x03). Each answer is typed once its prompt is on the
 * screen, as a person would.
 */
import { PassThrough } from "node:stream";
import { type ElicitRequestParams, type ServerRequestContext, silentLogger } from "@mcpx/core";
import { createHost } from "@mcpx/host";
import { describe, expect, it } from "vitest";
import plugin, { PLUGIN_NAME, TtyElicitation, type TtyTerminal, ttyElicitation } from "../src/index.js";

// biome-ignore lint/suspicious/noControlCharactersInRegex: readline's cursor movements are the point
const CSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** A terminal whose keys the test types and whose screen it reads (escape sequences removed). */
function scriptedTerminal(extra: Partial<TtyTerminal> = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  let raw = "";
  output.on("data", (chunk: Buffer) => {
    raw += chunk.toString("utf8");
  });
  const screen = () => raw.replace(CSI, "");
  let typedAt = -1;
  const terminal: TtyTerminal = { input, output, terminal: true, interactive: true, ...extra };
  return {
    terminal,
    screen,
    /** Waits until the screen ends with a prompt matching `prompt` (a new one since the last keys), then types. */
    async type(prompt: RegExp, keys: string): Promise<void> {
      const deadline = Date.now() + 2000;
      for (;;) {
        const text = screen();
        if (text.length > typedAt && new RegExp(`${prompt.source}$`).test(text)) break;
        if (Date.now() > deadline) throw new Error(`never prompted ${prompt}; the screen:\n${text}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      typedAt = screen().length;
      input.write(keys);
    },
  };
}

function ctx(): ServerRequestContext & { abort: AbortController } {
  const abort = new AbortController();
  return {
    upstream: "demo",
    version: "2025-11-25",
    signal: abort.signal,
    abort,
    related: { method: "tools/call" },
  };
}

const profile: ElicitRequestParams = {
  mode: "form",
  message: "Tell us about you",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", title: "Name", description: "what we call you", minLength: 2 },
      age: { type: "integer", title: "Age", minimum: 18, default: 36 },
      colour: {
        type: "string",
        title: "Colour",
        oneOf: [
          { const: "#FF0000", title: "Red" },
          { const: "#00FF00", title: "Green" },
          { const: "#0000FF", title: "Blue" },
        ],
        default: "#FF0000",
      },
      size: { type: "string", enum: ["s", "l"], enumNames: ["Small", "Large"] },
      newsletter: { type: "boolean", title: "Newsletter", default: true },
      tags: {
        type: "array",
        title: "Tags",
        items: {
          anyOf: [
            { const: "a", title: "Alpha" },
            { const: "b", title: "Beta" },
          ],
        },
        default: ["b"],
      },
    },
    required: ["name", "size"],
  },
};

describe("form mode", () => {
  it("elicitation-tty/form-fields-from-the-schema-with-defaults-and-enums", async () => {
    const t = scriptedTerminal();
    const asking: boolean[] = [];
    t.terminal.onAsk = (a) => asking.push(a);
    const tty = new TtyElicitation(t.terminal);
    const answer = tty.ask(profile, ctx());

    await t.type(/Name \(text, at least 2 characters, required\): /, "Ada\r");
    await t.type(/Age \(whole number, 18 or more\) \[36\]: /, "\r");
    await t.type(/Colour \(1-3\) \[Red\]: /, "2\r");
    await t.type(/size \(1-2, required\): /, "large\r");
    await t.type(/Newsletter \(y\/n\) \[yes\]: /, "n\r");
    await t.type(/Tags \(one or more of 1-2, separated by commas\) \[Beta\]: /, "\r");
    // reviewed, then edited: the answers given become the defaults
    await t.type(/Send it\? \[Y\]es, \[n\]o \(cancel\), \[e\]dit, \[d\]ecline: /, "e\r");
    await t.type(/Name \(text, at least 2 characters, required\) \[Ada\]: /, "\r");
    await t.type(/Age \(whole number, 18 or more\) \[36\]: /, "40\r");
    await t.type(/Colour \(1-3\) \[Green\]: /, "\r");
    await t.type(/size \(1-2, required\) \[Large\]: /, "\r");
    await t.type(/Newsletter \(y\/n\) \[no\]: /, "\r");
    await t.type(/Tags \(one or more of 1-2, separated by commas\) \[Beta\]: /, "alpha, 2\r");
    await t.type(/Send it\? .*: /, "\r");

    expect(await answer).toEqual({
      action: "accept",
      content: { name: "Ada", age: 40, colour: "#00FF00", size: "l", newsletter: false, tags: ["a", "b"] },
    });
    const screen = t.screen();
    // which server asks, and during what; the message; each field's description and options
    expect(screen).toContain("demo asks (during tools/call):\n  Tell us about you\n");
    expect(screen).toContain("  Name: what we call you\n");
    expect(screen).toContain("    1) Red  2) Green  3) Blue\n");
    expect(screen).toContain("    1) Small  2) Large\n");
    expect(screen).toContain(
      "  Your answer: Name: Ada, Age: 36, Colour: Green, size: Large, Newsletter: no, Tags: Beta\n",
    );
    expect(screen).toContain(
      "  Your answer: Name: Ada, Age: 40, Colour: Green, size: Large, Newsletter: no, Tags: Alpha, Beta\n",
    );
    expect(screen).toContain("  answered: accept\n");
    expect(asking).toEqual([true, false]);
  });

  it("elicitation-tty/invalid-answer-asked-again", async () => {
    const t = scriptedTerminal();
    const tty = new TtyElicitation(t.terminal);
    const answer = tty.ask(
      {
        message: "Contact",
        requestedSchema: {
          type: "object",
          properties: {
            name: { type: "string", minLength: 2 },
            email: { type: "string", format: "email" },
            age: { type: "integer", minimum: 18, maximum: 120 },
            ok: { type: "boolean" },
            pick: { type: "string", enum: ["x", "y"] },
          },
          required: ["name", "age"],
        },
      },
      ctx(),
    );
    const name = /name \(text, at least 2 characters, required\): /;
    await t.type(name, "\r");
    await t.type(name, "A\r");
    await t.type(name, "Ada\r");
    const email = /email \(email\): /;
    await t.type(email, "not-an-address\r");
    await t.type(email, "ada@example.com\r");
    const age = /age \(whole number, 18 to 120, required\): /;
    await t.type(age, "old\r");
    await t.type(age, "12\r");
    await t.type(age, "36.5\r");
    await t.type(age, "36\r");
    const ok = /ok \(y\/n\): /;
    await t.type(ok, "maybe\r");
    await t.type(ok, "yes\r");
    const pick = /pick \(1-2\): /;
    await t.type(pick, "3\r");
    await t.type(pick, "\r"); // optional: left out
    await t.type(/Send it\? .*: /, "y\r");

    expect(await answer).toEqual({
      action: "accept",
      content: { name: "Ada", email: "ada@example.com", age: 36, ok: true },
    });
    const problems = t
      .screen()
      .split("\n")
      .filter((l) => l.startsWith("  ! "));
    expect(problems).toEqual([
      "  ! name: is required",
      "  ! name: must NOT have fewer than 2 characters",
      '  ! email: must match format "email"',
      "  ! age: must be a whole number",
      "  ! age: must be >= 18",
      "  ! age: must be integer",
      "  ! ok: answer y or n",
      "  ! pick: choose a number from 1 to 2, or one of the names listed",
    ]);
  });

  it("elicitation-tty/decline-and-cancel", async () => {
    const form: ElicitRequestParams = {
      message: "Name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    };
    const send = /Send it\? .*: /;
    const name = /name \(text, required\): /;

    // decline, chosen at the review
    let t = scriptedTerminal();
    let answer = new TtyElicitation(t.terminal).ask(form, ctx());
    await t.type(name, "Ada\r");
    await t.type(send, "d\r");
    expect(await answer).toEqual({ action: "decline" });
    expect(t.screen()).toContain("  answered: decline\n");

    // no, at the review: cancel (dismissed without a choice), no content
    t = scriptedTerminal();
    answer = new TtyElicitation(t.terminal).ask(form, ctx());
    await t.type(name, "Ada\r");
    await t.type(send, "n\r");
    expect(await answer).toEqual({ action: "cancel" });

    // Ctrl-C at any prompt: cancel; the terminal is given back
    t = scriptedTerminal();
    const asking: boolean[] = [];
    t.terminal.onAsk = (a) => asking.push(a);
    answer = new TtyElicitation(t.terminal).ask(form, ctx());
    await t.type(name, "Ad\x03");
    expect(await answer).toEqual({ action: "cancel" });
    expect(t.screen()).toMatch(/\n {2}answered: cancel\n$/);
    expect(asking).toEqual([true, false]);

    // the end of the input (Ctrl-D, a closed pipe): cancel
    t = scriptedTerminal();
    answer = new TtyElicitation(t.terminal).ask(form, ctx());
    await t.type(name, "");
    (t.terminal.input as PassThrough).end();
    expect(await answer).toEqual({ action: "cancel" });

    // withdrawn by the server while asked: cancel, and said
    t = scriptedTerminal();
    const c = ctx();
    answer = new TtyElicitation(t.terminal).ask(form, c);
    await t.type(name, "");
    c.abort.abort();
    expect(await answer).toEqual({ action: "cancel" });
    expect(t.screen()).toContain("  withdrawn by the server\n");

    // one question at a time: the second waits for the first to be answered
    t = scriptedTerminal();
    const tty = new TtyElicitation(t.terminal);
    const first = tty.ask(form, ctx());
    const second = tty.ask({ ...form, message: "Second name?" }, ctx());
    await t.type(name, "One\r");
    expect(t.screen()).not.toContain("Second name?");
    await t.type(send, "\r");
    await t.type(name, "Two\r");
    await t.type(send, "\r");
    expect(await first).toEqual({ action: "accept", content: { name: "One" } });
    expect(await second).toEqual({ action: "accept", content: { name: "Two" } });
  });
});

describe("url mode", () => {
  it("elicitation-tty/url-mode-shows-the-domain", async () => {
    const opened: string[] = [];
    const openUrl = (url: string) => {
      opened.push(url);
      return true;
    };
    const ask = (url: string, t: ReturnType<typeof scriptedTerminal>) =>
      new TtyElicitation(t.terminal).ask({ mode: "url", message: "Sign in to continue", url }, ctx());
    const consent = /Enter opens it in your browser \(accept\), Ctrl-C declines: /;

    // the URL in full, its domain plainly (it is not the one the URL starts with), opened on Enter
    let t = scriptedTerminal({ openUrl });
    const misleading = "https://accounts.example.com.evil.test:8443/login?next=%2F";
    let answer = ask(misleading, t);
    await t.type(consent, "\r");
    expect(await answer).toEqual({ action: "accept" });
    expect(opened).toEqual([misleading]);
    expect(t.screen()).toContain(
      "demo asks you to open a URL (during tools/call):\n" +
        "  Sign in to continue\n" +
        `  URL:    ${misleading}\n` +
        "  domain: accounts.example.com.evil.test (port 8443)\n",
    );

    // Ctrl-C declines, and nothing is opened
    t = scriptedTerminal({ openUrl });
    answer = ask("https://example.com/consent", t);
    await t.type(consent, "\x03");
    expect(await answer).toEqual({ action: "decline" });
    expect(opened).toHaveLength(1);

    // punycode is flagged
    t = scriptedTerminal({ openUrl });
    answer = ask("https://xn--pple-43d.com/login", t);
    await t.type(consent, "\r");
    expect(await answer).toEqual({ action: "accept" });
    expect(t.screen()).toContain("  domain: xn--pple-43d.com\n  warning: the domain is written in punycode");

    // without a browser the person opens it
    t = scriptedTerminal();
    answer = ask("https://example.com/consent", t);
    await t.type(/Open it yourself, then press Enter \(accept\), or Ctrl-C to decline: /, "\r");
    expect(await answer).toEqual({ action: "accept" });

    // what is not https (or http to loopback) is refused unshown, and never opened
    for (const bad of ["javascript:alert(1)", "http://example.com/x", "https://user:pw@example.com/"]) {
      t = scriptedTerminal({ openUrl });
      expect(await ask(bad, t)).toEqual({ action: "decline" });
      expect(t.screen()).toMatch(/refused, not shown: .*\(answered decline\)/);
      expect(t.screen()).not.toContain(bad);
    }
    expect(opened).toHaveLength(2);
  });
});

describe("the plugin", () => {
  it("elicitation-tty/asks-only-on-a-terminal", async () => {
    // registered by name; off a terminal it takes no question (the next handler answers)
    const host = createHost({ log: silentLogger });
    await host.use(plugin, undefined, "(test)");
    const [handler] = host.registry.elicitationHandlers();
    expect(handler?.name).toBe(PLUGIN_NAME);
    expect(handler?.modes).toEqual(["form", "url"]);
    const offTerminal = new PassThrough();
    const custom = createHost({ log: silentLogger });
    await custom.use(
      ttyElicitation(() => ({ input: offTerminal, output: new PassThrough() })),
      { openBrowser: false },
      "(test)",
    );
    expect(custom.registry.elicitationHandlers()[0]?.canAnswer?.("form", {})).toBe(false);
  });
});
