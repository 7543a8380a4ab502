/**
 * Where tokens live between runs. Keyed by the authorization server's issuer and the resource they
 * were issued for (RFC 8707): a token is only ever looked up for the resource it was issued for, and
 * a client registered with one authorization server is never found under another (2026-07-28
 * basic/authorization/client-registration, "Authorization Server Binding"). An interface, so a
 * shared store can take the file's place.
 *
 * The file store writes one file per issuer and resource under `<stateDir>/oauth/`, mode 0600 in a
 * 0700 directory, atomically (a temporary file in the same directory, then a rename), and never says
 * what a file holds in any error or log line.
 */
import { createHash, randomBytes } from "node:crypto";
import { chmod, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import * as path from "node:path";
import type { StateStore } from "@mcpx/core";
import type { JWK } from "jose";

/** How the client is known to the authorization server that issued the grant. */
export interface ClientRecord {
  clientId: string;
  clientSecret?: string;
  tokenEndpointAuthMethod: string;
  /** How it came to be: from config, a client ID metadata document, or dynamic registration. */
  registration: "pre-registered" | "metadata-document" | "dynamic";
  /** The redirect URI it was registered with (a new one means registering again). */
  redirectUri?: string;
}

export interface StoredGrant {
  /** The authorization server's issuer, as its metadata states it. */
  issuer: string;
  /** The resource the tokens are for (the protected resource metadata's `resource`). */
  resource: string;
  client?: ClientRecord;
  accessToken?: string;
  /** "Bearer" or "DPoP". */
  tokenType?: string;
  /** When the access token expires, in ms since the epoch. */
  expiresAt?: number;
  refreshToken?: string;
  /** The scopes granted (or asked for, when the server did not say), space-separated. */
  scope?: string;
  /**
   * The DPoP key (RFC 9449) the tokens are bound to, a private ES256 JWK: one per authorization
   * server, kept so that a refreshed token stays bound to the same key. A secret, as the tokens are.
   */
  dpopKey?: JWK;
}

export interface TokenStore {
  get(issuer: string, resource: string): Promise<StoredGrant | undefined>;
  set(grant: StoredGrant): Promise<void>;
  delete(issuer: string, resource: string): Promise<void>;
}

const key = (issuer: string, resource: string) => `${issuer}\n${resource}`;

/** Tokens for the life of the process: tests, and programs that must not write to disk. */
export class MemoryTokenStore implements TokenStore {
  readonly #grants = new Map<string, StoredGrant>();

  async get(issuer: string, resource: string): Promise<StoredGrant | undefined> {
    const grant = this.#grants.get(key(issuer, resource));
    return grant && structuredClone(grant);
  }

  async set(grant: StoredGrant): Promise<void> {
    this.#grants.set(key(grant.issuer, grant.resource), structuredClone(grant));
  }

  async delete(issuer: string, resource: string): Promise<void> {
    this.#grants.delete(key(issuer, resource));
  }
}

export class FileTokenStore implements TokenStore {
  /** The directory of the token files: `<stateDir>/oauth`. */
  readonly dir: string;

  constructor(stateDir: string) {
    this.dir = path.join(stateDir, "oauth");
  }

  /** The file of one issuer and resource: a hash, so neither URL shapes a path. */
  fileOf(issuer: string, resource: string): string {
    const name = createHash("sha256").update(key(issuer, resource)).digest("hex").slice(0, 32);
    return path.join(this.dir, `${name}.json`);
  }

  async get(issuer: string, resource: string): Promise<StoredGrant | undefined> {
    let text: string;
    try {
      text = await readFile(this.fileOf(issuer, resource), "utf8");
    } catch {
      return undefined;
    }
    try {
      const grant = JSON.parse(text) as StoredGrant;
      // A file of another key (a hash collision, a copied file) is not this grant.
      return grant.issuer === issuer && grant.resource === resource ? grant : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Every grant stored (for `mcpx auth status` and `logout`, which know a server's URL but not the
   * issuer and resource its tokens are filed under). A file that is not a grant is passed over.
   */
  async list(): Promise<StoredGrant[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const grants: StoredGrant[] = [];
    for (const name of names.filter((n) => n.endsWith(".json") && !n.startsWith(".")).sort()) {
      try {
        const grant = JSON.parse(await readFile(path.join(this.dir, name), "utf8")) as StoredGrant;
        if (typeof grant.issuer === "string" && typeof grant.resource === "string") grants.push(grant);
      } catch {
        // unreadable or not JSON: not a grant
      }
    }
    return grants;
  }

  async set(grant: StoredGrant): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const file = this.fileOf(grant.issuer, grant.resource);
    const temp = path.join(this.dir, `.${path.basename(file)}.${randomBytes(6).toString("hex")}.tmp`);
    try {
      // Created 0600 (flag wx: never through a file someone else made), then renamed over the old:
      // a reader sees the old grant or the new one, never half of one.
      await writeFile(temp, `${JSON.stringify(grant)}\n`, { mode: 0o600, flag: "wx" });
      await chmod(temp, 0o600);
      await rename(temp, file);
    } catch (err) {
      await rm(temp, { force: true });
      throw new Error(`could not write the token file ${file}: ${(err as NodeJS.ErrnoException).code}`);
    }
  }

  async delete(issuer: string, resource: string): Promise<void> {
    await rm(this.fileOf(issuer, resource), { force: true });
  }
}

/** The state store's space of OAuth grants. */
export const OAUTH_SPACE = "oauth";

/**
 * Grants in the host's state store (space "oauth"), used when that store is shared: a grant one
 * replica obtained serves every replica, with no second sign-in. The key is a hash of the issuer
 * and resource, as the file store's names are. Grants are secrets: the store (Redis) then holds
 * them, so it must be reached over TLS with a password; nothing here logs them.
 */
export class StateStoreTokenStore implements TokenStore {
  readonly #store: StateStore;

  constructor(store: StateStore) {
    this.#store = store;
  }

  keyOf(issuer: string, resource: string): string {
    return createHash("sha256").update(key(issuer, resource)).digest("hex");
  }

  async get(issuer: string, resource: string): Promise<StoredGrant | undefined> {
    const grant = await this.#store.get<StoredGrant>(OAUTH_SPACE, this.keyOf(issuer, resource));
    // Another grant under a colliding key, or something else: not this issuer's and resource's.
    if (!grant || grant.issuer !== issuer || grant.resource !== resource) return undefined;
    return grant;
  }

  async set(grant: StoredGrant): Promise<void> {
    await this.#store.set(OAUTH_SPACE, this.keyOf(grant.issuer, grant.resource), grant);
  }

  async delete(issuer: string, resource: string): Promise<void> {
    await this.#store.delete(OAUTH_SPACE, this.keyOf(issuer, resource));
  }
}
