/**
 * The console's Sign in, in a real browser: an upstream behind OAuth waits for a login; the button
 * opens the authorization server's page, and once the user signed in there the card turns connected.
 * The protected upstream and the authorization server are tools/e2e's (oidc-provider); the sign-in
 * at the authorization server is the plugin's test browser, given the URL the page opened.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { serve } from "@mcpx/daemon";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testBrowser } from "../../../plugins/auth-oauth/test/helpers/browser.js";
import { loginCase } from "../../e2e/test/auth-login.helpers.js";
import { launchBrowser, screenshot } from "../src/console-harness.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("console sign-in", () => {
  it("console/sign-in-button-signs-an-upstream-in", async () => {
    const c = await loginCase();
    const serving = await serve({
      configFile: join(c.dir, "mcpx.json"),
      writeLog: () => {},
      logLevel: "error",
    });
    try {
      await serving.runtime.gateway.pool.settled();
      const { listen } = JSON.parse(await readFile(join(c.dir, "mcpx.json"), "utf8")) as {
        listen: { port: number };
      };
      const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
      await page.goto(`http://127.0.0.1:${listen.port}/`);
      const card = page.locator('[data-upstream="docs"]');
      await expect.poll(() => card.getByRole("button", { name: "Sign in to docs" }).count()).toBe(1);
      await screenshot(page, "sign-in");
      const popup = page.waitForEvent("popup");
      await card.getByRole("button", { name: "Sign in to docs" }).click();
      const tab = await popup;
      // The authorization server's page, opened from the click.
      await tab.waitForURL((u) => u.href.startsWith(c.up.as.issuer), { timeout: 20_000 });
      const url = new URL(tab.url());
      await tab.close();
      // The page keeps a link to it, for a window that did not open.
      await expect.poll(() => card.getByRole("link", { name: "the authorization page" }).count()).toBe(1);
      // The user signs in there; the browser comes back to the daemon's loopback listener.
      const params = await testBrowser().authorize({
        upstream: "docs",
        url: new URL(String((await card.getByRole("link").getAttribute("href")) ?? url.href)),
        redirectUri: c.redirectUri,
        issuer: c.up.as.issuer,
      });
      expect((await fetch(`${c.redirectUri}?${params}`)).status).toBe(200);
      await expect.poll(() => card.locator(".state").textContent(), { timeout: 20_000 }).toBe("connected");
      expect(await card.getByRole("button", { name: "Sign in to docs" }).count()).toBe(0);
      await expect.poll(() => card.textContent()).toMatch(/Tools · prompts · resources[1-9]\d* · \d+ · \d+/);
      await page.close();
    } finally {
      await serving.stop();
    }
  });
});
