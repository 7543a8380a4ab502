/**
 * The WWW-Authenticate header of a 401 or 403 (RFC 9110 §11.6.1): one or more challenges, each a
 * scheme and its auth-params. What OAuth reads from the Bearer (or DPoP) one: `resource_metadata`
 * (RFC 9728 §5.1), `scope` and `error` (RFC 6750 §3). oauth4webapi parses challenges only inside
 * its own requests, so this is the few lines it takes, bounded like everything read from a server.
 */

export interface Challenge {
  /** The scheme, lower-cased ("bearer", "dpop"). */
  scheme: string;
  /** Its auth-params, names lower-cased, quoted values unescaped. */
  params: Record<string, string>;
}

/** What OAuth takes from an upstream's refusal. */
export interface BearerChallenge {
  resourceMetadata?: string;
  /** The scopes the challenge asks for, in order, each once. */
  scopes?: string[];
  error?: string;
  /** The resource offered the DPoP scheme (RFC 9449 §7.1): it takes, or wants, DPoP-bound tokens. */
  dpop?: boolean;
}

/** Longer than any challenge a server needs to send: the rest is not read. */
const MAX_HEADER = 8192;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;

export function parseChallenges(header: string | undefined): Challenge[] {
  if (header === undefined) return [];
  let rest = header.slice(0, MAX_HEADER);
  const out: Challenge[] = [];
  let current: Challenge | undefined;
  for (;;) {
    rest = rest.replace(/^[\s,]+/, "");
    if (rest === "") return out;
    const name = TOKEN.exec(rest)?.[0];
    if (name === undefined) return out;
    const after = rest.slice(name.length);
    const eq = /^\s*=\s*/.exec(after);
    if (eq && current) {
      // An auth-param of the current challenge: name = token / quoted-string.
      const value = readValue(after.slice(eq[0].length));
      if (value === undefined) return out;
      current.params[name.toLowerCase()] = value.value;
      rest = value.rest;
      continue;
    }
    current = { scheme: name.toLowerCase(), params: {} };
    out.push(current);
    rest = after;
    // A token68 after the scheme (Basic's credentials form) carries no auth-param: skip it.
    const token68 = /^\s+[A-Za-z0-9\-._~+/]+=*\s*(?=,|$)/.exec(rest);
    if (token68) rest = rest.slice(token68[0].length);
  }
}

function readValue(text: string): { value: string; rest: string } | undefined {
  if (!text.startsWith('"')) {
    const token = TOKEN.exec(text)?.[0];
    return token === undefined ? undefined : { value: token, rest: text.slice(token.length) };
  }
  let value = "";
  for (let i = 1; i < text.length; i++) {
    const c = text[i];
    if (c === "\\" && i + 1 < text.length) value += text[++i];
    else if (c === '"') return { value, rest: text.slice(i + 1) };
    else value += c;
  }
  return undefined;
}

/** The Bearer challenge (or DPoP's, RFC 9449 §7.1) of a refusal, if it has one. */
export function bearerChallenge(header: string | undefined): BearerChallenge | undefined {
  const challenges = parseChallenges(header);
  // The DPoP challenge first: its error (use_dpop_nonce, invalid_dpop_proof) is about the proof.
  const challenge =
    challenges.find((c) => c.scheme === "dpop" && c.params.error !== undefined) ??
    challenges.find((c) => c.scheme === "bearer" || c.scheme === "dpop");
  if (!challenge) return undefined;
  const { resource_metadata, scope, error } = challenge.params;
  const out: BearerChallenge = {};
  if (challenges.some((c) => c.scheme === "dpop")) out.dpop = true;
  if (resource_metadata) out.resourceMetadata = resource_metadata;
  const scopes = scopeList(scope);
  if (scopes.length > 0) out.scopes = scopes;
  if (error) out.error = error;
  return out;
}

/** A space-separated scope (RFC 6749 §3.3) as a list, each once. */
export function scopeList(scope: string | undefined): string[] {
  return [...new Set((scope ?? "").split(" ").filter((s) => s !== ""))];
}
