/**
 * `mcpx auth login | status | logout`: a user's OAuth sign-in to an upstream whose auth is
 * `{ "type": "oauth" }`, for the daemon to use. A daemon has nobody at a browser, so it fails such an
 * upstream with AuthorizationRequiredError naming `mcpx auth login <server>`; this command connects to
 * that one upstream with @mcpx/auth-oauth made with an authorizer (the URL printed, a browser opened,
 * the redirect heard on the loopback listener), and the tokens land in the state directory's token
 * store, where the daemon's plugin finds them on the upstream's next 401.
 *
 * Status and logout read the store without a network request: a server's grants are those whose
 * resource names its URL (the plugin's own rule, resourceCovers). No token is ever printed.
 */
import * as path from "node:path";
import {
  createOAuthPlugin,
  DEFAULT_REDIRECT_URI,
  FileTokenStore,
  listenForRedirect,
  resourceCovers,
  type StoredGrant,
  type TokenStore,
} from "@mcpx/auth-oauth";
import { loadConfig, type McpxConfig, type ServerConfig, type UrlServerConfig } from "@mcpx/config";
import type { Plugin } from "@mcpx/core";
import { loadRuntime, signInConfig } from "@mcpx/daemon";
import { redact, redactError } from "@mcpx/host";
import { openBrowser } from "../browser.js";
import { LoginError, UsageError } from "../errors.js";
import type { MainIO } from "../io.js";
import { checkServer } from "../lookup.js";
import { type CommonOptions, printJson } from "../one-shot.js";

export interface AuthOptions extends CommonOptions {
  stateDir?: string;
}

export interface LoginOptions extends AuthOptions {
  /** Do not try to open a browser (the URL is printed all the same). */
  browser?: boolean;
  /** How long to wait for the sign-in, in seconds (default 300). */
  timeout?: string;
}

export const DEFAULT_LOGIN_TIMEOUT_S = 300;

interface AuthContext {
  config: McpxConfig;
  stateDir: string;
  store: FileTokenStore;
}

async function context(opts: AuthOptions, io: MainIO): Promise<AuthContext> {
  const cwd = io.cwd ?? process.cwd();
  const config = await loadConfig(path.resolve(cwd, opts.config), io.env ? { env: io.env } : {});
  // The daemon's plugin keeps tokens in the config's stateDir (AuthTarget.stateDir): the same here.
  const stateDir = opts.stateDir ? path.resolve(cwd, opts.stateDir) : config.stateDir;
  return { config, stateDir, store: new FileTokenStore(stateDir) };
}

/** The named server, if its auth is oauth; a usage error (exit 2) saying so if not. */
function oauthServer(config: McpxConfig, name: string): UrlServerConfig {
  checkServer(config, name);
  const server = config.servers[name] as ServerConfig;
  if (server.kind !== "url" || server.auth?.type !== "oauth") {
    const has = server.auth ? `auth type "${server.auth.type}"` : "no auth";
    throw new UsageError(
      `${name} does not sign in with OAuth: it has ${has}${server.kind === "url" ? "" : " and is a command server"}`,
      `mcpx auth works on servers whose auth is { "type": "oauth" }`,
    );
  }
  return server;
}

const isOAuth = (s: ServerConfig): s is UrlServerConfig => s.kind === "url" && s.auth?.type === "oauth";

/** What may be shown of a grant: never a token or a secret. */
function describe(grant: StoredGrant) {
  return {
    issuer: grant.issuer,
    resource: grant.resource,
    ...(grant.scope === undefined ? {} : { scope: grant.scope }),
    ...(grant.expiresAt === undefined ? {} : { expiresAt: new Date(grant.expiresAt).toISOString() }),
    accessToken: grant.accessToken !== undefined,
    refreshToken: grant.refreshToken !== undefined,
    ...(grant.client ? { registration: grant.client.registration } : {}),
  };
}

async function grantsOf(store: FileTokenStore, server: UrlServerConfig): Promise<StoredGrant[]> {
  const url = new URL(server.url);
  return (await store.list()).filter((g) => resourceCovers(g.resource, url));
}

function line(grant: StoredGrant): string {
  const d = describe(grant);
  const parts = [`at ${d.issuer} for ${d.resource}`];
  if (d.scope) parts.push(`scopes ${d.scope}`);
  if (!d.accessToken) parts.push("no access token yet");
  else if (d.expiresAt) {
    const past = Date.parse(d.expiresAt) <= Date.now();
    parts.push(`access token ${past ? "expired" : "expires"} ${d.expiresAt}`);
  } else parts.push("access token without an expiry");
  if (d.refreshToken) parts.push("refresh token held");
  return parts.join(", ");
}

/** A store that remembers its writes, so that the command ends only once they are on disk. */
class AwaitedStore implements TokenStore {
  readonly #writes: Promise<unknown>[] = [];
  constructor(readonly inner: FileTokenStore) {}
  get(issuer: string, resource: string) {
    return this.inner.get(issuer, resource);
  }
  set(grant: StoredGrant) {
    const write = this.inner.set(grant);
    this.#writes.push(write.catch(() => {}));
    return write;
  }
  delete(issuer: string, resource: string) {
    const write = this.inner.delete(issuer, resource);
    this.#writes.push(write.catch(() => {}));
    return write;
  }
  async written(): Promise<void> {
    await Promise.all(this.#writes);
  }
}

export async function authLogin(name: string, opts: LoginOptions, io: MainIO): Promise<number> {
  const timeoutS = opts.timeout === undefined ? DEFAULT_LOGIN_TIMEOUT_S : Number(opts.timeout);
  if (!Number.isFinite(timeoutS) || timeoutS <= 0) {
    throw new UsageError(
      `--timeout must be a positive number of seconds, not ${JSON.stringify(opts.timeout)}`,
    );
  }
  const timeoutMs = timeoutS * 1000;
  const { config, stateDir, store } = await context(opts, io);
  const server = oauthServer(config, name);
  const redirectUri =
    typeof server.auth?.redirectUri === "string" ? server.auth.redirectUri : DEFAULT_REDIRECT_URI;
  const listener = await listenForRedirect(redirectUri, name).catch((err: Error) => {
    throw new LoginError(err.message);
  });
  // The URL is for a person: on stdout, unless stdout is --json's.
  const say = opts.json ? io.stderr : io.stdout;
  const awaited = new AwaitedStore(store);
  const oauth = createOAuthPlugin({
    store: awaited,
    authorizer: {
      async authorize(request) {
        say(`Open this URL to sign in to ${name} (at ${request.issuer}): ${request.url.href}\n`);
        if (opts.browser !== false) openBrowser(request.url.href);
        return listener.next(timeoutMs);
      },
    },
  });
  const only = signInConfig(config, name, server, timeoutMs);
  try {
    const rt = await loadRuntime({
      configFile: config.path ?? "(config)",
      config: only,
      ...(io.env ? { env: io.env } : {}),
      writeLog: (text) => io.stderr(`${text}\n`),
      logLevel: opts.logLevel ?? "error",
      stateDir,
      oneShot: true,
      plugins: [oauth as Plugin<unknown>],
    });
    rt.gateway.start();
    try {
      await rt.gateway.pool.settled();
      const state = rt.gateway.pool.states().find((s) => s.name === name);
      await awaited.written();
      if (state?.status !== "connected") {
        throw new LoginError(
          `signing in to ${name} failed: ${state?.error ?? "it did not connect"}`,
          `mcpx auth status ${name} shows what is stored`,
        );
      }
    } catch (err) {
      throw redactError(err, (text) => redact(text, rt.config.secrets));
    } finally {
      await rt.gateway.stop();
    }
  } finally {
    await listener.close();
  }
  const grants = (await grantsOf(store, server)).filter((g) => g.accessToken !== undefined);
  if (opts.json) {
    printJson(io, { server: name, signedIn: grants.length > 0, grants: grants.map(describe) });
    return 0;
  }
  if (grants.length === 0) {
    io.stdout(`${name} connected without asking for a sign-in: nothing to store\n`);
    return 0;
  }
  io.stdout(`Signed in to ${name}\n`);
  for (const g of grants) io.stdout(`  ${line(g)}\n`);
  return 0;
}

export async function authStatus(name: string | undefined, opts: AuthOptions, io: MainIO): Promise<number> {
  const { config, store } = await context(opts, io);
  const servers =
    name === undefined ? Object.values(config.servers).filter(isOAuth) : [oauthServer(config, name)];
  const report = [];
  for (const server of servers) {
    const grants = await grantsOf(store, server);
    report.push({ server: server.name, grants });
  }
  if (opts.json) {
    printJson(io, {
      servers: report.map((r) => ({
        server: r.server,
        signedIn: r.grants.some((g) => g.accessToken !== undefined),
        grants: r.grants.map(describe),
      })),
    });
    return 0;
  }
  if (report.length === 0) io.stdout("no server signs in with OAuth\n");
  for (const r of report) {
    if (r.grants.length === 0) {
      io.stdout(`${r.server}: not signed in (mcpx auth login ${r.server})\n`);
      continue;
    }
    const signedIn = r.grants.some((g) => g.accessToken !== undefined);
    io.stdout(`${r.server}: ${signedIn ? "signed in" : "not signed in"}\n`);
    for (const g of r.grants) io.stdout(`  ${line(g)}\n`);
  }
  return 0;
}

export async function authLogout(name: string, opts: AuthOptions, io: MainIO): Promise<number> {
  const { store, config } = await context(opts, io);
  const server = oauthServer(config, name);
  const grants = await grantsOf(store, server);
  for (const g of grants) await store.delete(g.issuer, g.resource);
  if (opts.json) {
    printJson(io, {
      server: name,
      removed: grants.map((g) => ({ issuer: g.issuer, resource: g.resource })),
    });
    return 0;
  }
  if (grants.length === 0) io.stdout(`${name}: nothing stored, nothing removed\n`);
  for (const g of grants) {
    const what = [
      g.accessToken !== undefined || g.refreshToken !== undefined ? "tokens" : undefined,
      g.client ? `client registration (${g.client.registration})` : undefined,
    ].filter(Boolean);
    io.stdout(
      `Signed out of ${name}: removed the ${what.join(" and ") || "record"} of ${g.issuer} for ${g.resource}\n`,
    );
  }
  return 0;
}
