/**
 * From an upstream's 401 to its authorization server: the protected resource metadata (RFC 9728),
 * from the challenge's `resource_metadata`, else at the path-based then the root well-known URI
 * (2025-11-25 basic/authorization "Protected Resource Metadata Discovery Requirements"); then the
 * authorization server's metadata, RFC 8414 and OpenID discovery in the order each issuer shape
 * takes ("Authorization Server Metadata Discovery"), kept only when its issuer is exactly the one the
 * URL was built from (2026-07-28 authorization-server-discovery). A server with no resource metadata
 * is a 2025-03-26 server: its authorization server is its own origin, with RFC 8414 metadata or
 * the default /authorize, /token and /register (2025-03-26 basic/authorization §2.3).
 */
import { AuthorizationFailedError } from "@mcpx/core";
import type { AuthorizationServer } from "oauth4webapi";
import type { BearerChallenge } from "./challenge.js";
import { allowedUrl, fetchJson, parseUrl } from "./http.js";

export interface ResourceMetadata {
  resource: string;
  authorization_servers?: string[];
  scopes_supported?: string[];
  [key: string]: unknown;
}

export interface Discovery {
  /** The resource's metadata; undefined for a server that has none (2025-03-26). */
  prm: ResourceMetadata | undefined;
  /**
   * What tokens are asked for and stored under: the metadata's `resource`, exactly as published
   * (RFC 8707 `resource`); for a server without metadata, its URL, and no `resource` is sent.
   */
  resource: string;
  /** The authorization server's metadata, or the 2025-03-26 defaults. */
  as: AuthorizationServer;
  /** Whether `as` came from a metadata document (false: the 2025-03-26 default endpoints). */
  published: boolean;
}

export interface DiscoveryContext {
  upstream: string;
  /** The upstream's URL, as configured. */
  server: URL;
  /** The issuer a pre-registered client belongs to: chosen when the resource lists it. */
  preferredIssuer?: string;
}

export async function discover(
  ctx: DiscoveryContext,
  challenge: BearerChallenge | undefined,
): Promise<Discovery> {
  const prm = await resourceMetadata(ctx, challenge);
  if (!prm) return legacyDiscovery(ctx);
  const servers = (prm.authorization_servers ?? []).filter((s) => typeof s === "string");
  // RFC 9728 §7.6 leaves the choice to the client: the pre-registered client's server if listed.
  const issuer = servers.find((s) => s === ctx.preferredIssuer) ?? servers[0];
  if (issuer === undefined) {
    throw fail(ctx, "its protected resource metadata lists no authorization server (authorization_servers)");
  }
  const as = await serverMetadata(ctx, issuer);
  if (!as)
    throw fail(
      ctx,
      `its authorization server ${issuer} publishes no metadata (RFC 8414 or OpenID discovery)`,
    );
  return { prm, resource: prm.resource, as, published: true };
}

/** The well-known URI of `suffix` for `url`, inserted between its origin and its path (RFC 8615). */
function wellKnown(url: URL, suffix: string, path = true): URL {
  const p = url.pathname.replace(/\/+$/, "");
  return new URL(`${url.origin}/.well-known/${suffix}${path ? p : ""}`);
}

async function resourceMetadata(
  ctx: DiscoveryContext,
  challenge: BearerChallenge | undefined,
): Promise<ResourceMetadata | undefined> {
  const candidates: URL[] = [];
  const fromHeader = challenge?.resourceMetadata
    ? parseUrl(challenge.resourceMetadata, ctx.server)
    : undefined;
  if (fromHeader && (fromHeader.protocol === "https:" || fromHeader.protocol === "http:"))
    candidates.push(fromHeader);
  candidates.push(wellKnown(ctx.server, "oauth-protected-resource"));
  candidates.push(wellKnown(ctx.server, "oauth-protected-resource", false));
  const tried = new Set<string>();
  for (const url of candidates) {
    if (tried.has(url.href)) continue;
    tried.add(url.href);
    const doc = await fetchJson(url).catch(() => undefined);
    if (doc?.status !== 200 || typeof doc.json?.resource !== "string") continue;
    const prm = doc.json as ResourceMetadata;
    checkResource(ctx, prm.resource);
    return prm;
  }
  return undefined;
}

/** Whether `resource` names `server`: the same origin, and the server's path or one it sits under. */
export function resourceCovers(resource: string, server: URL): boolean {
  const url = parseUrl(resource);
  const path = (u: URL) => u.pathname.replace(/\/+$/, "");
  return (
    url !== undefined &&
    url.hash === "" &&
    url.origin === server.origin &&
    (path(url) === "" || path(server) === path(url) || path(server).startsWith(`${path(url)}/`))
  );
}

/**
 * The metadata's `resource` must name this server: same origin, and a path that is this server's
 * or one it sits under (RFC 9728 §3.3; 2025-11-25 "Canonical Server URI"). A server naming another
 * resource would have mcpx ask for tokens meant for someone else.
 */
function checkResource(ctx: DiscoveryContext, resource: string): void {
  const server = ctx.server;
  if (!resourceCovers(resource, server)) {
    throw fail(
      ctx,
      `its protected resource metadata names the resource ${JSON.stringify(resource.slice(0, 200))}, which is not ${server.origin}${server.pathname}; mcpx asks for no token for another resource`,
    );
  }
}

/**
 * The metadata of `issuer`, trying RFC 8414 and OpenID discovery in the order 2025-11-25 gives for an
 * issuer with and without a path. A document whose issuer is not exactly `issuer` is refused, not
 * skipped: it is a server answering for another.
 */
async function serverMetadata(
  ctx: DiscoveryContext,
  issuer: string,
): Promise<AuthorizationServer | undefined> {
  const url = parseUrl(issuer);
  if (url === undefined || url.search !== "" || url.hash !== "")
    throw fail(ctx, `its authorization server ${issuer} is not a valid issuer URL`);
  if (!allowedUrl(url)) throw insecure(ctx, issuer);
  const hasPath = url.pathname.replace(/\/+$/, "") !== "";
  const candidates = hasPath
    ? [
        wellKnown(url, "oauth-authorization-server"),
        wellKnown(url, "openid-configuration"),
        new URL(`${url.href.replace(/\/+$/, "")}/.well-known/openid-configuration`),
      ]
    : [wellKnown(url, "oauth-authorization-server", false), wellKnown(url, "openid-configuration", false)];
  for (const candidate of candidates) {
    const doc = await fetchJson(candidate).catch(() => undefined);
    if (doc?.status !== 200 || !doc.json) continue;
    if (doc.json.issuer !== issuer) {
      throw fail(
        ctx,
        `the metadata at ${candidate.href} names the issuer ${JSON.stringify(String(doc.json.issuer).slice(0, 200))}, not ${issuer} (RFC 8414 §3.3); mcpx does not use it`,
      );
    }
    return doc.json as unknown as AuthorizationServer;
  }
  return undefined;
}

/** A server without resource metadata: 2025-03-26, where the server's origin is the authorization server. */
async function legacyDiscovery(ctx: DiscoveryContext): Promise<Discovery> {
  const base = ctx.server.origin;
  if (!allowedUrl(ctx.server)) throw insecure(ctx, base);
  const resource = `${base}${ctx.server.pathname.replace(/\/+$/, "")}`;
  const doc = await fetchJson(wellKnown(ctx.server, "oauth-authorization-server", false)).catch(
    () => undefined,
  );
  if (doc?.status === 200 && doc.json) {
    // Here the well-known URL was built from the server's origin, not from an issuer (2025-03-26 has
    // no issuer to start from), so RFC 8414 §3.3's exact match has nothing to match: an issuer on the
    // server's own origin (say <origin>/oauth) is that origin's, and is taken; any other is refused.
    if (issuerOrigin(doc.json.issuer) !== base) {
      throw fail(
        ctx,
        `the metadata at ${base}/.well-known/oauth-authorization-server names the issuer ${JSON.stringify(String(doc.json.issuer).slice(0, 200))}, not one on ${base} (RFC 8414 §3.3); mcpx does not use it`,
      );
    }
    return { prm: undefined, resource, as: doc.json as unknown as AuthorizationServer, published: true };
  }
  return {
    prm: undefined,
    resource,
    as: {
      issuer: base,
      authorization_endpoint: `${base}/authorize`,
      token_endpoint: `${base}/token`,
      registration_endpoint: `${base}/register`,
      response_types_supported: ["code"],
      code_challenge_methods_supported: ["S256"],
    },
    published: false,
  };
}

/** The origin of a metadata document's `issuer`, when it is an https or loopback http URL. */
function issuerOrigin(issuer: unknown): string | undefined {
  if (typeof issuer !== "string") return undefined;
  const url = parseUrl(issuer);
  return url && allowedUrl(url) && url.search === "" && url.hash === "" ? url.origin : undefined;
}

function fail(ctx: DiscoveryContext, why: string): AuthorizationFailedError {
  return new AuthorizationFailedError(ctx.upstream, `upstream ${ctx.upstream} cannot be authorized: ${why}`);
}

function insecure(ctx: DiscoveryContext, url: string): AuthorizationFailedError {
  return fail(
    ctx,
    `its authorization server ${url} is not HTTPS (OAuth 2.1 §1.5; plain HTTP is allowed for loopback addresses only)`,
  );
}
