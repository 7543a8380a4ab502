/**
 * Namespaces: every upstream's tools and prompts appear as `<namespace>__<name>`, its resources as
 * `mcpx://<namespace>/<original uri>` (templates too, so a client's expansion maps straight back).
 * Namespaces never contain "__" (the config refuses it), so the first "__" always splits a name
 * correctly, whatever the upstream's own names hold. A server with namespacing off keeps its names.
 */
import type { ServerConfig } from "@mcpx/config";

export const SEPARATOR = "__";
export const URI_SCHEME = "mcpx://";

export interface Owned {
  /** The server's config key. */
  server: string;
  /** The name or URI as the upstream knows it. */
  original: string;
}

export class Namespaces {
  readonly #byNamespace = new Map<string, ServerConfig>();
  readonly #bare = new Set<string>();

  constructor(servers: readonly ServerConfig[]) {
    this.reset(servers);
  }

  /** Maps the names of these servers from now on (a reload). */
  reset(servers: readonly ServerConfig[]): void {
    this.#byNamespace.clear();
    this.#bare.clear();
    for (const s of servers) {
      if (s.namespacing) this.#byNamespace.set(s.namespace, s);
      else this.#bare.add(s.name);
    }
  }

  /** Servers whose names are not namespaced. */
  get bare(): ReadonlySet<string> {
    return this.#bare;
  }

  isNamespaced(server: ServerConfig): boolean {
    return server.namespacing;
  }

  name(server: ServerConfig, original: string): string {
    return server.namespacing ? `${server.namespace}${SEPARATOR}${original}` : original;
  }

  uri(server: ServerConfig, original: string): string {
    return server.namespacing ? `${URI_SCHEME}${server.namespace}/${original}` : original;
  }

  /** The owner of a namespaced name; undefined for a name no namespace claims. */
  parseName(exposed: string): Owned | undefined {
    const at = exposed.indexOf(SEPARATOR);
    if (at <= 0) return undefined;
    const server = this.#byNamespace.get(exposed.slice(0, at));
    return server ? { server: server.name, original: exposed.slice(at + SEPARATOR.length) } : undefined;
  }

  parseUri(exposed: string): Owned | undefined {
    if (!exposed.startsWith(URI_SCHEME)) return undefined;
    const rest = exposed.slice(URI_SCHEME.length);
    const slash = rest.indexOf("/");
    if (slash <= 0) return undefined;
    const server = this.#byNamespace.get(rest.slice(0, slash));
    return server ? { server: server.name, original: rest.slice(slash + 1) } : undefined;
  }
}
