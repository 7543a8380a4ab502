/**
 * An upstream's `auth` config, applied to its target before anything connects. The scheme named by
 * `auth.type` is looked up in the registry (the built-in auth plugins and any third party's alike),
 * its options are checked against its optionsSchema, and its effect is merged into the target:
 * headers into `headers`, environment into `env`, query parameters into `url`.
 *
 * No error raised here quotes a credential: schema errors name the key and the rule, never the
 * value, and anything a scheme throws is redacted before it travels on.
 */
import {
  type AuthEffect,
  AuthError,
  type AuthScheme,
  authHeaderNameProblem,
  authHeaderValueProblem,
  ConfigError,
  envNameProblem,
  envValueProblem,
  formatKeyPath,
  type JSONObject,
  type RegistryView,
  type UpstreamTarget,
} from "@mcpx/core";
import { describeSchemaErrors, expandSecrets, redact } from "@mcpx/host";
import type { Ajv, ValidateFunction } from "ajv";
import { loadAjv } from "./lazy-ajv.js";

/** A server's `auth` key: the scheme's type and the scheme's own keys (`${env:NAME}` already expanded). */
export interface AuthConfig {
  type: string;
  [key: string]: unknown;
}

export interface AppliedAuth {
  /** A new target with the scheme's effect merged; the one passed in is not changed. */
  target: UpstreamTarget;
  /**
   * Every credential this auth put anywhere: the config's values (all but `type`) and what the
   * scheme made of them (`Basic <base64>` and its Base64, query values), each in every form a
   * server may echo it in (core secretForms: raw, JSON-escaped, percent-encoded). Give them to the
   * logger's `secrets` so they are redacted from every line. The target carries them too
   * (`target.secrets`): the connection takes them out of every error it raises.
   */
  secrets: string[];
}

export const OAUTH_NOT_AVAILABLE =
  "OAuth needs the plugin @mcpx/auth-oauth (built into the mcpx app), which is not applied here";

/** Where the upstream's auth runs: what a scheme with state of its own (OAuth's tokens) needs. */
export interface AuthPlace {
  /** The state directory (config `stateDir`), where such a scheme keeps what outlives a run. */
  stateDir?: string;
}

let ajv: Ajv | undefined;
const validators = new WeakMap<AuthScheme, ValidateFunction>();

/**
 * Applies `server.auth` to `target`. No auth: the target as it is. Throws ConfigError for an
 * unknown type (listing the installed ones), options that fail the scheme's schema
 * (`servers.<name>.auth.<key>: <rule>`) or a scheme's refusal, and AuthError for `type: "oauth"`
 * (unless a plugin provides it) or an effect that cannot be sent.
 */
export async function applyAuth(
  registry: RegistryView,
  server: { name: string; auth?: AuthConfig | undefined },
  target: UpstreamTarget,
  where: AuthPlace = {},
): Promise<AppliedAuth> {
  const { name, auth } = server;
  if (auth === undefined) return { target, secrets: [] };
  const { type, scheme, options } = resolveScheme(registry, name, auth);

  const secrets = new Set<string>();
  collectStrings(options, secrets);
  let effect: AuthEffect;
  try {
    effect = await scheme.apply(options as JSONObject, {
      name,
      ...(target.url === undefined ? {} : { url: target.url }),
      ...(target.command === undefined ? {} : { command: target.command }),
      ...(where.stateDir === undefined ? {} : { stateDir: where.stateDir }),
    });
  } catch (err) {
    throw redacted(err, expandSecrets(secrets), name, type);
  }
  return merge(effect, target, { name, type, secrets });
}

/**
 * Checks `server.auth` without applying it, as the config is loaded: the same ConfigError as
 * applyAuth for an unknown type (naming the server and the type, listing the installed ones) or
 * options that fail the scheme's schema, and the same AuthError for `type: "oauth"`. What a scheme
 * itself refuses (it sees the target) is left to applyAuth.
 */
export function checkAuth(
  registry: RegistryView,
  server: { name: string; auth?: AuthConfig | undefined },
): void {
  if (server.auth !== undefined) resolveScheme(registry, server.name, server.auth);
}

/** The scheme `auth.type` names, with the options checked against its optionsSchema. */
function resolveScheme(
  registry: RegistryView,
  name: string,
  auth: AuthConfig,
): { type: string; scheme: AuthScheme; options: Record<string, unknown> } {
  const { type, ...options } = auth;
  const at = (...keys: string[]) => formatKeyPath(["servers", name, "auth", ...keys]);
  if (typeof type !== "string" || type === "") {
    throw new ConfigError(
      `${at("type")}: ${type === undefined ? "is required" : "must be a non-empty string"}`,
    );
  }
  const scheme = registry.authScheme(type) ?? refuse(registry, name, type, at("type"));
  const validate = validator(scheme, name);
  if (validate && !validate(options)) {
    const problems = describeSchemaErrors(validate.errors, at());
    throw new ConfigError(problems.join("; "), problems);
  }
  return { type, scheme, options };
}

/** No scheme answers to `type`: OAuth without its plugin says which, anything else is a config error. */
function refuse(registry: RegistryView, name: string, type: string, path: string): never {
  if (type.toLowerCase() === "oauth") throw new AuthError(`upstream ${name}: ${OAUTH_NOT_AVAILABLE}`);
  const installed = registry
    .authSchemes()
    .map((s) => s.type)
    .sort();
  const near = installed.find((t) => t.toLowerCase() === type.toLowerCase());
  const hint = near === undefined ? "" : ` (did you mean ${JSON.stringify(near)}?)`;
  const list = installed.length > 0 ? `installed: ${installed.join(", ")}` : "no auth scheme is installed";
  throw new ConfigError(
    `${path}: upstream ${name} asks for auth type ${JSON.stringify(type)}, which no installed plugin provides${hint}; ${list}`,
  );
}

function validator(scheme: AuthScheme, name: string): ValidateFunction | undefined {
  if (!scheme.optionsSchema) return undefined;
  let validate = validators.get(scheme);
  if (!validate) {
    // verbose: describeSchemaErrors reads oneOf branches ("must have exactly one of …") from it.
    ajv ??= new (loadAjv().Ajv)({ allErrors: true, strict: false, verbose: true });
    try {
      validate = ajv.compile(scheme.optionsSchema);
    } catch (err) {
      throw new AuthError(
        `upstream ${name}: auth type ${JSON.stringify(scheme.type)} has an invalid optionsSchema: ${(err as Error).message}`,
      );
    }
    validators.set(scheme, validate);
  }
  return validate;
}

/** What a scheme threw, without the credentials and without a cause that might hold them. */
function redacted(err: unknown, secrets: readonly string[], name: string, type: string): Error {
  const clean = (text: string) => redact(text, secrets);
  if (err instanceof ConfigError) return new ConfigError(clean(err.message), err.problems.map(clean));
  if (err instanceof AuthError) return new AuthError(clean(err.message));
  const reason = err instanceof Error ? err.message : String(err);
  return new AuthError(`upstream ${name}: auth type ${JSON.stringify(type)} failed: ${clean(reason)}`);
}

interface MergeContext {
  name: string;
  type: string;
  secrets: Set<string>;
}

/** The effect checked (whoever wrote the scheme) and merged into a copy of the target. */
function merge(effect: AuthEffect, target: UpstreamTarget, ctx: MergeContext): AppliedAuth {
  const { name, type, secrets } = ctx;
  const fail = (what: string) => new AuthError(`upstream ${name}: auth type ${JSON.stringify(type)} ${what}`);
  const headers = Object.entries(effect.headers ?? {});
  const env = Object.entries(effect.env ?? {});
  const query = Object.entries(effect.query ?? {});
  if ((headers.length > 0 || query.length > 0) && target.url === undefined) {
    throw fail(
      `gives HTTP ${headers.length > 0 ? "headers" : "query parameters"}, and ${name} is a command server`,
    );
  }
  if (env.length > 0 && target.command === undefined) {
    throw fail(`gives environment variables, and ${name} is a URL server`);
  }
  if (effect.live !== undefined && target.url === undefined) {
    throw fail(`gives credentials for HTTP requests, and ${name} is a command server`);
  }
  const out: UpstreamTarget = { ...target };
  // Live credentials (OAuth) are asked by the transports at each request: nothing to merge now.
  if (effect.live !== undefined) out.auth = effect.live;

  if (headers.length > 0) {
    const merged = { ...target.headers };
    for (const [header, value] of headers) {
      const problem = authHeaderNameProblem(header);
      if (problem) throw fail(`produced an unusable header: ${problem}`);
      const valueProblem = authHeaderValueProblem(value);
      if (valueProblem) throw fail(`produced an unusable value for header ${header}: ${valueProblem}`);
      // Header names ignore case: the scheme's replaces any the target had, rather than joining it.
      for (const k of Object.keys(merged)) if (k.toLowerCase() === header.toLowerCase()) delete merged[k];
      merged[header] = value;
      secrets.add(value);
      // `Bearer <token>`, `Basic <base64>`: the credential alone may be logged without its scheme word.
      const space = value.indexOf(" ");
      if (space > 0) secrets.add(value.slice(space + 1));
    }
    out.headers = merged;
  }

  if (env.length > 0) {
    for (const [variable, value] of env) {
      const problem = envNameProblem(variable) ?? envValueProblem(value);
      if (problem) throw fail(`produced an unusable environment variable: ${problem}`);
      secrets.add(value);
    }
    out.env = { ...target.env, ...effect.env };
  }

  if (query.length > 0) {
    if (query.some(([param]) => param === "")) throw fail("produced a query parameter without a name");
    out.url = withQuery(target.url!, query, name);
    // Its encoded forms (as in the URL) are among the forms expandSecrets adds.
    for (const [, value] of query) secrets.add(value);
  }

  const all = expandSecrets(secrets);
  out.secrets = target.secrets === undefined ? all : expandSecrets([...target.secrets, ...secrets]);
  return { target: out, secrets: all };
}

/**
 * The URL with these parameters in its query string. Parameters already there are kept as written
 * (not re-encoded), except one of the same name, which the declared value replaces.
 */
function withQuery(url: string, query: [string, string][], name: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`${formatKeyPath(["servers", name, "url"])}: must be an absolute URL`);
  }
  const declared = new Set(query.map(([param]) => param));
  const kept = parsed.search
    .slice(1)
    .split("&")
    .filter((pair) => pair !== "" && !declared.has([...new URLSearchParams(pair).keys()][0] ?? ""));
  parsed.search = [...kept, new URLSearchParams(query).toString()].join("&");
  return parsed.href;
}

function collectStrings(value: unknown, into: Set<string>): void {
  if (typeof value === "string") into.add(value);
  else if (Array.isArray(value)) for (const v of value) collectStrings(v, into);
  else if (typeof value === "object" && value !== null)
    for (const v of Object.values(value)) collectStrings(v, into);
}
