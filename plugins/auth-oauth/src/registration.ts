/**
 * Who mcpx is to an authorization server, in the order 2025-11-25 and 2026-07-28 give
 * (basic/authorization "Client Registration"): a client registered in advance (config), a client ID
 * metadata document where the server supports them, dynamic client registration (RFC 7591) where it
 * offers an endpoint. A registration belongs to the server that made it and is kept with the grant.
 * Then how the client authenticates at the token endpoint (client_secret_basic, client_secret_post,
 * private_key_jwt, none), through oauth4webapi.
 */
import { AuthorizationFailedError } from "@mcpx/core";
import * as oauth from "oauth4webapi";
import { requestOptions } from "./http.js";
import {
  applicationType,
  DEFAULT_CLIENT_NAME,
  type OAuthOptions,
  type TokenEndpointAuthMethod,
} from "./options.js";
import type { ClientRecord } from "./token-store.js";

export interface RegistrationContext {
  upstream: string;
  options: OAuthOptions;
  redirectUri: string;
  as: oauth.AuthorizationServer;
}

/** The client to use with `as`: the one registered before (same server, same redirect) or a new one. */
export async function clientFor(
  ctx: RegistrationContext,
  known: ClientRecord | undefined,
): Promise<ClientRecord> {
  const { options, as } = ctx;
  if (options.clientId !== undefined) return preRegistered(ctx);
  if (known && known.registration !== "pre-registered" && known.redirectUri === ctx.redirectUri) return known;
  if (options.clientMetadataUrl !== undefined && as.client_id_metadata_document_supported === true) {
    return {
      clientId: options.clientMetadataUrl,
      tokenEndpointAuthMethod: "none",
      registration: "metadata-document",
      redirectUri: ctx.redirectUri,
    };
  }
  if (typeof as.registration_endpoint === "string") return register(ctx);
  throw new AuthorizationFailedError(
    ctx.upstream,
    `upstream ${ctx.upstream} cannot be authorized: its authorization server ${as.issuer} offers no way for mcpx to register (no client ID metadata documents, no registration endpoint); configure a client registered with it in advance (auth.clientId)`,
  );
}

function preRegistered(ctx: RegistrationContext): ClientRecord {
  const { options, as, upstream } = ctx;
  // 2026-07-28 client-registration "Authorization Server Binding": surface an error rather than
  // present credentials to a server that did not issue them.
  if (options.issuer !== undefined && options.issuer !== as.issuer) {
    throw new AuthorizationFailedError(
      upstream,
      `upstream ${upstream} cannot be authorized: its authorization server is now ${as.issuer}, and the configured client (auth.clientId) is registered with ${options.issuer}; mcpx does not present it elsewhere`,
    );
  }
  const method =
    options.tokenEndpointAuthMethod ??
    chooseMethod(as, options.clientSecret !== undefined, options.privateKey !== undefined);
  const record: ClientRecord = {
    clientId: options.clientId as string,
    tokenEndpointAuthMethod: method,
    registration: "pre-registered",
    redirectUri: ctx.redirectUri,
  };
  if (options.clientSecret !== undefined) record.clientSecret = options.clientSecret;
  return record;
}

/**
 * The first method the server offers that the client can do (RFC 8414: client_secret_basic when
 * the server says nothing): a key signs, a secret goes in the header or the body, no secret is none.
 */
function chooseMethod(as: oauth.AuthorizationServer, secret: boolean, key: boolean): TokenEndpointAuthMethod {
  const offered = as.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
  const can: TokenEndpointAuthMethod[] = key
    ? ["private_key_jwt"]
    : secret
      ? ["client_secret_basic", "client_secret_post"]
      : ["none"];
  return can.find((m) => offered.includes(m)) ?? (can[0] as TokenEndpointAuthMethod);
}

async function register(ctx: RegistrationContext): Promise<ClientRecord> {
  const { as, upstream, redirectUri, options } = ctx;
  const offered = as.token_endpoint_auth_methods_supported;
  // A public client where the server takes one; else a secret, in the header if it can be.
  const asked = (["none", "client_secret_basic", "client_secret_post"] as const).find(
    (m) => offered === undefined || offered.includes(m),
  );
  const metadata: Record<string, unknown> = {
    client_name: options.clientName ?? DEFAULT_CLIENT_NAME,
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    // 2026-07-28 client-registration "Application Type and Redirect URI Constraints": MUST.
    application_type: applicationType(redirectUri),
    ...(asked === undefined || offered === undefined ? {} : { token_endpoint_auth_method: asked }),
  };
  let client: { client_id: string; client_secret?: unknown; token_endpoint_auth_method?: unknown };
  try {
    const response = await oauth.dynamicClientRegistrationRequest(
      as,
      metadata as Partial<oauth.Client>,
      requestOptions(as.registration_endpoint),
    );
    client = await registrationResponse(response);
  } catch (err) {
    throw new AuthorizationFailedError(
      upstream,
      `upstream ${upstream} cannot be authorized: dynamic client registration at ${as.issuer} failed: ${oauthReason(err)}`,
    );
  }
  const method =
    typeof client.token_endpoint_auth_method === "string"
      ? client.token_endpoint_auth_method
      : (asked ?? (client.client_secret ? "client_secret_basic" : "none"));
  const record: ClientRecord = {
    clientId: client.client_id,
    tokenEndpointAuthMethod: method,
    registration: "dynamic",
    redirectUri,
  };
  if (typeof client.client_secret === "string") record.clientSecret = client.client_secret;
  return record;
}

/**
 * The registration's answer (RFC 7591 §3.2.1): a 201 (200 from some servers) with a client_id.
 * Read here rather than by oauth4webapi, which refuses the many servers that issue a secret
 * without client_secret_expires_at; nothing else of the answer is used.
 */
async function registrationResponse(
  response: Response,
): Promise<{ client_id: string; client_secret?: unknown; token_endpoint_auth_method?: unknown }> {
  if (response.status !== 201 && response.status !== 200) {
    let reason = "";
    try {
      const body = (await response.json()) as { error?: unknown; error_description?: unknown };
      if (typeof body.error === "string") reason = `: ${body.error}`;
      if (typeof body.error_description === "string") reason += ` (${body.error_description.slice(0, 200)})`;
    } catch {
      // no JSON error: the status says it
    }
    throw new Error(`HTTP ${response.status}${reason}`);
  }
  const body = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (typeof body?.client_id !== "string" || body.client_id === "")
    throw new Error("the answer holds no client_id");
  return body as { client_id: string };
}

/** oauth4webapi's view of the client, and how it authenticates at the token endpoint. */
export async function clientAuth(
  record: ClientRecord,
  options: OAuthOptions,
  upstream: string,
): Promise<{ client: oauth.Client; auth: oauth.ClientAuth }> {
  const client: oauth.Client = { client_id: record.clientId };
  switch (record.tokenEndpointAuthMethod) {
    case "client_secret_basic":
      return { client, auth: secretBasic(requireSecret(record, upstream)) };
    case "client_secret_post":
      return { client, auth: oauth.ClientSecretPost(requireSecret(record, upstream)) };
    case "private_key_jwt": {
      if (options.privateKey === undefined) throw unusable(upstream, "private_key_jwt needs auth.privateKey");
      const alg = options.signingAlgorithm ?? "ES256";
      let key: Parameters<typeof oauth.PrivateKeyJwt>[0];
      // jose costs some 9 MiB once loaded, and only private_key_jwt needs it: loaded here, not at start.
      const { importPKCS8 } = await import("jose");
      try {
        key = (await importPKCS8(options.privateKey, alg)) as typeof key;
      } catch {
        throw unusable(upstream, `auth.privateKey is not a PKCS#8 PEM key for ${alg}`);
      }
      return { client, auth: oauth.PrivateKeyJwt(key) };
    }
    case "none":
      return { client, auth: oauth.None() };
    default:
      throw unusable(
        upstream,
        `the token endpoint auth method ${record.tokenEndpointAuthMethod} is not one mcpx can use`,
      );
  }
}

/**
 * client_secret_basic (RFC 6749 §2.3.1): id and secret percent-encoded, then Base64. Encoded as
 * encodeURIComponent does, not as oauth4webapi does: it also encodes `-`, `_`, `.`, `~`, which many
 * servers compare without decoding (the conformance suite's do), and which need no encoding.
 */
function secretBasic(secret: string): oauth.ClientAuth {
  return (_as, client, _body, headers) => {
    const credentials = `${encodeURIComponent(client.client_id)}:${encodeURIComponent(secret)}`;
    headers.set("authorization", `Basic ${Buffer.from(credentials).toString("base64")}`);
  };
}

function requireSecret(record: ClientRecord, upstream: string): string {
  if (record.clientSecret === undefined) {
    throw unusable(
      upstream,
      `${record.tokenEndpointAuthMethod} needs a client secret, and the client has none`,
    );
  }
  return record.clientSecret;
}

function unusable(upstream: string, why: string): AuthorizationFailedError {
  return new AuthorizationFailedError(upstream, `upstream ${upstream} cannot be authorized: ${why}`);
}

/**
 * What an oauth4webapi error says, without what it carries: its cause holds the response body or
 * the authorization response's parameters (a code among them), which never leave.
 */
export function oauthReason(err: unknown): string {
  if (err instanceof oauth.ResponseBodyError || err instanceof oauth.AuthorizationResponseError) {
    const status = err instanceof oauth.ResponseBodyError ? `HTTP ${err.status}, ` : "";
    const description = err.error_description ? `: ${String(err.error_description).slice(0, 200)}` : "";
    return `${status}${String(err.error).slice(0, 100)}${description}`;
  }
  if (err instanceof Error) {
    if (err.name === "TimeoutError" || err.name === "AbortError") return "no answer in time";
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    return cause ? `${err.message} (${cause})` : err.message;
  }
  return String(err);
}
