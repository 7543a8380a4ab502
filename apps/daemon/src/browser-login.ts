/**
 * The console's Sign in: POST /.mcpx/upstreams/:name/login starts the OAuth browser sign-in of an
 * upstream whose auth is `{ "type": "oauth" }` and answers the authorization URL for the page to
 * open. It is `mcpx auth login`'s flow (@mcpx/auth-oauth made with an authorizer, the redirect heard
 * on the loopback listener, the tokens in the state directory's store), run by the daemon: once the
 * user has signed in, the upstream is reconnected and finds its tokens.
 */
import type { StoredGrant, TokenStore } from "@mcpx/auth-oauth";
import { targetFingerprint } from "@mcpx/client";
import type { McpxConfig, UrlServerConfig } from "@mcpx/config";
import {
  AuthorizationFailedError,
  type ControlRoute,
  type EraRecord,
  InvalidParamsError,
  type Plugin,
} from "@mcpx/core";
import { UnknownUpstreamError, type UpstreamState, upstreamTarget } from "@mcpx/gateway";
import { loadRuntime, type Runtime } from "./runtime.js";

/** How long a started sign-in waits for the user (`mcpx auth login`'s default too). */
export const LOGIN_TIMEOUT_MS = 300_000;

export type LoginStarted =
  /** Open `url` to sign in (at `issuer`). */
  | { upstream: string; url: string; issuer: string }
  /** It connected without asking for a sign-in (its tokens were there already). */
  | { upstream: string; connected: true };

export interface BrowserLoginOptions {
  stateDir?: string;
  writeLog?: (line: string) => void;
  timeoutMs?: number;
}

/** A store that remembers its writes: the upstream is reconnected once they are on disk. */
class AwaitedStore implements TokenStore {
  readonly #writes: Promise<unknown>[] = [];
  constructor(readonly inner: TokenStore) {}
  get(issuer: string, resource: string) {
    return this.inner.get(issuer, resource);
  }
  set(grant: StoredGrant) {
    return this.#track(this.inner.set(grant));
  }
  delete(issuer: string, resource: string) {
    return this.#track(this.inner.delete(issuer, resource));
  }
  #track(write: Promise<void>) {
    this.#writes.push(write.catch(() => {}));
    return write;
  }
  async written(): Promise<void> {
    await Promise.all(this.#writes);
  }
}

export class BrowserLogins {
  readonly #runtime: Runtime;
  readonly #opts: BrowserLoginOptions;
  /** One sign-in per upstream at a time: a second click answers the same URL. */
  readonly #started = new Map<string, Promise<LoginStarted>>();
  /** Ends the sign-ins in flight (the daemon stops). */
  readonly #stops = new Set<() => Promise<void>>();

  constructor(runtime: Runtime, opts: BrowserLoginOptions = {}) {
    this.#runtime = runtime;
    this.#opts = opts;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.#stops].map((stop) => stop()));
  }

  route(): ControlRoute {
    return {
      method: "POST",
      path: "upstreams/:name/login",
      handle: (req) => this.start(req.params.name ?? ""),
    };
  }

  start(name: string): Promise<LoginStarted> {
    const { config, gateway } = this.#runtime;
    if (!gateway.pool.states().some((s) => s.name === name)) {
      throw new UnknownUpstreamError(
        name,
        gateway.pool.states().map((s) => s.name),
      );
    }
    const server = config.servers[name];
    if (server?.kind !== "url" || server.auth?.type !== "oauth") {
      throw new InvalidParamsError(
        `${name} does not sign in with OAuth: its auth is ${server?.auth ? `"${server.auth.type}"` : "none"} (a sign-in is for a URL server with { "type": "oauth" })`,
        { upstream: name },
      );
    }
    let started = this.#started.get(name);
    if (!started) {
      started = this.#begin(name, config);
      this.#started.set(name, started);
      // A failed start leaves room for the next click.
      started.catch(() => this.#started.delete(name));
    }
    return started;
  }

  /**
   * The era the sign-in's connection found, in the daemon's store before it reconnects (writes to one
   * file take turns): the daemon's connection starts from it rather than probing the upstream again.
   */
  async #keepEra(server: UrlServerConfig, state: UpstreamState | undefined): Promise<void> {
    if (state?.status !== "connected" || !state.revision || !state.transport) return;
    const record: EraRecord = {
      revision: state.revision,
      transport: state.transport as EraRecord["transport"],
      probedAt: new Date().toISOString(),
    };
    await this.#runtime.eraStore
      .set(server.name, targetFingerprint(upstreamTarget(server)), record)
      .catch(() => {});
  }

  async #begin(name: string, config: McpxConfig): Promise<LoginStarted> {
    // Imported at the first sign-in: a daemon without an OAuth upstream never loads it.
    const { createOAuthPlugin, DEFAULT_REDIRECT_URI, FileTokenStore, listenForRedirect } = await import(
      "@mcpx/auth-oauth"
    );
    const server = config.servers[name];
    if (server?.kind !== "url") throw new InvalidParamsError(`${name} is not a URL server`);
    const timeoutMs = this.#opts.timeoutMs ?? LOGIN_TIMEOUT_MS;
    const redirectUri =
      typeof server.auth?.redirectUri === "string" ? server.auth.redirectUri : DEFAULT_REDIRECT_URI;
    const listener = await listenForRedirect(redirectUri, name);
    const stateDir = this.#opts.stateDir ?? config.stateDir;
    const store = new AwaitedStore(new FileTokenStore(stateDir));
    let asked: (request: { url: string; issuer: string }) => void = () => {};
    const url = new Promise<{ url: string; issuer: string }>((resolve) => {
      asked = resolve;
    });
    const oauth = createOAuthPlugin({
      store,
      authorizer: {
        authorize(request) {
          asked({ url: request.url.href, issuer: request.issuer });
          return listener.next(timeoutMs);
        },
      },
    });
    const only = signInConfig(config, name, server, timeoutMs);
    let rt: Runtime;
    try {
      rt = await loadRuntime({
        configFile: config.path ?? "(config)",
        config: only,
        ...(this.#opts.writeLog ? { writeLog: this.#opts.writeLog } : {}),
        logLevel: "error",
        stateDir,
        oneShot: true,
        plugins: [oauth as Plugin<unknown>],
      });
    } catch (err) {
      await listener.close();
      throw err;
    }
    rt.gateway.start();
    const stop = async () => {
      await rt.gateway.stop().catch(() => {});
      await listener.close().catch(() => {});
    };
    this.#stops.add(stop);
    const done = (async () => {
      try {
        await rt.gateway.pool.settled();
        await store.written();
        const state = rt.gateway.pool.states().find((s) => s.name === name);
        await this.#keepEra(server, state);
        return state;
      } finally {
        this.#stops.delete(stop);
        await stop();
        this.#started.delete(name);
      }
    })();
    // Signed in (or not): the daemon's own connection tries again now, with what was stored.
    void done.then(
      (state) => {
        if (state?.status === "connected") void this.#runtime.gateway.pool.reconnect(name);
        else
          this.#runtime.host.log.warn(`sign-in to ${name} failed: ${state?.error ?? "it did not connect"}`);
      },
      (err: Error) => this.#runtime.host.log.warn(`sign-in to ${name} failed: ${err.message}`),
    );
    const first = await Promise.race([url, done.then((state) => ({ state }))]);
    if ("url" in first) return { upstream: name, ...first };
    if (first.state?.status === "connected") return { upstream: name, connected: true };
    throw new AuthorizationFailedError(
      name,
      `signing in to ${name} failed: ${first.state?.error ?? "it did not connect"}`,
    );
  }
}

/**
 * The config a sign-in runs with: the one upstream alone, its timeouts long enough for a person, since
 * the sign-in happens inside the upstream's first request (`mcpx auth login` and the console's Sign in).
 */
export function signInConfig(
  config: McpxConfig,
  name: string,
  server: McpxConfig["servers"][string],
  timeoutMs: number,
): McpxConfig {
  const patience = timeoutMs + 30_000;
  const settings = {
    ...server.settings,
    handshakeTimeout: Math.max(server.settings.handshakeTimeout, patience),
    requestTimeout: Math.max(server.settings.requestTimeout, patience),
    probeTimeout: Math.max(server.settings.probeTimeout, patience),
  };
  return { ...config, servers: { [name]: { ...server, settings } } } as McpxConfig;
}
