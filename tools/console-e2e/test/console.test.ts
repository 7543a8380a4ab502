/** The web console in a real browser against `mcpx serve` fronting server-everything and a down upstream. */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConsoleDaemon, launchBrowser, screenshot, startDaemon } from "../src/console-harness.js";

let daemon: ConsoleDaemon;
let browser: Browser;
/** Every CSP violation and page error the browser reported, across the tests. */
const problems: string[] = [];

beforeAll(async () => {
  daemon = await startDaemon();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
});

async function open(view = ""): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(e.message));
  await page.goto(`${daemon.base}${view ? `#${view}` : ""}`);
  return page;
}

describe("console", () => {
  it("console/lists-every-upstream-with-its-state", async () => {
    const page = await open();
    const everything = page.locator('[data-upstream="everything"]');
    await expect.poll(() => everything.locator(".state").textContent()).toBe("connected");
    await expect.poll(() => everything.textContent()).toMatch(/Era(legacy|modern)/);
    await expect
      .poll(() => everything.textContent())
      .toMatch(/Tools · prompts · resources[1-9]\d* · \d+ · \d+/);
    const down = page.locator('[data-upstream="down"]');
    await expect.poll(() => down.locator(".state").textContent()).not.toBe("connected");
    await expect.poll(() => down.locator(".error").count()).toBe(1);
    expect(await down.locator(".error").textContent()).not.toBe("");
    await screenshot(page, "upstreams");
    await page.goto(`${daemon.base}#events`);
    await expect.poll(() => page.locator(".events li").count()).toBeGreaterThan(0);
    await page.selectOption("#events-upstream", "down");
    await expect
      .poll(async () => (await page.locator(".events li em").allTextContents()).every((u) => u === "down"))
      .toBe(true);
    await page.selectOption("#events-upstream", "");
    await screenshot(page, "events");
    await page.close();
  });

  it("console/events-filter-by-level", async () => {
    const page = await open("events");
    const shown = () => page.locator(".events li").count();
    await expect.poll(shown).toBeGreaterThan(0);
    const all = await shown();
    const levels = () => page.locator(".events li .level").allTextContents();
    // Every level there is, at first; the down upstream's failures are errors.
    expect(new Set(await levels())).toContain("info");
    expect(new Set(await levels())).toContain("error");
    await page.getByLabel("Level").selectOption({ label: "errors" });
    await expect.poll(shown).toBeLessThan(all);
    expect(new Set(await levels())).toEqual(new Set(["error"]));
    const types = await page.locator(".events li strong").allTextContents();
    expect(types.filter((t) => !/\.(failed|disconnected)$/.test(t))).toEqual([]);
    // Warnings and up: no information; with the upstream filter, the down upstream's alone.
    await page.getByLabel("Level").selectOption({ label: "warnings and errors" });
    expect((await levels()).filter((l) => l === "info")).toEqual([]);
    await page.getByLabel("Upstream", { exact: true }).selectOption("down");
    expect(await shown()).toBeGreaterThan(0);
    expect(new Set(await page.locator(".events li em").allTextContents())).toEqual(new Set(["down"]));
    await page.getByLabel("Level").selectOption({ label: "all" });
    await expect.poll(async () => (await levels()).includes("info")).toBe(true);
    await page.close();
  });

  it("console/reconnect-button-reconnects-now", async () => {
    const page = await open();
    const events = async () =>
      (
        (await (await fetch(`${daemon.base}.mcpx/events`)).json()) as {
          events: { type: string; upstream?: string; attempt?: number }[];
        }
      ).events;
    const count = async (type: string, upstream: string, attempt?: number) =>
      (await events()).filter(
        (e) => e.type === type && e.upstream === upstream && (attempt === undefined || e.attempt === attempt),
      ).length;
    // A connected upstream: closed and connected again, and the card says so.
    const everything = page.locator('[data-upstream="everything"]');
    await expect.poll(() => everything.locator(".state").textContent()).toBe("connected");
    const connections = await count("upstream.connected", "everything");
    await page.getByRole("button", { name: "Reconnect everything" }).click();
    await expect
      .poll(() => count("upstream.connected", "everything"), { timeout: 20_000 })
      .toBe(connections + 1);
    await expect.poll(() => everything.locator(".state").textContent()).toBe("connected");
    // One that is down: tried again at once, counted from the first attempt (the backoff starts over;
    // the backoff's own retries are attempts 2, 3, …).
    const fresh = await count("upstream.connecting", "down", 1);
    await page.getByRole("button", { name: "Reconnect down" }).click();
    await expect.poll(() => count("upstream.connecting", "down", 1)).toBe(fresh + 1);
    await expect
      .poll(() => page.getByRole("button", { name: "Reconnect down" }).textContent())
      .toBe("Reconnect");
    expect(await page.locator('[data-upstream="down"] [role="alert"]').count()).toBe(0);
    await page.close();
  });

  it("console/calls-echo-from-the-explorer", async () => {
    const page = await open("explorer");
    await page.getByLabel("Search").fill("echo");
    await page.getByRole("button", { name: /everything__echo/ }).click();
    await page.getByLabel("message").fill("hello from the console");
    await page.getByRole("button", { name: "Call", exact: true }).click();
    await expect
      .poll(() => page.getByRole("region", { name: "Result" }).locator("pre.text").first().textContent())
      .toBe("Echo: hello from the console");
    await screenshot(page, "explorer");
    await page.close();
  });

  it("console/explorer-progress-and-cancel", async () => {
    const page = await open("explorer");
    await page.getByLabel("Search").fill("trigger-long-running-operation");
    await page.getByRole("button", { name: /everything__trigger-long-running-operation\b/ }).click();
    const detail = page.locator("section.detail");
    // What the page sends the MCP endpoint: the calls carry a progressToken, Cancel a notification.
    const sent: { method?: string; params?: Record<string, unknown>; id?: unknown }[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && new URL(r.url()).pathname === "/mcp")
        sent.push(JSON.parse(r.postData() ?? "{}"));
    });
    // Progress while it runs, from the upstream's notifications/progress.
    await detail.getByLabel("duration").fill("2");
    await detail.getByLabel("steps").fill("4");
    await detail.getByRole("button", { name: "Call", exact: true }).click();
    await expect
      .poll(() => detail.getByRole("status", { name: "Progress" }).textContent(), { timeout: 15_000 })
      .toMatch(/^[1-4] of 4$/);
    await screenshot(page, "explorer-progress");
    await expect
      .poll(() => page.getByRole("region", { name: "Result" }).locator("pre.text").first().textContent(), {
        timeout: 15_000,
      })
      .toContain("Long running operation completed. Duration: 2 seconds, Steps: 4.");
    // A long one, cancelled: the endpoint is told, the upstream's call ends, the page says so.
    await detail.getByLabel("duration").fill("60");
    await detail.getByLabel("steps").fill("60");
    await detail.getByRole("button", { name: "Call", exact: true }).click();
    await expect
      .poll(() => detail.getByRole("status", { name: "Progress" }).textContent(), { timeout: 15_000 })
      .toMatch(/of 60$/);
    await detail.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => detail.getByRole("alert").textContent()).toBe("Cancelled.");
    const calls = sent.filter((f) => f.method === "tools/call");
    expect(calls).toHaveLength(2);
    expect(
      calls.every((c) => typeof (c.params?._meta as { progressToken?: unknown })?.progressToken === "string"),
    ).toBe(true);
    await expect
      .poll(() => sent.filter((f) => f.method === "notifications/cancelled").map((f) => f.params?.requestId))
      .toEqual([calls[1]?.id]);
    expect(await detail.getByRole("status", { name: "Progress" }).count()).toBe(0);
    await page.close();
  });

  it("console/explorer-resource-template", async () => {
    const page = await open("explorer");
    await page.getByLabel("List").selectOption("templates");
    await page.getByLabel("Search").fill("Dynamic Text");
    await page.getByRole("button", { name: /Dynamic Text Resource/ }).click();
    const detail = page.locator("section.detail");
    await expect.poll(() => detail.locator("code").textContent()).toMatch(/\{resourceId\}$/);
    await detail.getByLabel("resourceId").fill("7");
    await screenshot(page, "explorer-template");
    await detail.getByRole("button", { name: "Read", exact: true }).click();
    await expect
      .poll(() => page.getByRole("region", { name: "Result" }).textContent())
      .toContain("Resource 7: This is a plaintext resource");
    await page.close();
  });

  it("console/answers-an-elicitation-from-the-page", async () => {
    const page = await open("explorer");
    await page.getByLabel("Search").fill("trigger-elicitation-request");
    await page
      .getByRole("button", { name: /everything__trigger-elicitation-request\b/ })
      .first()
      .click();
    await page.getByRole("button", { name: "Call", exact: true }).click();
    // The badge says a question waits; the Questions view has its form, from the requested schema.
    await expect.poll(() => page.locator("nav .badge").textContent()).toBe("1");
    await page.getByRole("link", { name: /Questions/ }).click();
    const form = page.locator(".question form");
    await expect.poll(() => form.count()).toBe(1);
    // Defaults filled in, enums as choices, required marked.
    expect(await form.getByLabel("String with default").inputValue()).toBe("It was a dark and stormy night.");
    expect(await form.getByLabel("Integer").inputValue()).toBe("42");
    expect(await form.getByLabel("Untitled Single Select Enum").inputValue()).toBe("Monica");
    expect(
      await form.getByLabel("Legacy Titled Single Select Enum").locator("option:checked").textContent(),
    ).toBe("Cats");
    await form.getByLabel(/^String \*?$/).fill("Ada Lovelace");
    await screenshot(page, "questions");
    await form.getByRole("button", { name: "Submit" }).click();
    await expect.poll(() => page.locator(".question").count()).toBe(0);
    await expect.poll(() => page.locator("nav .badge").count()).toBe(0);
    // The call completes with the answer.
    await page.getByRole("link", { name: "Explorer" }).click();
    await expect
      .poll(() => page.getByRole("region", { name: "Result" }).textContent())
      .toContain("Name: Ada Lovelace");
    await page.close();
  });

  it("console/csp-header-set", async () => {
    const page = await browser.newPage();
    const res = await page.goto(daemon.base);
    const csp = res?.headers()["content-security-policy"] ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    // The page works under it: nothing it needs was refused, in any test of this file.
    await expect.poll(() => page.locator('[data-upstream="everything"]').count()).toBe(1);
    expect(problems.filter((p) => /Content Security Policy|Refused to/i.test(p))).toEqual([]);
    // And an inline script would be refused.
    const ran = await page.evaluate(async () => {
      const s = document.createElement("script");
      s.textContent = "window.__inline = true";
      document.body.append(s);
      await new Promise((r) => setTimeout(r, 50));
      return (window as unknown as { __inline?: boolean }).__inline === true;
    });
    expect(ran).toBe(false);
    await page.close();
  });

  it("console/refuses-a-foreign-origin", async () => {
    const foreign = { origin: "https://evil.example" };
    expect((await fetch(daemon.base, { headers: foreign })).status).toBe(403);
    const call = await fetch(`${daemon.base}.mcpx/call`, {
      method: "POST",
      headers: { ...foreign, "content-type": "application/json" },
      body: JSON.stringify({ name: "everything__echo", arguments: { message: "x" } }),
    });
    expect(call.status).toBe(403);
    const answer = await fetch(`${daemon.base}.mcpx/elicitations/x/answer`, {
      method: "POST",
      headers: { ...foreign, "content-type": "application/json" },
      body: JSON.stringify({ action: "accept" }),
    });
    expect(answer.status).toBe(403);
    // A cross-site form post cannot send JSON: its text/plain or form body is refused too.
    const form = await fetch(`${daemon.base}.mcpx/call`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: JSON.stringify({ name: "everything__echo", arguments: { message: "x" } }),
    });
    expect(form.status).toBe(415);
  });

  it("console/usable-on-a-narrow-window", async () => {
    const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
    await page.goto(daemon.base);
    await expect.poll(() => page.locator('[data-upstream="down"] .error').count()).toBe(1);
    for (const view of ["upstreams", "questions", "explorer", "events"]) {
      await page.getByRole("link", { name: new RegExp(view, "i") }).click();
      // Nothing wider than the window: no sideways scrolling in any view.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, view).toBeLessThanOrEqual(0);
    }
    // Keyboard: the views are the first stops of the tab order, and Enter opens one.
    await page.goto(daemon.base);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Upstreams");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.evaluate(() => location.hash)).toBe("#explorer");
    expect(await page.getByRole("heading", { name: "Explorer" }).isVisible()).toBe(true);
    await page.close();
  });

  it("console/every-control-has-a-name", async () => {
    const page = await open();
    await expect.poll(() => page.locator('[data-upstream="down"] .error').count()).toBe(1);
    // Every form of the explorer on screen too: a tool's, a template's.
    await page.getByRole("link", { name: "Explorer" }).click();
    await page.getByRole("button", { name: /everything__echo\b/ }).click();
    const unnamed: string[] = [];
    for (const view of ["upstreams", "explorer", "events"]) {
      await page.getByRole("link", { name: new RegExp(view, "i") }).click();
      unnamed.push(
        ...(await page.evaluate(() =>
          Array.from(
            document.querySelectorAll("#view > div:not([hidden]) :is(button, input, select, textarea, a)"),
          )
            .filter((el) => {
              const aria = el.getAttribute("aria-label") ?? "";
              const labels = (el as HTMLInputElement).labels;
              return !aria.trim() && !(labels && labels.length > 0) && !(el.textContent ?? "").trim();
            })
            .map((el) => el.outerHTML.slice(0, 80)),
        )),
      );
    }
    expect(unnamed).toEqual([]);
    // Reconnect is reached by keyboard and pressed with Enter.
    await page.getByRole("link", { name: "Upstreams" }).click();
    await page.getByRole("button", { name: "Reconnect down" }).focus();
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.getByRole("button", { name: "Reconnect down" }).textContent())
      .toBe("Reconnect");
    await page.close();
  });

  it("console/url-printed-at-start-up", () => {
    expect(daemon.serving.consoleUrl).toBe(daemon.base);
    expect(daemon.log.join("\n")).toContain(`/mcp (console: ${daemon.base})`);
  });
});

describe("console configured", () => {
  it("console/off-when-configured", async () => {
    const off = await startDaemon({ console: false });
    try {
      expect(off.serving.consoleUrl).toBeUndefined();
      expect((await fetch(off.base)).status).toBe(404);
      expect((await fetch(`${off.base}index.html`)).status).toBe(404);
      // The MCP endpoint and the control API are still there.
      expect((await fetch(`${off.base}.mcpx/status`)).status).toBe(200);
      expect(off.log.join("\n")).not.toContain("console:");
    } finally {
      await off.stop();
    }
  });

  it("console/asks-for-the-token-once", async () => {
    const guarded = await startDaemon({}, { token: "s3cret-console-token" });
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(guarded.base);
      await page.getByLabel("Token").fill("s3cret-console-token");
      await page.getByRole("button", { name: "Connect" }).click();
      await expect
        .poll(() => page.locator('[data-upstream="everything"] .state').textContent())
        .toBe("connected");
      // Kept for this tab: a reload does not ask again.
      await page.reload();
      await expect.poll(() => page.locator('[data-upstream="everything"]').count()).toBe(1);
      expect(await page.getByLabel("Token").count()).toBe(0);
      await context.close();
    } finally {
      await guarded.stop();
    }
  });
});
