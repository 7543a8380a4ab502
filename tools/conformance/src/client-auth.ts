/**
 * The `auth` config a user would give mcpx for each auth/* scenario: `{ "type": "oauth" }` with what
 * the scenario hands over in MCP_CONFORMANCE_CONTEXT (a pre-registered client, client credentials,
 * a private key, a workload's JWT, an enterprise identity provider and the user's ID token there),
 * a client ID metadata document URL (used where the authorization server supports
 * them, as the official SDK's conformance client does) and the redirect URI the SDK's client uses.
 */
import type { AuthConfig } from "@mcpx/client";
import type { JSONObject } from "@mcpx/core";

/** The client_id the basic-cimd scenario expects (the official SDK's conformance client's). */
export const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
export const REDIRECT_URI = "http://localhost:3000/callback";

export function authFor(scenario: string, context: JSONObject): AuthConfig | undefined {
  if (!scenario.startsWith("auth/")) return undefined;
  const text = (key: string) => (typeof context[key] === "string" ? (context[key] as string) : undefined);
  const auth: AuthConfig = {
    type: "oauth",
    redirectUri: REDIRECT_URI,
    clientMetadataUrl: CLIENT_METADATA_URL,
  };
  const clientId = text("client_id");
  if (clientId !== undefined) auth.clientId = clientId;
  const secret = text("client_secret");
  if (secret !== undefined) auth.clientSecret = secret;
  const issuer = text("issuer");
  if (issuer !== undefined) auth.issuer = issuer;
  const key = text("private_key_pem");
  if (key !== undefined) {
    auth.privateKey = key;
    auth.tokenEndpointAuthMethod = "private_key_jwt";
    auth.signingAlgorithm = text("signing_algorithm") ?? "ES256";
  }
  if (scenario.startsWith("auth/client-credentials-")) auth.grant = "client_credentials";
  const workload = text("valid_jwt");
  if (workload !== undefined) {
    auth.grant = "jwt_bearer";
    auth.assertion = workload;
  }
  const idp = text("idp_token_endpoint");
  if (idp !== undefined) {
    auth.grant = "token_exchange";
    auth.idpTokenEndpoint = idp;
    auth.idpClientId = text("idp_client_id") ?? "";
    auth.subjectToken = text("idp_id_token") ?? "";
  }
  return auth;
}
