/** The web console's static files: served at / with a strict CSP, behind the Origin and Host checks. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSOLE_CSP, createConsoleHandler } from "../src/control/console-files.js";

let dir: string;
let server: Server;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "mcpx-console-"));
  mkdirSync(path.join(dir, "assets"));
  writeFileSync(path.join(dir, "index.html"), "<!doctype html><title>mcpx console</title>");
  writeFileSync(path.join(dir, "assets", "index-abc.js"), "export {};");
  writeFileSync(path.join(dir, "secret.txt"), "not served");
  const handler = createConsoleHandler({ dir, allowedOrigins: ["https://ok.example"] });
  server = createServer(async (req, res) => {
    if (!(await handler(req, res))) {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

/** fetch() will not send another Host header: node:http will. */
function statusWithHost(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/`, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("console files", () => {
  it("console/page-and-assets-served-with-csp", async () => {
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).toContain("default-src 'self'");
    expect(CONSOLE_CSP).toContain("script-src 'self'");
    expect(CONSOLE_CSP).not.toContain("unsafe-inline");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await page.text()).toContain("mcpx console");
    const asset = await fetch(`${base}/assets/index-abc.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(asset.headers.get("content-security-policy")).toBe(CONSOLE_CSP);
  });

  it("console/nothing-outside-the-build", async () => {
    for (const p of [
      "/secret.txt",
      "/assets/../secret.txt",
      "/assets/%2e%2e%2fsecret.txt",
      "/assets/missing.js",
    ]) {
      expect((await fetch(`${base}${p}`)).status, p).toBe(404);
    }
  });

  it("console/refuses-a-foreign-origin-or-host", async () => {
    const foreign = await fetch(`${base}/`, { headers: { origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { error: { message: string } }).error.message).toContain(
      "Origin https://evil.example is not allowed",
    );
    const allowed = await fetch(`${base}/`, { headers: { origin: "https://ok.example" } });
    expect(allowed.status).toBe(200);
    // A rebound name: the page's own same-origin requests carry no Origin, only the Host.
    expect(await statusWithHost("attacker.example")).toBe(403);
    expect(await statusWithHost("localhost")).toBe(200);
  });

  it("console/get-only", async () => {
    const res = await fetch(`${base}/`, { method: "POST", body: "x" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
  });
});
