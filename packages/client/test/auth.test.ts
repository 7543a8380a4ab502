import { fileURLToPath } from "node:url";
import {
  AuthError,
  type AuthScheme,
  ConfigError,
  type LiveCredentials,
  silentLogger,
  type UpstreamTarget,
} from "@mcpx/core";
import { createHost, type Host, redact } from "@mcpx/host";
import { beforeEach, describe, expect, it } from "vitest";
import { type AuthConfig, applyAuth, OAUTH_NOT_AVAILABLE } from "../src/index.js";
import { targetRedactor } from "../src/target-redactor.js";

const TOKEN = "tok3n/with+odd=chars";
const http: UpstreamTarget = { name: "api", url: "https://api.example.com/mcp?region=eu&q=a%20b" };
const stdio: UpstreamTarget = {
  name: "fs",
  command: "node",
  args: ["server.js"],
  env: { LOG: "1", KEY: "old" },
};

/** Schemes shaped like the built-in ones, so these tests need nothing but the client. */
const schemes: AuthScheme[] = [
  {
    type: "token-header",
    optionsSchema: {
      type: "object",
      properties: { token: { type: "string", minLength: 1 }, realm: { type: "string", pattern: "^[a-z]+$" } },
      required: ["token"],
      additionalProperties: false,
    },
    apply: (o) => ({ headers: { Authorization: `Bearer ${String(o.token)}` } }),
  },
  {
    type: "token-env",
    optionsSchema: { type: "object", properties: { token: { type: "string" } }, additionalProperties: false },
    apply: (o) => ({ env: { KEY: String(o.token) } }),
  },
  {
    type: "token-query",
    optionsSchema: {
      type: "object",
      properties: { name: { type: "string" }, token: { type: "string" } },
      additionalProperties: false,
    },
    apply: (o) => ({ query: { [String(o.name)]: String(o.token) } }),
  },
  // Schemes that misbehave, the way a third party's might.
  { type: "throws", apply: (o) => Promise.reject(new Error(`cannot use ${String(o.token)}`)) },
  {
    type: "throws-config",
    apply: (o) => {
      throw new ConfigError(`servers.api.auth.token: ${String(o.token)} is wrong`);
    },
  },
  { type: "raw", apply: (o) => o.effect as never },
];

async function failure(promise: Promise<unknown>): Promise<Error> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  return err as Error;
}

describe("applyAuth", () => {
  let host: Host;
  const apply = (auth: AuthConfig | undefined, target: UpstreamTarget = http) =>
    applyAuth(host.registry, { name: target.name, auth }, target);

  beforeEach(() => {
    host = createHost({ log: silentLogger });
    for (const s of schemes) host.registerAuthScheme(s);
  });

  it("auth/none-leaves-target", async () => {
    const applied = await apply(undefined);
    expect(applied.target).toBe(http);
    expect(applied.secrets).toEqual([]);
  });

  it("auth/oauth-refused", async () => {
    for (const type of ["oauth", "OAuth"]) {
      const err = await failure(apply({ type, clientId: "id" }));
      expect(err).toBeInstanceOf(AuthError);
      expect(err.message).toBe(`upstream api: ${OAUTH_NOT_AVAILABLE}`);
      expect(err.message).toBe(
        "upstream api: OAuth needs the plugin @mcpx/auth-oauth (built into the mcpx app), which is not applied here",
      );
    }
  });

  it("auth/oauth-from-a-plugin", async () => {
    // The refusal is for OAuth not being there; a plugin that provides it is used like any scheme.
    host.registerAuthScheme({
      type: "oauth",
      apply: () => ({ headers: { Authorization: "Bearer from-oauth" } }),
    });
    const { target } = await apply({ type: "oauth" });
    expect(target.headers).toEqual({ Authorization: "Bearer from-oauth" });
  });

  it("auth/live-credentials-onto-the-target", async () => {
    const seen: { stateDir?: string }[] = [];
    const live: LiveCredentials = {
      headers: () => ({ Authorization: "Bearer live" }),
      challenged: async () => false,
      redact: (text) => text.replaceAll("live-token", "[redacted]"),
    };
    host.registerAuthScheme({
      type: "live",
      apply: (_options, target) => {
        seen.push(target);
        return { live };
      },
    });
    const applied = await applyAuth(host.registry, { name: "api", auth: { type: "live" } }, http, {
      stateDir: "/var/lib/mcpx",
    });
    // Nothing merged now: the transports ask the live credentials at each request.
    expect(applied.target).toEqual({ ...http, auth: live, secrets: [] });
    expect(seen[0]?.stateDir).toBe("/var/lib/mcpx");
    // A command server has no HTTP requests to authorize.
    const err = await failure(apply({ type: "live" }, stdio));
    expect(err.message).toBe(
      'upstream fs: auth type "live" gives credentials for HTTP requests, and fs is a command server',
    );
    // What the connection's errors go through: the static secrets, then what the live ones made.
    const clean = targetRedactor({ ...applied.target, secrets: ["static-secret"] });
    expect(clean?.("static-secret and live-token")).toBe("[redacted] and [redacted]");
    expect(targetRedactor(applied.target)?.("live-token")).toBe("[redacted]");
    expect(targetRedactor(http)).toBeUndefined();
  });

  it("auth/unknown-type-lists-installed", async () => {
    const err = await failure(apply({ type: "kerberos", token: TOKEN }));
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toBe(
      'servers.api.auth.type: upstream api asks for auth type "kerberos", which no installed plugin provides; installed: raw, throws, throws-config, token-env, token-header, token-query',
    );
    expect((err as ConfigError).problems).toEqual([err.message]);
    const near = await failure(apply({ type: "Token-Header", token: TOKEN }));
    expect(near.message).toContain('(did you mean "token-header"?)');
    const none = await failure(
      applyAuth(createHost().registry, { name: "api", auth: { type: "bearer" } }, http),
    );
    expect(none.message).toMatch(/which no installed plugin provides; no auth scheme is installed$/);
  });

  it("auth/type-required", async () => {
    const err = await failure(apply({ token: TOKEN } as unknown as AuthConfig));
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toBe("servers.api.auth.type: is required");
  });

  it("auth/options-checked", async () => {
    const unknownKey = await failure(apply({ type: "token-header", token: TOKEN, tokn: "x" }));
    expect(unknownKey).toBeInstanceOf(ConfigError);
    expect(unknownKey.message).toBe("servers.api.auth.tokn: is not a known key");
    const several = (await failure(apply({ type: "token-header", realm: 3 }))) as ConfigError;
    expect(several.problems).toEqual([
      "servers.api.auth.token: is required",
      "servers.api.auth.realm: must be string",
    ]);
    // A server name that is not an identifier is quoted the way config key paths are.
    const quoted = await failure(
      applyAuth(
        host.registry,
        { name: "my api", auth: { type: "token-header" } },
        { ...http, name: "my api" },
      ),
    );
    expect(quoted.message).toBe('servers["my api"].auth.token: is required');
  });

  it("auth/headers-merged", async () => {
    const target = { ...http, headers: { authorization: "Basic old", "X-Trace": "1" } };
    const applied = await apply({ type: "token-header", token: TOKEN }, target);
    expect(applied.target).toEqual({
      ...http,
      headers: { "X-Trace": "1", Authorization: `Bearer ${TOKEN}` },
      secrets: applied.secrets,
    });
    expect(target.headers).toEqual({ authorization: "Basic old", "X-Trace": "1" }); // not changed in place
  });

  it("auth/env-merged", async () => {
    const applied = await apply({ type: "token-env", token: TOKEN }, stdio);
    expect(applied.target).toEqual({ ...stdio, env: { LOG: "1", KEY: TOKEN }, secrets: applied.secrets });
    expect(stdio.env).toEqual({ LOG: "1", KEY: "old" });
  });

  it("auth/query-keeps-existing-params", async () => {
    const { target } = await apply({ type: "token-query", name: "api_key", token: TOKEN });
    expect(target.url).toBe(
      "https://api.example.com/mcp?region=eu&q=a%20b&api_key=tok3n%2Fwith%2Bodd%3Dchars",
    );
    expect(new URL(target.url!).searchParams.get("api_key")).toBe(TOKEN);
    // A parameter of the same name is replaced by the declared one, not doubled.
    const again = await apply({ type: "token-query", name: "region", token: "us" });
    expect(again.target.url).toBe("https://api.example.com/mcp?q=a%20b&region=us");
    const bare = await apply(
      { type: "token-query", name: "k", token: "v" },
      { name: "api", url: "https://api.example.com/mcp#frag" },
    );
    expect(bare.target.url).toBe("https://api.example.com/mcp?k=v#frag");
  });

  it("auth/effect-fits-target", async () => {
    const headersOnStdio = await failure(apply({ type: "token-header", token: TOKEN }, stdio));
    expect(headersOnStdio).toBeInstanceOf(AuthError);
    expect(headersOnStdio.message).toBe(
      'upstream fs: auth type "token-header" gives HTTP headers, and fs is a command server',
    );
    const envOnHttp = await failure(apply({ type: "token-env", token: TOKEN }));
    expect(envOnHttp.message).toBe(
      'upstream api: auth type "token-env" gives environment variables, and api is a URL server',
    );
    const queryOnStdio = await failure(apply({ type: "token-query", name: "k", token: TOKEN }, stdio));
    expect(queryOnStdio.message).toMatch(/gives HTTP query parameters, and fs is a command server$/);
  });

  it("auth/effect-checked", async () => {
    const reserved = await failure(apply({ type: "raw", effect: { headers: { "Mcp-Session-Id": TOKEN } } }));
    expect(reserved).toBeInstanceOf(AuthError);
    expect(reserved.message).toBe(
      'upstream api: auth type "raw" produced an unusable header: Mcp-Session-Id is an MCP protocol header, which mcpx sets from each frame; credentials cannot go there',
    );
    const injected = await failure(
      apply({ type: "raw", effect: { headers: { "X-Key": `${TOKEN}\r\nHost: evil` } } }),
    );
    expect(injected.message).toMatch(
      /^upstream api: auth type "raw" produced an unusable value for header X-Key: /,
    );
    const envName = await failure(apply({ type: "raw", effect: { env: { "A=B": TOKEN } } }, stdio));
    expect(envName.message).toMatch(
      /produced an unusable environment variable: must be an environment variable name/,
    );
    for (const err of [reserved, injected, envName]) expect(err.message).not.toContain(TOKEN);
  });

  it("auth/secrets-returned", async () => {
    const header = await apply({ type: "token-header", token: TOKEN });
    expect(header.secrets).toEqual(expect.arrayContaining([TOKEN, `Bearer ${TOKEN}`]));
    const basic = await apply({ type: "raw", effect: { headers: { Authorization: "Basic bWU6cHc=" } } });
    expect(basic.secrets).toEqual(expect.arrayContaining(["Basic bWU6cHc=", "bWU6cHc="]));
    const query = await apply({ type: "token-query", name: "api_key", token: TOKEN });
    // The value as written and as encoded in the URL: a logged URL is redacted too. (Every string of
    // the auth object counts, as in config's secrets: which of a scheme's keys are credentials is
    // the scheme's business, so the parameter's name goes too.)
    expect(query.secrets).toEqual(expect.arrayContaining([TOKEN, "tok3n%2Fwith%2Bodd%3Dchars", "api_key"]));
    expect(redact(`connecting to ${query.target.url}`, query.secrets)).toBe(
      "connecting to https://api.example.com/mcp?region=eu&q=a%20b&[redacted]=[redacted]",
    );
    const env = await apply({ type: "token-env", token: TOKEN }, stdio);
    // Each in every form a server may echo it in, longest first; the target carries them to its connection.
    expect(env.secrets).toEqual(["tok3n%2Fwith%2Bodd%3Dchars", "tok3n\\/with+odd=chars", TOKEN]);
    expect(env.target.secrets).toEqual(env.secrets);
  });

  it("auth/no-secret-in-errors", async () => {
    const thrown = await failure(apply({ type: "throws", token: TOKEN }));
    expect(thrown).toBeInstanceOf(AuthError);
    expect(thrown.message).toBe('upstream api: auth type "throws" failed: cannot use [redacted]');
    expect(thrown.cause).toBeUndefined();
    const config = (await failure(apply({ type: "throws-config", token: TOKEN }))) as ConfigError;
    expect(config).toBeInstanceOf(ConfigError);
    expect(config.message).toBe("servers.api.auth.token: [redacted] is wrong");
    expect(config.problems).toEqual([config.message]);
    // Schema rules name the key and the rule, never the value.
    const schema = await failure(apply({ type: "token-header", token: TOKEN, realm: `${TOKEN}!` }));
    expect(schema.message).toBe('servers.api.auth.realm: must match pattern "^[a-z]+$"');
    for (const err of [thrown, config, schema])
      expect(`${err.message} ${String(err.cause)}`).not.toContain(TOKEN);
  });

  it("auth/third-party-scheme", async () => {
    const example = fileURLToPath(new URL("../../../examples/plugin-hello/index.js", import.meta.url));
    const { default: plugin } = (await import(example)) as { default: unknown };
    await host.use(plugin, { greeting: "hi" });
    const applied = await apply({ type: "example-static", header: "X-Api-Key", value: TOKEN });
    expect(applied.target.headers).toEqual({ "X-Api-Key": TOKEN });
    expect(applied.secrets).toEqual(expect.arrayContaining([TOKEN]));
    const bad = await failure(apply({ type: "example-static", header: "X Api Key", value: TOKEN }));
    expect(bad).toBeInstanceOf(ConfigError);
    expect(bad.message).toBe('servers.api.auth.header: must match pattern "^[!#$%&\'*+.^_`|~0-9A-Za-z-]+$"');
    const listed = await failure(apply({ type: "nope" }));
    expect(listed.message).toContain("example-static");
  });
});
