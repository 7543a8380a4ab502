/** Reading an upstream's WWW-Authenticate (RFC 9110 §11.6.1, RFC 6750 §3, RFC 9728 §5.1). */
import { describe, expect, it } from "vitest";
import { bearerChallenge, parseChallenges } from "../src/index.js";

describe("WWW-Authenticate", () => {
  it("oauth/challenge-bearer-parameters", () => {
    expect(
      bearerChallenge(
        'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="files:read files:write"',
      ),
    ).toEqual({
      resourceMetadata: "https://mcp.example.com/.well-known/oauth-protected-resource",
      scopes: ["files:read", "files:write"],
    });
    expect(
      bearerChallenge('Bearer error="insufficient_scope", scope="a b a", error_description="x \\"y\\""'),
    ).toEqual({
      error: "insufficient_scope",
      scopes: ["a", "b"],
    });
    // Unquoted values, names in any case, the Bearer challenge among others.
    expect(bearerChallenge('Basic realm="r", BEARER Error=invalid_token, Scope=read')).toEqual({
      error: "invalid_token",
      scopes: ["read"],
    });
    expect(bearerChallenge('DPoP algs="ES256", scope="x"')).toEqual({ scopes: ["x"], dpop: true });
    // Both offered, the DPoP one with an error about the proof: that error is the one read.
    expect(
      bearerChallenge('Bearer scope="x", DPoP error="use_dpop_nonce", error_description="nonce"'),
    ).toEqual({ error: "use_dpop_nonce", dpop: true });
    expect(bearerChallenge('Basic realm="r"')).toBeUndefined();
    expect(bearerChallenge(undefined)).toBeUndefined();
  });

  it("oauth/challenge-several-and-broken", () => {
    expect(
      parseChallenges('Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple"'),
    ).toEqual([
      { scheme: "newauth", params: { realm: "apps", type: "1", title: 'Login to "apps"' } },
      { scheme: "basic", params: { realm: "simple" } },
    ]);
    // An unterminated quote ends the reading: what came before stands.
    expect(parseChallenges('Bearer scope="a", error="unterminated')).toEqual([
      { scheme: "bearer", params: { scope: "a" } },
    ]);
    // A token68 (Basic's credentials form) carries no parameter.
    expect(parseChallenges("Negotiate abc123==, Bearer")).toEqual([
      { scheme: "negotiate", params: {} },
      { scheme: "bearer", params: {} },
    ]);
  });
});
