/** The file token store: one 0600 file per issuer and resource in a 0700 directory, written atomically. */
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileTokenStore, type StoredGrant } from "../src/index.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "mcpx-oauth-store-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const grant = (n: number): StoredGrant => ({
  issuer: "https://as.example.com",
  resource: "https://mcp.example.com/mcp",
  accessToken: `access-${n}-${"x".repeat(2000)}`,
  refreshToken: `refresh-${n}`,
  client: {
    clientId: "c",
    clientSecret: `secret-${n}`,
    tokenEndpointAuthMethod: "client_secret_basic",
    registration: "dynamic",
  },
});

describe("file token store", () => {
  it("oauth/token-file-is-0600-and-atomic", async () => {
    const store = new FileTokenStore(dir);
    await store.set(grant(0));
    const file = store.fileOf("https://as.example.com", "https://mcp.example.com/mcp");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(store.dir)).mode & 0o777).toBe(0o700);
    // Many writers at once, a reader all along: every read is one whole grant, never half of one.
    const reads: (StoredGrant | undefined)[] = [];
    let writing = true;
    const reader = (async () => {
      while (writing) reads.push(await store.get("https://as.example.com", "https://mcp.example.com/mcp"));
    })();
    await Promise.all(Array.from({ length: 40 }, (_, i) => store.set(grant(i + 1))));
    writing = false;
    await reader;
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) expect(read?.accessToken).toMatch(/^access-\d+-x{2000}$/);
    // No temporary file is left behind, and the last file is still 0600.
    expect((await readdir(store.dir)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it("oauth/token-store-keyed-by-issuer-and-resource", async () => {
    const store = new FileTokenStore(dir);
    await store.set(grant(1));
    expect(await store.get("https://as.example.com", "https://mcp.example.com/mcp")).toEqual(grant(1));
    expect(await store.get("https://other-as.example.com", "https://mcp.example.com/mcp")).toBeUndefined();
    expect(await store.get("https://as.example.com", "https://mcp.example.com/other")).toBeUndefined();
    // A file moved under another key is not taken for that key's grant.
    const file = store.fileOf("https://as.example.com", "https://mcp.example.com/mcp");
    await writeFile(
      store.fileOf("https://evil.example.com", "https://mcp.example.com/mcp"),
      await readFile(file),
    );
    expect(await store.get("https://evil.example.com", "https://mcp.example.com/mcp")).toBeUndefined();
    await store.delete("https://as.example.com", "https://mcp.example.com/mcp");
    expect(await store.get("https://as.example.com", "https://mcp.example.com/mcp")).toBeUndefined();
  });

  it("oauth/token-store-error-says-no-secret", async () => {
    // The directory is a file: writing fails, and the error names the file, never what it holds.
    await writeFile(path.join(dir, "oauth"), "");
    const err = await new FileTokenStore(dir).set(grant(7)).catch((e: unknown) => e as Error);
    expect(err).toBeInstanceOf(Error);
    expect(err?.message).not.toContain("access-7");
    expect(err?.message).not.toContain("secret-7");
  });
});
