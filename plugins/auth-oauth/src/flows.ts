/**
 * The grants, through oauth4webapi: the authorization code with PKCE S256 (OAuth 2.1 §4.1), the
 * issuer of the response checked before the code goes anywhere (RFC 9207 §2.4, 2026-07-28
 * basic/authorization "Authorization Response Validation"), and the RFC 8707 `resource` on the
 * authorization and token requests; the refresh token grant; and the grants with no user: client
 * credentials, the JWT bearer grant (RFC 7523 §2.1, workload identity), and enterprise-managed
 * authorization (an RFC 8693 token exchange at the enterprise's identity provider for an identity
 * assertion grant, then the JWT bearer grant with it).
 */
import { readFile } from "node:fs/promises";
import { AuthorizationFailedError, AuthorizationRequiredError } from "@mcpx/core";
import * as oauth from "oauth4webapi";
import type { Authorizer } from "./authorizer.js";
import type { Discovery } from "./discovery.js";
import { requestOptions } from "./http.js";
import type { OAuthOptions } from "./options.js";
import { clientAuth, oauthReason } from "./registration.js";
import type { ClientRecord } from "./token-store.js";

export interface FlowContext {
  upstream: string;
  options: OAuthOptions;
  discovery: Discovery;
  client: ClientRecord;
  redirectUri: string;
  /** The DPoP key's handle when the tokens are to be DPoP-bound (RFC 9449 §5): each request has a proof. */
  dpop?: oauth.DPoPHandle;
}

/** oauth4webapi's options for a token request of `ctx`: its proof, when DPoP is used. */
function tokenRequestOptions(ctx: FlowContext, more: { additionalParameters?: Record<string, string> } = {}) {
  const { as } = ctx.discovery;
  return { ...requestOptions(as.token_endpoint), ...more, ...(ctx.dpop ? { DPoP: ctx.dpop } : {}) };
}

/**
 * A token request, tried once more when the authorization server asks for a DPoP nonce
 * (use_dpop_nonce, RFC 9449 §8): the handle has kept the nonce of the refusal, and the new proof
 * carries it. Once: a server that refuses its own nonce is not asked again.
 */
async function withNonce<T>(ctx: FlowContext, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (err) {
    if (ctx.dpop === undefined || !oauth.isDPoPNonceError(err)) throw err;
    return request();
  }
}

/**
 * PKCE is refused where the authorization server does not advertise S256 (2025-11-25
 * basic/authorization "Authorization Code Protection": MUST refuse when code_challenge_methods_supported
 * is absent). The 2025-03-26 default endpoints have no metadata to say it, and PKCE is sent anyway.
 */
export function checkPkce(upstream: string, discovery: Discovery): void {
  if (!discovery.published) return;
  const methods = discovery.as.code_challenge_methods_supported;
  if (!Array.isArray(methods) || !methods.includes("S256")) {
    throw new AuthorizationFailedError(
      upstream,
      `upstream ${upstream} cannot be authorized: its authorization server ${discovery.as.issuer} does not advertise PKCE with S256 (code_challenge_methods_supported), which MCP requires`,
    );
  }
}

/** The authorization code grant: the user authorizes (the authorizer), then the code is exchanged. */
export async function authorizationCode(
  ctx: FlowContext,
  authorizer: Authorizer,
  scope: string | undefined,
): Promise<oauth.TokenEndpointResponse> {
  const { discovery, client: record, upstream, redirectUri } = ctx;
  const { as } = discovery;
  checkPkce(upstream, discovery);
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(String(as.authorization_endpoint));
  const params = url.searchParams;
  params.set("response_type", "code");
  params.set("client_id", record.clientId);
  params.set("redirect_uri", redirectUri);
  params.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
  params.set("code_challenge_method", "S256");
  params.set("state", state);
  if (discovery.prm) params.set("resource", discovery.resource);
  if (scope) params.set("scope", scope);

  // The issuer is the one validated with the metadata, recorded with the verifier and the state.
  const answer = await authorizer.authorize({ upstream, url, redirectUri, issuer: as.issuer });
  const { client, auth } = await clientAuth(record, ctx.options, upstream);
  let callback: URLSearchParams;
  try {
    callback = oauth.validateAuthResponse(as, client, answer, state);
  } catch (err) {
    throw refused(upstream, "the authorization response was refused", err);
  }
  try {
    return await withNonce(ctx, async () => {
      const response = await oauth.authorizationCodeGrantRequest(
        as,
        client,
        auth,
        callback,
        redirectUri,
        verifier,
        tokenRequestOptions(
          ctx,
          discovery.prm ? { additionalParameters: { resource: discovery.resource } } : {},
        ),
      );
      return await oauth.processAuthorizationCodeResponse(as, client, response);
    });
  } catch (err) {
    throw refused(upstream, "the token request failed", err);
  }
}

/** A new access token from the refresh token; undefined when the server no longer takes it. */
export async function refresh(
  ctx: FlowContext,
  refreshToken: string,
): Promise<oauth.TokenEndpointResponse | undefined> {
  const { discovery, upstream } = ctx;
  const { as } = discovery;
  const { client, auth } = await clientAuth(ctx.client, ctx.options, upstream);
  try {
    return await withNonce(ctx, async () => {
      const response = await oauth.refreshTokenGrantRequest(
        as,
        client,
        auth,
        refreshToken,
        tokenRequestOptions(
          ctx,
          discovery.prm ? { additionalParameters: { resource: discovery.resource } } : {},
        ),
      );
      return await oauth.processRefreshTokenResponse(as, client, response);
    });
  } catch (err) {
    // invalid_grant and the like: the refresh token is spent; a new authorization is the way on.
    if (err instanceof oauth.ResponseBodyError) return undefined;
    throw refused(upstream, "refreshing the token failed", err);
  }
}

/** The client credentials grant (OAuth 2.1 §4.2): no user, the client's own credentials. */
export async function clientCredentials(
  ctx: FlowContext,
  scope: string | undefined,
): Promise<oauth.TokenEndpointResponse> {
  const { discovery, upstream } = ctx;
  const { as } = discovery;
  const { client, auth } = await clientAuth(ctx.client, ctx.options, upstream);
  const params = new URLSearchParams();
  if (discovery.prm) params.set("resource", discovery.resource);
  if (scope) params.set("scope", scope);
  try {
    return await withNonce(ctx, async () => {
      const response = await oauth.clientCredentialsGrantRequest(
        as,
        client,
        auth,
        params,
        tokenRequestOptions(ctx),
      );
      return await oauth.processClientCredentialsResponse(as, client, response);
    });
  } catch (err) {
    throw refused(upstream, "the client credentials grant failed", err);
  }
}

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_JAG = "urn:ietf:params:oauth:token-type:id-jag";
const ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token";

/**
 * A grant with no user: client credentials, the JWT bearer grant with the configured assertion, or
 * enterprise-managed authorization. A refusal is final: no other grant is tried in its place.
 */
export async function machineGrant(
  ctx: FlowContext,
  scope: string | undefined,
): Promise<oauth.TokenEndpointResponse> {
  const { options, upstream } = ctx;
  if (options.grant === "client_credentials") return clientCredentials(ctx, scope);
  if (options.grant === "jwt_bearer") {
    const assertion = await secretValue(upstream, options.assertion, options.assertionFile, "assertion");
    return jwtBearer(ctx, assertion, scope);
  }
  return jwtBearer(ctx, await identityAssertion(ctx), scope);
}

/** The JWT bearer grant (RFC 7523 §2.1) with `assertion`. */
async function jwtBearer(
  ctx: FlowContext,
  assertion: string,
  scope: string | undefined,
): Promise<oauth.TokenEndpointResponse> {
  const { discovery, upstream } = ctx;
  const { as } = discovery;
  const { client, auth } = await clientAuth(ctx.client, ctx.options, upstream);
  const params = new URLSearchParams({ assertion });
  if (discovery.prm) params.set("resource", discovery.resource);
  if (scope) params.set("scope", scope);
  try {
    return await withNonce(ctx, async () => {
      const response = await oauth.genericTokenEndpointRequest(
        as,
        client,
        auth,
        JWT_BEARER,
        params,
        tokenRequestOptions(ctx),
      );
      return await oauth.processGenericTokenEndpointResponse(as, client, response);
    });
  } catch (err) {
    throw refused(upstream, "the JWT bearer grant failed", err);
  }
}

/**
 * An identity assertion grant for this authorization server and resource, from the enterprise's
 * identity provider: an RFC 8693 token exchange of the user's ID token (SEP-990).
 */
async function identityAssertion(ctx: FlowContext): Promise<string> {
  const { options, upstream, discovery } = ctx;
  const endpoint = options.idpTokenEndpoint as string;
  const subject = await secretValue(upstream, options.subjectToken, options.subjectTokenFile, "subjectToken");
  const idp: oauth.AuthorizationServer = { issuer: new URL(endpoint).origin, token_endpoint: endpoint };
  const client: oauth.Client = { client_id: options.idpClientId as string };
  const auth =
    options.idpClientSecret === undefined ? oauth.None() : oauth.ClientSecretPost(options.idpClientSecret);
  const params = new URLSearchParams({
    requested_token_type: ID_JAG,
    audience: discovery.as.issuer,
    resource: discovery.resource,
    subject_token: subject,
    subject_token_type: ID_TOKEN,
  });
  let body: {
    access_token?: unknown;
    issued_token_type?: unknown;
    error?: unknown;
    error_description?: unknown;
  };
  let status: number;
  try {
    const response = await oauth.genericTokenEndpointRequest(
      idp,
      client,
      auth,
      TOKEN_EXCHANGE,
      params,
      requestOptions(endpoint),
    );
    status = response.status;
    body = (await response.json()) as typeof body;
  } catch (err) {
    throw refused(upstream, "the token exchange at the identity provider failed", err);
  }
  // Its token_type is N_A (RFC 8693 §2.2.1), which oauth4webapi's token response checks refuse.
  if (status !== 200 || typeof body.access_token !== "string" || body.issued_token_type !== ID_JAG) {
    const error = typeof body.error === "string" ? `: ${body.error}` : "";
    throw new AuthorizationFailedError(
      upstream,
      `upstream ${upstream} cannot be authorized: the identity provider's token exchange answered HTTP ${status}${error} without an identity assertion grant`,
    );
  }
  return body.access_token;
}

/** A credential from the config, or read from its file at each use (a workload's token rotates). */
async function secretValue(
  upstream: string,
  value: string | undefined,
  file: string | undefined,
  key: string,
): Promise<string> {
  if (value !== undefined) return value;
  try {
    return (await readFile(file as string, "utf8")).trim();
  } catch (err) {
    throw new AuthorizationFailedError(
      upstream,
      `upstream ${upstream} cannot be authorized: auth.${key}File could not be read (${(err as NodeJS.ErrnoException).code})`,
    );
  }
}

function refused(
  upstream: string,
  what: string,
  err: unknown,
): AuthorizationFailedError | AuthorizationRequiredError {
  if (err instanceof AuthorizationFailedError || err instanceof AuthorizationRequiredError) return err;
  return new AuthorizationFailedError(
    upstream,
    `upstream ${upstream} cannot be authorized: ${what}: ${oauthReason(err)}`,
  );
}
