/**
 * A protected resource (the MCP server's side of OAuth) on 127.0.0.1: its protected resource
 * metadata where the test puts it, and POST /mcp, which takes a JWT access token of the test
 * authorization server (signature by its JWKS, audience the resource) and the scope the request
 * asks for (`X-Need-Scope`), answering 401 or 403 with a WWW-Authenticate challenge as MCP servers
 * do. It records every request it gets.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createRemoteJWKSet, jwtVerify } from "jose";

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
}

export interface Seen {
  method: string;
  path: string;
  authorization: string | undefined;
  status: number;
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
  ) => {
    seen.push({
      method: req.method ?? "",
      path: req.url ?? "",
      authorization: req.headers.authorization,
      status,
    });
    res.writeHead(status, { "Content-Type": "application/json", ...headers }).end(body);
  };

  const challenge = (extra: Record<string, string | undefined>) => {
    const params: string[] = [];
    if (options.inChallenge !== false && options.prm !== "none")
      params.push(`resource_metadata="${origin}${prmPath}"`);
    for (const [k, v] of Object.entries(extra)) if (v !== undefined) params.push(`${k}="${v}"`);
    return `Bearer ${params.join(", ")}`;
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
    if (!header?.startsWith("Bearer ")) {
      answer(req, res, 401, { "WWW-Authenticate": challenge({ scope: options.challengeScope }) }, echo);
      return;
    }
    let scopes: string[];
    try {
      const { payload } = await jwtVerify(header.slice(7), jwks, {
        issuer: options.issuer,
        audience: resource(),
      });
      scopes = String(payload.scope ?? "").split(" ");
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
    answer(req, res, 200, {}, JSON.stringify({ ok: true, scope: scopes.join(" ") }));
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
