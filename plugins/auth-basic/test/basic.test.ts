import { silentLogger } from "@mcpx/core";
import { createHost } from "@mcpx/host";
import { schemeChecks } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import plugin, { basicScheme } from "../src/index.js";

const http = { name: "api", url: "https://api.example.com/mcp" };
const PASSWORD = "pa55:word-é";

const { schemaErrors, refusal } = schemeChecks(basicScheme, { target: http, root: "servers.api.auth" });

describe("auth-basic", () => {
  it("auth/basic/registers", async () => {
    const host = createHost({ log: silentLogger });
    await host.use(plugin);
    expect(host.registry.authScheme("basic")).toBe(basicScheme);
  });

  it("auth/basic/authorization-header", () => {
    // RFC 7617 §2's example.
    expect(basicScheme.apply({ username: "Aladdin", password: "open sesame" }, http)).toEqual({
      headers: { Authorization: "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==" },
    });
    // UTF-8, and a colon in the password is fine: only the first one separates.
    const effect = basicScheme.apply({ username: "me", password: PASSWORD }, http) as {
      headers: Record<string, string>;
    };
    const encoded = effect.headers.Authorization!.slice("Basic ".length);
    expect(Buffer.from(encoded, "base64").toString("utf8")).toBe(`me:${PASSWORD}`);
    // An API key as the user name with an empty password (a common service convention).
    expect(basicScheme.apply({ username: "key", password: "" }, http)).toEqual({
      headers: { Authorization: `Basic ${Buffer.from("key:").toString("base64")}` },
    });
  });

  it("auth/basic/options-checked", () => {
    expect(schemaErrors({ username: "me", password: "pw" })).toEqual([]);
    expect(schemaErrors({ username: "me" })).toEqual(["servers.api.auth.password: is required"]);
    expect(schemaErrors({ user: "me", password: "pw" })).toEqual([
      "servers.api.auth.username: is required",
      "servers.api.auth.user: is not a known key",
    ]);
  });

  it("auth/basic/username-without-colon", () => {
    expect(refusal({ username: "me:you", password: "pw" }).message).toBe(
      'servers.api.auth.username: must not contain ":" (Basic authentication ends the user name at the first colon, RFC 7617)',
    );
  });

  it("auth/basic/no-control-characters", () => {
    expect(refusal({ username: "me", password: "pw\n" }).problems).toEqual([
      "servers.api.auth.password: must not contain control characters",
    ]);
    expect(refusal({ username: "", password: "" }).problems).toEqual([
      "servers.api.auth: username and password are both empty",
    ]);
  });

  it("auth/basic/url-servers-only", () => {
    expect(refusal({ username: "me", password: "pw" }, { name: "fs", command: "node" }).message).toMatch(
      /^servers\.fs\.auth: type "basic" sends an HTTP header, and fs is a command server/,
    );
  });

  it("auth/basic/no-secret-in-errors", () => {
    const err = refusal({ username: "secret-user:x", password: `${PASSWORD}\u0000` });
    expect(err.problems).toHaveLength(2);
    expect(err.message).not.toContain("secret-user");
    expect(err.message).not.toContain(PASSWORD);
  });
});
