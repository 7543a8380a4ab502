/**
 * A protected resource (the MCP server's side of OAuth) on 127.0.0.1: its protected resource
 * metadata where the test puts it, and POST /mcp, which takes a JWT access token of the test
 * authorization server (signature by its JWKS, audience the resource) and the scope the request
 * asks for (`X-Need-Scope`), answering 401 or 403 with a WWW-Authenticate challenge as MCP servers
 * do. It records every request it gets.
 */

import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { calculateJwkThumbprint, createRemoteJWKSet, EmbeddedJWK, type JWTPayload, jwtVerify } from "jose";

export interface ResourceServerOptions {
  issuer: string;
  /** Where the metadata is served: path-based (the default), at the root, or nowhere. */
  prm?: "path" | "root" | "none";
  /** Put resource_metadata in the 401's challenge (default true). */
  inChallenge?: boolean;
  /** The scope the 401's challenge asks for (none by default). */
  challengeScope?: string;
  /** The metadata's scopes_supported (default mcp:read: oidc-provider grants nothing for a resource without a scope). */
  scopesSupported?: string[];
  /** The metadata's `resource`, when it must lie. */
  resourceOverride?: string;
  /**
   * DPoP (RFC 9449 §7): a DPoP-bound token needs the DPoP scheme and a proof of its key (htm, htu,
   * ath, a jti never seen before), and the 401's challenge is DPoP's. `nonce`: "refusal" refuses
   * every proof without the server's current nonce (use_dpop_nonce, §9), a new nonce each time;
   * "success" gives a nonce on each 200 and refuses a proof without the last one given.
   */
  dpop?: { nonce?: "refusal" | "success" };
}

export interface Seen {
  method: string;
  path: string;
  authorization: string | undefined;
  /** The DPoP proof the request carried. */
  dpop: string | undefined;
  status: number;
  /** Why a DPoP request was refused (the proof's fault), if it was. */
  dpopError?: string;
}

export interface TestResourceServer {
  url: string;
  origin: string;
  seen: Seen[];
  /** The bodies of 4xx answers, which echo the Authorization header (what a careless server does). */
  close(): Promise<void>;
}

export async function startResourceServer(options: ResourceServerOptions): Promise<TestResourceServer> {
  const seen: Seen[] = [];
  const jwks = createRemoteJWKSet(new URL(`${options.issuer}/jwks`));
  let origin = "";
  const prmPath =
    options.prm === "root"
      ? "/.well-known/oauth-protected-resource"
      : "/.well-known/oauth-protected-resource/mcp";
  const resource = () => options.resourceOverride ?? (options.prm === "root" ? origin : `${origin}/mcp`);

  const answer = (
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    headers: Record<string, string>,
    body: string,
    dpopError?: string,
  ) => {
    seen.push({
      method: req.method ?? "",
      path: req.url ?? "",
      authorization: req.headers.authorization,
      dpop: req.headers.dpop as string | undefined,
      status,
      ...(dpopError === undefined ? {} : { dpopError }),
    });
    res.writeHead(status, { "Content-Type": "application/json", ...headers }).end(body);
  };

  const challenge = (extra: Record<string, string | undefined>) => {
    const params: string[] = [];
    if (options.inChallenge !== false && options.prm !== "none")
      params.push(`resource_metadata="${origin}${prmPath}"`);
    for (const [k, v] of Object.entries(extra)) if (v !== undefined) params.push(`${k}="${v}"`);
    return `${options.dpop ? 'DPoP algs="ES256",' : "Bearer"} ${params.join(", ")}`;
  };
  const jtis = new Set<string>();
  let nonces = 0;
  let nonce: string | undefined;
  /** What is wrong with the proof of a request with `token`, or undefined when it is good. */
  const checkProof = async (req: IncomingMessage, token: string, claims: JWTPayload) => {
    const proof = req.headers.dpop;
    if (typeof proof !== "string") return "no DPoP proof";
    try {
      const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, { typ: "dpop+jwt" });
      if (payload.htm !== req.method) return "htm";
      if (payload.htu !== `${origin}${req.url}`) return "htu";
      const ath = createHash("sha256").update(token).digest("base64url");
      if (payload.ath !== ath) return "ath";
      const jkt = (claims.cnf as { jkt?: string } | undefined)?.jkt;
      if (jkt !== (await calculateJwkThumbprint(protectedHeader.jwk as never))) return "cnf.jkt";
      if (jtis.has(String(payload.jti))) return "jti replayed";
      jtis.add(String(payload.jti));
      if (options.dpop?.nonce && nonce !== undefined && payload.nonce !== nonce) return "use_dpop_nonce";
      if (options.dpop?.nonce === "refusal" && nonce === undefined) return "use_dpop_nonce";
      return undefined;
    } catch (err) {
      return `invalid proof: ${(err as Error).message}`;
    }
  };

  const server = createServer(async (req, res) => {
    if (req.method === "GET" && req.url === prmPath && options.prm !== "none") {
      const doc: Record<string, unknown> = { resource: resource(), authorization_servers: [options.issuer] };
      doc.scopes_supported = options.scopesSupported ?? ["mcp:read"];
      answer(req, res, 200, {}, JSON.stringify(doc));
      return;
    }
    if (req.method !== "POST" || req.url !== "/mcp") {
      answer(req, res, 404, {}, "{}");
      return;
    }
    req.resume();
    await new Promise((r) => req.on("end", r));
    const header = req.headers.authorization;
    const need = req.headers["x-need-scope"] as string | undefined;
    const echo = JSON.stringify({ error: "invalid_token", received: header ?? null });
    if (!header?.startsWith("Bearer ") && !(options.dpop && header?.startsWith("DPoP "))) {
      answer(req, res, 401, { "WWW-Authenticate": challenge({ scope: options.challengeScope }) }, echo);
      return;
    }
    let scopes: string[];
    const token = header.slice(header.indexOf(" ") + 1);
    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(token, jwks, { issuer: options.issuer, audience: resource() }));
      scopes = String(claims.scope ?? "").split(" ");
      // A DPoP-bound token is no bearer token (RFC 9449 §7.2).
      if (header.startsWith("Bearer ") && claims.cnf !== undefined) throw new Error("bound");
    } catch {
      answer(
        req,
        res,
        401,
        { "WWW-Authenticate": challenge({ error: "invalid_token", scope: options.challengeScope }) },
        echo,
      );
      return;
    }
    if (header.startsWith("DPoP ")) {
      const wrong = await checkProof(req, token, claims);
      if (wrong === "use_dpop_nonce") {
        nonce = `nonce-${++nonces}`;
        answer(
          req,
          res,
          401,
          { "WWW-Authenticate": 'DPoP error="use_dpop_nonce"', "DPoP-Nonce": nonce },
          echo,
          wrong,
        );
        return;
      }
      if (wrong !== undefined) {
        answer(
          req,
          res,
          401,
          { "WWW-Authenticate": challenge({ error: "invalid_dpop_proof" }) },
          echo,
          wrong,
        );
        return;
      }
    }
    const missing = (need ?? "").split(" ").filter((s) => s !== "" && !scopes.includes(s));
    if (missing.length > 0) {
      answer(
        req,
        res,
        403,
        { "WWW-Authenticate": challenge({ error: "insufficient_scope", scope: need }) },
        echo,
      );
      return;
    }
    const given: Record<string, string> = {};
    if (options.dpop?.nonce === "success") {
      nonce = `nonce-${++nonces}`;
      given["DPoP-Nonce"] = nonce;
    }
    answer(req, res, 200, given, JSON.stringify({ ok: true, scope: scopes.join(" ") }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/mcp`,
    origin,
    seen,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
