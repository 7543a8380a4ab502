/**
 * What the transport knows of the session: the Mcp-Session-Id a legacy server minted, and what the
 * handshake settled. The id is carried by every legacy request once the server has given one (it was
 * given because the server requires it) and by no modern frame: 2026-07-28 has no sessions, and an id
 * minted for an earlier legacy exchange means nothing to a modern request.
 */
import type { Era, NegotiatedSession } from "@mcpx/core";
import { type HttpAnswer, header } from "@mcpx/http";

export const SESSION_HEADER = "Mcp-Session-Id";
export const VERSION_HEADER = "MCP-Protocol-Version";

/** The spec's session id alphabet: visible ASCII. Anything else is not sent back. */
const SESSION_ID = /^[\x21-\x7e]+$/;

export class Session {
  #id: string | undefined;
  #negotiated: NegotiatedSession | undefined;

  get id(): string | undefined {
    return this.#id;
  }

  get negotiated(): NegotiatedSession | undefined {
    return this.#negotiated;
  }

  get modern(): boolean {
    return this.#negotiated?.era === "modern";
  }

  settle(session: NegotiatedSession): void {
    this.#negotiated = session;
    if (session.era === "modern") this.#id = undefined;
  }

  /** Takes the id from a response when none is held (the initialize answer, or the one after a 404). */
  adopt(res: HttpAnswer): void {
    if (this.#id !== undefined || this.modern) return;
    const id = header(res.headers, SESSION_HEADER);
    if (id !== undefined && SESSION_ID.test(id)) this.#id = id;
  }

  /**
   * The server forgot the session `id` (the one a request carried); the next initialize starts a new
   * one without an id. A late 404 for an id already replaced leaves the new one alone.
   */
  expire(id: string | undefined = this.#id): void {
    if (id === this.#id) this.#id = undefined;
  }

  /**
   * The session header for a frame of `era`, as its sender said (SendOptions.era). A modern frame
   * never gets the id: a probe before any handshake settled, or a server/discover sent to move a
   * legacy connection to the modern era (the legacy negotiation is still the one in force while it
   * is in flight). Unsaid, the frame is taken to be of the negotiated era.
   */
  headerFor(era: Era | undefined): Record<string, string> {
    if (this.#id === undefined || this.modern || era === "modern") return {};
    return { [SESSION_HEADER]: this.#id };
  }

  /** The headers of the transport's own GET and DELETE requests: session id and version. */
  ownHeaders(): Record<string, string> {
    const out = this.headerFor(undefined);
    const n = this.#negotiated;
    if (n?.era === "legacy" && n.features.versionHeader) out[VERSION_HEADER] = n.version;
    return out;
  }
}

/** Merges header sets, later ones winning, whatever the case of their names. */
export function mergeHeaders(...sets: (Record<string, string> | undefined)[]): Record<string, string> {
  const byLower = new Map<string, [string, string]>();
  for (const set of sets) {
    if (!set) continue;
    for (const [k, v] of Object.entries(set)) byLower.set(k.toLowerCase(), [k, v]);
  }
  return Object.fromEntries(byLower.values());
}
