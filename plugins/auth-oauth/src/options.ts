/**
 * The `auth` object of a server with `"type": "oauth"`: everything is optional, since discovery
 * finds the authorization server and registration finds a client. What a config may add: a client
 * registered in advance, a client ID metadata document, the grant for a machine-to-machine upstream.
 */
import { type AuthTarget, ConfigError, formatKeyPath, type JSONObject } from "@mcpx/core";
import { allowedUrl, isLoopback, parseUrl } from "./http.js";

export type TokenEndpointAuthMethod =
  | "client_secret_basic"
  | "client_secret_post"
  | "none"
  | "private_key_jwt";

export interface OAuthOptions {
  /**
   * "authorization_code" (a user logs in; the default); with no user: "client_credentials",
   * "jwt_bearer" (a workload's JWT as the grant) or "token_exchange" (enterprise-managed).
   */
  grant?: "authorization_code" | "client_credentials" | "jwt_bearer" | "token_exchange";
  /** A client registered in advance with the authorization server. */
  clientId?: string;
  clientSecret?: string;
  /** The issuer the pre-registered client belongs to: another authorization server is refused. */
  issuer?: string;
  /** How the client authenticates at the token endpoint; by default the first the server offers that the client can do. */
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  /** private_key_jwt: the client's private key, PKCS#8 PEM. */
  privateKey?: string;
  /** private_key_jwt: its JWS algorithm (default ES256). */
  signingAlgorithm?: string;
  /** An HTTPS URL serving this client's metadata document, used as its client_id where supported. */
  clientMetadataUrl?: string;
  /** The client_name sent with dynamic registration (default "mcpx"). */
  clientName?: string;
  /** Where the authorization server sends the browser back (a loopback HTTP URL or HTTPS). */
  redirectUri?: string;
  /** Scopes to ask for, overriding what the server suggests (space-separated). */
  scope?: string;
  /** Ask for offline_access (a refresh token) where the authorization server offers it (default true). */
  offlineAccess?: boolean;
  /**
   * DPoP-bound tokens (RFC 9449): true always, false never; unset, when the authorization server
   * advertises DPoP (dpop_signing_alg_values_supported) or the resource asks for it.
   */
  dpop?: boolean;
  /** jwt_bearer: the assertion (a workload identity JWT), or the file it is read from at each use. */
  assertion?: string;
  assertionFile?: string;
  /** token_exchange: the enterprise identity provider's token endpoint, and mcpx's client there. */
  idpTokenEndpoint?: string;
  idpClientId?: string;
  idpClientSecret?: string;
  /** token_exchange: the user's ID token from the identity provider, or the file it is read from. */
  subjectToken?: string;
  subjectTokenFile?: string;
}

/** The grants that need no user: no authorizer, no redirect. */
export const MACHINE_GRANTS: readonly string[] = ["client_credentials", "jwt_bearer", "token_exchange"];

/**
 * The loopback redirect `mcpx auth login` listens on: a native client's redirect (RFC 8252 §7.3),
 * fixed so that a registration made once keeps working.
 */
export const DEFAULT_REDIRECT_URI = "http://127.0.0.1:33418/callback";
export const DEFAULT_CLIENT_NAME = "mcpx";

const text = (description: string) => ({ type: "string", minLength: 1, description });

export const optionsSchema: JSONObject = {
  type: "object",
  properties: {
    grant: { enum: ["authorization_code", "client_credentials", "jwt_bearer", "token_exchange"] },
    clientId: text("A client registered in advance with the authorization server"),
    clientSecret: text("The pre-registered client's secret"),
    issuer: text("The issuer of the authorization server the pre-registered client belongs to"),
    tokenEndpointAuthMethod: {
      enum: ["client_secret_basic", "client_secret_post", "none", "private_key_jwt"],
    },
    privateKey: text("private_key_jwt: the client's private key (PKCS#8 PEM)"),
    signingAlgorithm: {
      enum: ["ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "EdDSA"],
    },
    clientMetadataUrl: text("An HTTPS URL serving this client's metadata document (its client_id)"),
    clientName: text("The client_name sent with dynamic client registration"),
    redirectUri: text("Where the authorization server sends the browser back"),
    scope: text("Scopes to ask for, space-separated"),
    offlineAccess: { type: "boolean" },
    dpop: {
      type: "boolean",
      description:
        "DPoP-bound tokens (RFC 9449): true always, false never; unset, when the authorization server or the resource asks for them",
    },
    assertion: text("jwt_bearer: the assertion JWT"),
    assertionFile: text("jwt_bearer: the file the assertion JWT is read from at each use"),
    idpTokenEndpoint: text("token_exchange: the identity provider's token endpoint"),
    idpClientId: text("token_exchange: mcpx's client at the identity provider"),
    idpClientSecret: text("token_exchange: its secret"),
    subjectToken: text("token_exchange: the user's ID token"),
    subjectTokenFile: text("token_exchange: the file the user's ID token is read from at each use"),
  },
  additionalProperties: false,
};

/** What the schema cannot say: which keys go together, and what a URL must be. */
export function checkOptions(options: JSONObject, target: AuthTarget): OAuthOptions {
  const o = options as OAuthOptions;
  const at = (...keys: string[]) => formatKeyPath(["servers", target.name, "auth", ...keys]);
  if (target.url === undefined) {
    throw new ConfigError(
      `${at()}: type "oauth" authorizes HTTP requests, and ${target.name} is a command server (give a child its credentials with type "env")`,
    );
  }
  for (const key of ["clientSecret", "privateKey", "issuer", "tokenEndpointAuthMethod"] as const) {
    if (o[key] !== undefined && o.clientId === undefined) {
      throw new ConfigError(`${at(key)}: goes with a pre-registered client; clientId is missing`);
    }
  }
  if (
    o.grant === "client_credentials" &&
    (o.clientId === undefined || (o.clientSecret ?? o.privateKey) === undefined)
  ) {
    throw new ConfigError(
      `${at("grant")}: "client_credentials" needs a pre-registered client: clientId with clientSecret or privateKey`,
    );
  }
  if (o.grant === "jwt_bearer") {
    if (o.clientId === undefined) throw new ConfigError(`${at("grant")}: "jwt_bearer" needs clientId`);
    if ((o.assertion === undefined) === (o.assertionFile === undefined)) {
      throw new ConfigError(`${at("grant")}: "jwt_bearer" needs exactly one of assertion and assertionFile`);
    }
  }
  if (o.grant === "token_exchange") {
    const missing = (["clientId", "idpTokenEndpoint", "idpClientId"] as const).filter(
      (k) => o[k] === undefined,
    );
    if (missing.length > 0)
      throw new ConfigError(`${at("grant")}: "token_exchange" needs ${missing.join(", ")}`);
    if ((o.subjectToken === undefined) === (o.subjectTokenFile === undefined)) {
      throw new ConfigError(
        `${at("grant")}: "token_exchange" needs exactly one of subjectToken and subjectTokenFile`,
      );
    }
    const idp = parseUrl(o.idpTokenEndpoint as string);
    if (!idp || !allowedUrl(idp)) {
      throw new ConfigError(
        `${at("idpTokenEndpoint")}: must be an https URL or an http URL on a loopback address`,
      );
    }
  }
  const method = o.tokenEndpointAuthMethod;
  if ((method === "client_secret_basic" || method === "client_secret_post") && o.clientSecret === undefined) {
    throw new ConfigError(`${at("tokenEndpointAuthMethod")}: ${method} needs clientSecret`);
  }
  if (method === "private_key_jwt" && o.privateKey === undefined) {
    throw new ConfigError(`${at("tokenEndpointAuthMethod")}: private_key_jwt needs privateKey`);
  }
  if (o.clientMetadataUrl !== undefined) {
    const url = parseUrl(o.clientMetadataUrl);
    // draft-ietf-oauth-client-id-metadata-document-00 §3: an https URL with a path.
    if (url?.protocol !== "https:" || url.pathname === "/" || url.hash !== "") {
      throw new ConfigError(`${at("clientMetadataUrl")}: must be an https URL with a path and no fragment`);
    }
  }
  if (o.redirectUri !== undefined) {
    const url = parseUrl(o.redirectUri);
    // 2025-11-25 basic/authorization "Communication Security": localhost or HTTPS.
    if (!url || !allowedUrl(url) || url.hash !== "") {
      throw new ConfigError(
        `${at("redirectUri")}: must be an https URL or an http URL on a loopback address`,
      );
    }
  }
  if (o.issuer !== undefined && !parseUrl(o.issuer)) {
    throw new ConfigError(`${at("issuer")}: must be an absolute URL`);
  }
  return o;
}

/** The application_type of dynamic registration (2026-07-28): native for a loopback redirect. */
export function applicationType(redirectUri: string): "native" | "web" {
  const url = parseUrl(redirectUri);
  return url && isLoopback(url) ? "native" : "web";
}
