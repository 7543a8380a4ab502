/**
 * DPoP (RFC 9449, the MCP extension SEP-1932): tokens bound to a key of the client's, each request
 * carrying a fresh proof signed with it. The proofs are oauth4webapi's (its DPoP handle signs them
 * and keeps the nonces its authorization server requests hand out); what is mcpx's own is the key's
 * life (one ES256 key per authorization server, kept as a JWK with the tokens, so a refreshed token
 * stays bound to the key it was issued for) and the resource server's nonces, which arrive through
 * the transports rather than through oauth4webapi's requests.
 */
// jose is imported where a key is made or read, not at start: a config without DPoP never loads it.
import type { JWK } from "jose";
import * as oauth from "oauth4webapi";
import type { BearerChallenge } from "./challenge.js";
import type { Discovery } from "./discovery.js";
import type { OAuthOptions } from "./options.js";

/** The only algorithm mcpx signs proofs with: every DPoP server is asked to support it. */
export const DPOP_ALGORITHM = "ES256";

/**
 * Whether to ask for DPoP-bound tokens: the config's `dpop` when set; else when the authorization
 * server advertises ES256 proofs (dpop_signing_alg_values_supported), or the resource asks for DPoP
 * (a DPoP challenge, RFC 9449 §7.1; dpop_bound_access_tokens_required, RFC 9449 §5.2).
 */
export function wantsDPoP(
  options: OAuthOptions,
  discovery: Discovery,
  challenge: BearerChallenge | undefined,
): boolean {
  if (options.dpop !== undefined) return options.dpop;
  const algs = discovery.as.dpop_signing_alg_values_supported;
  if (Array.isArray(algs) && algs.includes(DPOP_ALGORITHM)) return true;
  return challenge?.dpop === true || discovery.prm?.dpop_bound_access_tokens_required === true;
}

/** A DPoP key: its oauth4webapi handle, and the resource servers' nonces for the proofs it signs. */
export class DPoPKey {
  /** The key pair as a private JWK, for the token store (never logged). */
  readonly jwk: JWK;
  readonly handle: oauth.DPoPHandle;
  /** The resource servers' nonces, by origin (the authorization servers' are the handle's). */
  readonly #nonces = new Map<string, string>();

  private constructor(jwk: JWK, keyPair: oauth.CryptoKeyPair) {
    this.jwk = jwk;
    this.handle = oauth.DPoP({}, keyPair, {
      // A proof with `ath` is a resource request's (RFC 9449 §7): its nonce is the resource server's.
      [oauth.modifyAssertion]: (_header, payload) => {
        if (payload.ath === undefined || typeof payload.htu !== "string") return;
        const nonce = this.#nonces.get(new URL(payload.htu).origin);
        if (nonce !== undefined) payload.nonce = nonce;
      },
    });
  }

  static async generate(): Promise<DPoPKey> {
    const { exportJWK, generateKeyPair } = await import("jose");
    const pair = await generateKeyPair(DPOP_ALGORITHM, { extractable: true });
    const jwk = await exportJWK(pair.privateKey);
    return new DPoPKey({ ...jwk, alg: DPOP_ALGORITHM }, pair as oauth.CryptoKeyPair);
  }

  /** The key a stored grant was bound to; undefined when what is stored is not one. */
  static async from(jwk: JWK | undefined): Promise<DPoPKey | undefined> {
    if (jwk?.kty !== "EC" || jwk.crv !== "P-256" || typeof jwk.d !== "string") return undefined;
    const { importJWK } = await import("jose");
    try {
      const privateKey = (await importJWK(jwk, DPOP_ALGORITHM)) as oauth.CryptoKey;
      const { d: _private, ...pub } = jwk;
      const publicKey = (await importJWK({ ...pub, ext: true }, DPOP_ALGORITHM, {
        extractable: true,
      })) as oauth.CryptoKey;
      return new DPoPKey(jwk, { privateKey, publicKey });
    } catch {
      return undefined;
    }
  }

  /**
   * The headers of a resource request with a DPoP-bound token: `Authorization: DPoP <token>` and a
   * fresh proof for this method and URL, with `ath` (RFC 9449 §7.1). oauth4webapi signs resource
   * proofs inside protectedResourceRequest only, and the transport is what sends the request: the
   * fetch given to it keeps the headers and answers nothing.
   */
  async resourceHeaders(method: string, url: URL, accessToken: string): Promise<Record<string, string>> {
    let out: Record<string, string> | undefined;
    await oauth.protectedResourceRequest(accessToken, method, url, undefined, null, {
      DPoP: this.handle,
      [oauth.allowInsecureRequests]: true,
      [oauth.customFetch]: async (_url, init) => {
        const headers = new Headers(init.headers);
        out = { Authorization: headers.get("authorization") ?? "", DPoP: headers.get("dpop") ?? "" };
        return new Response(null, { status: 204 });
      },
    });
    return out as Record<string, string>;
  }

  /** A resource server's nonce (RFC 9449 §9), for the proofs that follow to its origin. */
  rememberNonce(url: string, nonce: string): void {
    this.#nonces.set(new URL(url).origin, nonce);
  }

  nonceOf(url: string): string | undefined {
    return this.#nonces.get(new URL(url).origin);
  }
}

/** The nonce a DPoP proof carried, if it had one. */
export async function proofNonce(proof: string | undefined): Promise<string | undefined> {
  if (proof === undefined) return undefined;
  const { decodeJwt } = await import("jose");
  try {
    const { nonce } = decodeJwt(proof);
    return typeof nonce === "string" ? nonce : undefined;
  } catch {
    return undefined;
  }
}
