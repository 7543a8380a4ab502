/**
 * The live credentials of one upstream (core LiveCredentials): the token it sends, and what it does
 * when the upstream refuses it.
 *
 * - 401: discover again (the authorization server may have changed: nothing of the old one is used
 *   with the new, 2026-07-28 client-registration "Authorization Server Binding"), then the cheapest
 *   way to a token that works: one stored by another run (`mcpx auth login`), a refresh, and last a
 *   new authorization (registration, the user through the authorizer, or client credentials).
 * - 403 with insufficient_scope: a new authorization for the union of the scopes held and the ones
 *   challenged (2026-07-28 basic/authorization "Step-Up Authorization Flow"), at most STEP_UP_LIMIT
 *   times in one request, and not at all when the challenge asks for nothing new.
 * - A token about to expire is refreshed before it is sent.
 * - DPoP (RFC 9449), when the config, the authorization server or the resource asks for it: the
 *   tokens are bound to one key per authorization server, kept with them; every request carries a
 *   fresh proof; a resource's use_dpop_nonce refusal is tried once more with its nonce, and a nonce
 *   given on any answer is used from then on.
 *
 * One flow at a time: requests refused meanwhile wait for it and go again with its token.
 */
import {
  type AuthAnswer,
  type AuthChallenge,
  AuthorizationFailedError,
  AuthorizationRequiredError,
  InsufficientScopeError,
  type LiveCredentials,
  type Logger,
} from "@mcpx/core";
import type { TokenEndpointResponse } from "oauth4webapi";
import type { Authorizer } from "./authorizer.js";
import { type BearerChallenge, bearerChallenge, scopeList } from "./challenge.js";
import { type Discovery, discover } from "./discovery.js";
import { DPoPKey, proofNonce, wantsDPoP } from "./dpop.js";
import { authorizationCode, checkPkce, type FlowContext, machineGrant, refresh } from "./flows.js";
import { DEFAULT_REDIRECT_URI, MACHINE_GRANTS, type OAuthOptions } from "./options.js";
import { clientFor } from "./registration.js";
import type { ClientRecord, StoredGrant, TokenStore } from "./token-store.js";

export interface SessionContext {
  upstream: string;
  /** The upstream's URL. */
  server: URL;
  options: OAuthOptions;
  store: TokenStore;
  /** Who has the user authorize; none where nobody can (a daemon). */
  authorizer: Authorizer | undefined;
  log: Logger;
}

const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;
/**
 * A token this close to its expiry (or past half its life, for a short-lived one) is refreshed before
 * it is sent, rather than sent to be refused.
 */
export const EXPIRY_MARGIN_MS = 60_000;
/** New authorizations for insufficient scope within one request (2025-11-25: "limit retries"). */
export const STEP_UP_LIMIT = 2;

export class OAuthSession implements LiveCredentials {
  readonly #ctx: SessionContext;
  #grant: StoredGrant | undefined;
  #discovery: Discovery | undefined;
  #headers = NO_HEADERS;
  /** When the held token is refreshed before use: short of its expiry by the margin, or half its life. */
  #refreshAt: number | undefined;
  /** The Authorization header of the token last issued to this session (not one read from the store). */
  #issued: string | undefined;
  /** The flow in progress: requests refused meanwhile wait for it. */
  #flow: Promise<void> | undefined;
  #refreshing: Promise<void> | undefined;
  /** The DPoP key of the authorization server in use, once DPoP is. */
  #dpop: DPoPKey | undefined;
  #dpopIssuer: string | undefined;
  /** The upstream's last refusal offered the DPoP scheme. */
  #challengedDPoP = false;
  /** Every token and secret this session has held, longest first, for redact(). */
  #secrets: string[] = [];

  constructor(ctx: SessionContext) {
    this.#ctx = ctx;
  }

  get #upstream(): string {
    return this.#ctx.upstream;
  }

  headers(method: string, url: URL): Record<string, string> | Promise<Record<string, string>> {
    const grant = this.#grant;
    if (grant?.refreshToken !== undefined && this.#refreshAt !== undefined && Date.now() >= this.#refreshAt) {
      this.#refreshing ??= this.#refreshExpiring(grant).finally(() => {
        this.#refreshing = undefined;
      });
      return this.#refreshing.then(() => this.#current(method, url));
    }
    return this.#current(method, url);
  }

  /** The held token's headers: with a fresh proof for this request when it is DPoP-bound. */
  #current(method: string, url: URL): Record<string, string> | Promise<Record<string, string>> {
    const token = this.#grant?.accessToken;
    if (token !== undefined && this.#dpop !== undefined && bound(this.#grant)) {
      return this.#dpop.resourceHeaders(method, url, token);
    }
    return this.#headers;
  }

  answered(answer: AuthAnswer): void {
    this.#dpop?.rememberNonce(answer.url, answer.dpopNonce);
  }

  async challenged(challenge: AuthChallenge): Promise<boolean> {
    if (challenge.status !== 401 && challenge.status !== 403) return false;
    const bearer = bearerChallenge(challenge.wwwAuthenticate);
    if (bearer?.dpop) this.#challengedDPoP = true;
    // The resource wants a nonce in the proof (RFC 9449 §9): once more with it, unless the refused
    // proof already carried that very nonce.
    if (challenge.status === 401 && bearer?.error === "use_dpop_nonce" && this.#dpop) {
      const nonce = challenge.dpopNonce;
      if (nonce === undefined || (await proofNonce(challenge.dpop)) === nonce) return false;
      this.#dpop.rememberNonce(challenge.url, nonce);
      return true;
    }
    if (challenge.status === 403 && bearer?.error !== "insufficient_scope") return false;
    // Another request's flow is renewing the credentials: its outcome is this request's too.
    if (this.#flow) {
      await this.#flow;
      return true;
    }
    const current = this.#headers.Authorization;
    // Renewed since this request left: it goes again with the new token.
    if (current !== undefined && challenge.authorization !== current) return true;
    if (
      challenge.status === 401 &&
      challenge.attempt > 0 &&
      current !== undefined &&
      current === this.#issued
    ) {
      throw new AuthorizationFailedError(
        this.#upstream,
        `upstream ${this.#upstream} refused the token its authorization server has just issued (HTTP 401)`,
      );
    }
    const flow =
      challenge.status === 401
        ? this.#unauthorized(bearer, current)
        : this.#stepUp(bearer, challenge.attempt);
    this.#flow = flow.finally(() => {
      this.#flow = undefined;
    });
    await this.#flow;
    return true;
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.#secrets) out = out.replaceAll(secret, "[redacted]");
    return out;
  }

  /** A 401: whatever gets a token the cheapest way, from discovery on. */
  async #unauthorized(bearer: BearerChallenge | undefined, refused: string | undefined): Promise<void> {
    const discovery = await this.#discover(bearer);
    const { issuer } = discovery.as;
    const held = this.#grant;
    const stored = await this.#load(issuer, discovery.resource);
    // A token stored since (by mcpx auth login, or another process) and not the one refused: tried first.
    for (const candidate of [stored, held]) {
      if (candidate?.accessToken !== undefined && headerOf(candidate) !== refused && !expired(candidate)) {
        await this.#keyFor(discovery, candidate);
        this.#setGrant(candidate);
        return;
      }
    }
    const grant = stored ?? held;
    if (grant?.refreshToken !== undefined && grant.client) {
      const key = await this.#keyFor(discovery, grant);
      const tokens = await refresh(this.#flowContext(discovery, grant.client, key), grant.refreshToken);
      if (tokens) {
        await this.#save(discovery, grant.client, tokens, grant, undefined, key);
        return;
      }
      this.#ctx.log.info("the refresh token was refused; authorizing again", {
        upstream: this.#upstream,
        issuer,
      });
    }
    // The key this authorization server's grant had (another run's) serves the new one too.
    if (grant?.dpopKey !== undefined) await this.#keyFor(discovery, grant);
    const { scope } = this.#ctx.options;
    await this.#authorize(
      discovery,
      grant?.client,
      this.#scopeFor(discovery, scope === undefined ? bearer?.scopes : scopeList(scope)),
    );
  }

  /** A 403 insufficient_scope: a new authorization for the scopes held and the ones challenged. */
  async #stepUp(bearer: BearerChallenge | undefined, attempt: number): Promise<void> {
    const wanted = bearer?.scopes ?? [];
    const held = scopeList(this.#grant?.scope);
    const upstream = this.#upstream;
    if (wanted.length === 0 || wanted.every((s) => held.includes(s))) {
      throw new InsufficientScopeError(
        upstream,
        `upstream ${upstream} refused the request for insufficient scope${wanted.length ? ` (${wanted.join(" ")})` : ""}, which the token already has; a new authorization would not change it`,
        wanted,
      );
    }
    if (attempt >= STEP_UP_LIMIT) {
      throw new InsufficientScopeError(
        upstream,
        `upstream ${upstream} still refuses the request for insufficient scope (${wanted.join(" ")}) after ${STEP_UP_LIMIT} new authorizations`,
        wanted,
      );
    }
    const discovery = this.#discovery ?? (await this.#discover(bearer));
    const union = [...new Set([...held, ...wanted])];
    this.#ctx.log.info("the upstream asks for more scope; authorizing again", {
      upstream,
      scope: union.join(" "),
    });
    await this.#authorize(discovery, this.#grant?.client, this.#scopeFor(discovery, union));
  }

  /** Discovery, and the end of everything held for an authorization server the resource left. */
  async #discover(bearer: BearerChallenge | undefined): Promise<Discovery> {
    const { options, server, upstream } = this.#ctx;
    const discovery = await discover(
      { upstream, server, ...(options.issuer === undefined ? {} : { preferredIssuer: options.issuer }) },
      bearer,
    );
    if (this.#dpopIssuer !== undefined && this.#dpopIssuer !== discovery.as.issuer) {
      // A key is one authorization server's: another gets its own.
      this.#dpop = undefined;
      this.#dpopIssuer = undefined;
    }
    const old = this.#grant;
    if (old && (old.issuer !== discovery.as.issuer || old.resource !== discovery.resource)) {
      this.#ctx.log.info("the upstream's authorization server changed; nothing of the old one is used", {
        upstream,
        from: old.issuer,
        to: discovery.as.issuer,
      });
      this.#setGrant(undefined);
      await this.#ctx.store.delete(old.issuer, old.resource).catch(() => {});
    }
    this.#discovery = discovery;
    return discovery;
  }

  /** A new grant: client credentials, or the user's authorization (registering first if need be). */
  async #authorize(
    discovery: Discovery,
    known: ClientRecord | undefined,
    scope: string | undefined,
  ): Promise<void> {
    const { options, upstream, authorizer } = this.#ctx;
    const redirectUri = options.redirectUri ?? DEFAULT_REDIRECT_URI;
    if (options.grant !== undefined && MACHINE_GRANTS.includes(options.grant)) {
      const client = await clientFor({ upstream, options, redirectUri, as: discovery.as }, known);
      const key = await this.#keyFor(discovery, this.#grant);
      const tokens = await machineGrant(this.#flowContext(discovery, client, key), scope);
      await this.#save(discovery, client, tokens, undefined, scope, key);
      return;
    }
    // Nobody to log in here: say which command does, before registering anywhere.
    if (!authorizer) throw new AuthorizationRequiredError(upstream);
    checkPkce(upstream, discovery);
    const client = await clientFor({ upstream, options, redirectUri, as: discovery.as }, known);
    if (client.registration === "dynamic" && client !== known) {
      // Kept at once: an authorization that fails now does not register another client next time.
      this.#remember({ issuer: discovery.as.issuer, resource: discovery.resource, client });
    }
    this.#ctx.log.info("authorizing", {
      upstream,
      issuer: discovery.as.issuer,
      registration: client.registration,
    });
    const key = await this.#keyFor(discovery, this.#grant);
    const tokens = await authorizationCode(this.#flowContext(discovery, client, key), authorizer, scope);
    await this.#save(discovery, client, tokens, undefined, scope, key);
  }

  /**
   * The scopes to ask for: those chosen (the config's, the challenge's, a step-up's union), else the
   * resource's scopes_supported, else none, and the parameter is left out (2025-11-25
   * basic/authorization "Scope Selection Strategy"); offline_access added where the authorization
   * server offers it (2026-07-28 basic/authorization "Refresh Tokens").
   */
  #scopeFor(discovery: Discovery, chosen: string[] | undefined): string | undefined {
    const { options } = this.#ctx;
    const scopes = [
      ...(chosen ?? (discovery.prm?.scopes_supported ?? []).filter((s) => typeof s === "string")),
    ];
    const offered = discovery.as.scopes_supported;
    if (
      options.offlineAccess !== false &&
      (options.grant === undefined || options.grant === "authorization_code") &&
      Array.isArray(offered) &&
      offered.includes("offline_access") &&
      !scopes.includes("offline_access")
    ) {
      scopes.push("offline_access");
    }
    return scopes.length > 0 ? scopes.join(" ") : undefined;
  }

  async #refreshExpiring(grant: StoredGrant): Promise<void> {
    const discovery = this.#discovery;
    if (discovery && grant.client && grant.refreshToken !== undefined) {
      try {
        const key = await this.#keyFor(discovery, grant);
        const tokens = await refresh(this.#flowContext(discovery, grant.client, key), grant.refreshToken);
        if (tokens) {
          await this.#save(discovery, grant.client, tokens, grant, undefined, key);
          return;
        }
      } catch (err) {
        this.#ctx.log.info(`refreshing the expiring token failed: ${(err as Error).message}`, {
          upstream: this.#upstream,
        });
      }
    }
    // Sent as it is: the upstream's 401 starts what it takes.
    const { refreshToken: _spent, ...rest } = grant;
    this.#setGrant(rest);
  }

  #flowContext(discovery: Discovery, client: ClientRecord, key: DPoPKey | undefined): FlowContext {
    const { options, upstream } = this.#ctx;
    const redirectUri = options.redirectUri ?? DEFAULT_REDIRECT_URI;
    return { upstream, options, discovery, client, redirectUri, ...(key ? { dpop: key.handle } : {}) };
  }

  /**
   * The DPoP key for a token request or a held token, or none when DPoP is not used: the key the
   * grant is bound to (a refresh keeps its key), else the one this authorization server already
   * has in this session, else a new one. Not used when the config says dpop: false.
   */
  async #keyFor(discovery: Discovery, grant: StoredGrant | undefined): Promise<DPoPKey | undefined> {
    const { options } = this.#ctx;
    const wanted =
      wantsDPoP(options, discovery, this.#challengedDPoP ? { dpop: true } : undefined) ||
      (options.dpop !== false && bound(grant));
    if (!wanted) return undefined;
    const issuer = discovery.as.issuer;
    const stored = grant?.issuer === issuer ? grant.dpopKey : undefined;
    const held = this.#dpopIssuer === issuer ? this.#dpop : undefined;
    if (held && (stored === undefined || stored.x === held.jwk.x)) return held;
    const key = (await DPoPKey.from(stored)) ?? held ?? (await DPoPKey.generate());
    this.#dpop = key;
    this.#dpopIssuer = issuer;
    return key;
  }

  async #save(
    discovery: Discovery,
    client: ClientRecord,
    tokens: TokenEndpointResponse,
    previous?: StoredGrant,
    asked?: string,
    key?: DPoPKey,
  ): Promise<void> {
    const grant: StoredGrant = {
      issuer: discovery.as.issuer,
      resource: discovery.resource,
      client,
      accessToken: tokens.access_token,
      tokenType: tokens.token_type,
    };
    // Kept whether or not this token came bound: the key is the authorization server's, for good.
    if (key) grant.dpopKey = key.jwk;
    const life = typeof tokens.expires_in === "number" ? tokens.expires_in * 1000 : undefined;
    if (life !== undefined) grant.expiresAt = Date.now() + life;
    // A refresh that rotates nothing keeps the refresh token it used (RFC 6749 §6).
    const refreshToken = tokens.refresh_token ?? previous?.refreshToken;
    if (refreshToken !== undefined) grant.refreshToken = refreshToken;
    const scope = typeof tokens.scope === "string" ? tokens.scope : (asked ?? previous?.scope);
    if (scope !== undefined) grant.scope = scope;
    this.#setGrant(grant, life);
    this.#issued = this.#headers.Authorization;
    this.#remember(grant);
  }

  /** Writes the grant to the store; a store that fails is reported, and the token still used. */
  #remember(grant: StoredGrant): void {
    this.#ctx.store.set(grant).catch((err: Error) => {
      this.#ctx.log.warn(`the token could not be stored: ${err.message}`, { upstream: this.#upstream });
    });
  }

  async #load(issuer: string, resource: string): Promise<StoredGrant | undefined> {
    const grant = await this.#ctx.store.get(issuer, resource).catch(() => undefined);
    if (grant) this.#learn(grant);
    return grant;
  }

  /** `life`: the token's lifetime as issued, when known (a stored one's is not). */
  #setGrant(grant: StoredGrant | undefined, life?: number): void {
    this.#grant = grant;
    const expiresAt = grant?.expiresAt;
    this.#refreshAt =
      expiresAt === undefined
        ? undefined
        : expiresAt - Math.min(EXPIRY_MARGIN_MS, (life ?? Number.POSITIVE_INFINITY) / 2);
    const header = grant && headerOf(grant);
    this.#headers = header === undefined ? NO_HEADERS : Object.freeze({ Authorization: header });
    if (grant) this.#learn(grant);
  }

  /** Adds what a grant holds to what redact() takes out. */
  #learn(grant: StoredGrant): void {
    const { options } = this.#ctx;
    const values = [
      grant.accessToken,
      grant.refreshToken,
      grant.client?.clientSecret,
      options.clientSecret,
      options.assertion,
      options.subjectToken,
      options.idpClientSecret,
      grant.dpopKey?.d,
    ];
    const known = new Set(this.#secrets);
    for (const value of values) {
      if (value === undefined || value === "") continue;
      for (const form of [value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)])
        known.add(form);
    }
    this.#secrets = [...known].sort((a, b) => b.length - a.length);
  }
}

function headerOf(grant: StoredGrant): string | undefined {
  if (grant.accessToken === undefined) return undefined;
  return `${bound(grant) ? "DPoP" : "Bearer"} ${grant.accessToken}`;
}

/** A DPoP-bound token (token_type DPoP, RFC 9449 §5), with the key it is bound to. */
function bound(grant: StoredGrant | undefined): boolean {
  return grant?.tokenType?.toLowerCase() === "dpop" && grant.dpopKey !== undefined;
}

function expired(grant: StoredGrant): boolean {
  return grant.expiresAt !== undefined && Date.now() >= grant.expiresAt;
}
