/**
 * What every request to mcpx's MCP endpoints passes first: the Origin check against DNS rebinding
 * (an Origin that is not loopback and not allowed → 403), the Host check (a Host name that is not
 * loopback and not allowed → 403, since a rebound page's same-origin GET carries no Origin), and
 * the bearer token when one is set (→ 401 with WWW-Authenticate: Bearer). It also names the
 * request's authorization context: a hash of the credentials it carried, or "anonymous".
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { ErrorCode } from "@mcpx/core";
import { HttpRefusal } from "./reply.js";

export interface SecurityOptions {
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  token?: string;
  /** Origins (e.g. "https://app.example.com", or a bare host name) allowed besides loopback ones. */
  allowedOrigins?: readonly string[];
  /** Host names allowed in the Host header besides loopback ones. */
  allowedHosts?: readonly string[];
  /** The server listens beyond loopback: the Host header is then checked only against allowedHosts, if given. */
  allowNonLoopback?: boolean;
}

/** Memo of values seen (Host, Origin, Authorization): a request repeats its predecessor's. */
const MEMO_MAX = 256;

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (h === "localhost" || h.endsWith(".localhost") || h === "::1") return true;
  if (h.startsWith("::ffff:")) return isLoopbackHost(h.slice(7));
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

export class Gatekeeper {
  readonly #token: Buffer | undefined;
  readonly #origins: Set<string>;
  readonly #hosts: Set<string> | undefined;
  readonly #originOk = new Map<string, boolean>();
  readonly #hostOk = new Map<string, boolean>();
  readonly #contexts = new Map<string, string>();

  constructor(opts: SecurityOptions) {
    this.#token = opts.token ? digest(opts.token) : undefined;
    this.#origins = new Set((opts.allowedOrigins ?? []).map((o) => o.toLowerCase().replace(/\/+$/, "")));
    const hosts = (opts.allowedHosts ?? []).map((h) => h.toLowerCase());
    for (const o of this.#origins) {
      const host = hostOf(o.includes("://") ? o : `http://${o}`);
      if (host) hosts.push(host);
    }
    // Listening beyond loopback without a list of host names: any Host is taken.
    this.#hosts = opts.allowNonLoopback && !opts.allowedHosts ? undefined : new Set(hosts);
  }

  /**
   * check(), for what answers this machine only (the control API, the console), whatever the MCP
   * endpoint allows: a caller beyond loopback is refused first, naming `what` refused it.
   */
  checkLocal(req: IncomingMessage, what: string): string {
    if (!isLoopbackHost(req.socket.remoteAddress ?? "")) {
      throw new HttpRefusal(
        403,
        ErrorCode.InvalidRequest,
        `Forbidden: ${what} answers loopback callers only`,
      );
    }
    return this.check(req);
  }

  /** Checks the request; returns its authorization context, or throws the refusal. */
  check(req: IncomingMessage): string {
    const origin = req.headers.origin;
    if (origin !== undefined && !this.#memo(this.#originOk, origin, () => this.#originAllowed(origin))) {
      throw new HttpRefusal(
        403,
        ErrorCode.InvalidRequest,
        `Forbidden: Origin ${origin} is not allowed (only loopback origins and the configured allowedOrigins are)`,
        { data: { origin } },
      );
    }
    const host = req.headers.host;
    if (this.#hosts && host !== undefined && !this.#memo(this.#hostOk, host, () => this.#hostAllowed(host))) {
      throw new HttpRefusal(
        403,
        ErrorCode.InvalidRequest,
        `Forbidden: Host ${host} is not allowed (only loopback host names and the configured allowedHosts are)`,
        { data: { host } },
      );
    }
    const authorization = req.headers.authorization;
    if (this.#token) this.#checkToken(authorization);
    if (authorization === undefined) return "anonymous";
    let context = this.#contexts.get(authorization);
    if (context === undefined) {
      context = authContextOf(authorization);
      if (this.#contexts.size >= MEMO_MAX) this.#contexts.clear();
      this.#contexts.set(authorization, context);
    }
    return context;
  }

  #checkToken(authorization: string | undefined): void {
    const match = authorization === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
    const presented = match?.[1];
    if (presented !== undefined && timingSafeEqual(digest(presented), this.#token as Buffer)) return;
    const challenge =
      presented === undefined
        ? 'Bearer realm="mcpx"'
        : 'Bearer realm="mcpx", error="invalid_token", error_description="the token is not valid"';
    throw new HttpRefusal(
      401,
      ErrorCode.InvalidRequest,
      presented === undefined
        ? "Unauthorized: this mcpx endpoint requires Authorization: Bearer <token>"
        : "Unauthorized: the bearer token is not valid",
      { headers: { "www-authenticate": challenge } },
    );
  }

  #originAllowed(origin: string): boolean {
    const normalized = origin.toLowerCase().replace(/\/+$/, "");
    if (this.#origins.has(normalized)) return true;
    const host = hostOf(normalized);
    if (host === undefined) return false; // "null", or not a URL
    return isLoopbackHost(host) || this.#origins.has(host);
  }

  #hostAllowed(host: string): boolean {
    const name = hostOf(`http://${host}`);
    if (name === undefined) return false;
    return isLoopbackHost(name) || (this.#hosts?.has(name) ?? true);
  }

  #memo(memo: Map<string, boolean>, key: string, compute: () => boolean): boolean {
    let ok = memo.get(key);
    if (ok === undefined) {
      ok = compute();
      if (memo.size >= MEMO_MAX) memo.clear();
      memo.set(key, ok);
    }
    return ok;
  }
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** A stable name for the credentials a request carried, never the credentials themselves. */
export function authContextOf(authorization: string): string {
  const bearer = /^Bearer[ \t]+(\S+)/i.exec(authorization)?.[1];
  const hash = digest(bearer ?? authorization)
    .toString("hex")
    .slice(0, 32);
  return bearer ? `bearer:${hash}` : `authorization:${hash}`;
}
