/**
 * Namespaces: every upstream's tools and prompts appear as `<namespace>__<name>`, its resources as
 * `mcpx://<namespace>/<original uri>` (templates too, so a client's expansion maps straight back).
 * Namespaces never contain "__" (the config refuses it), so the first "__" always splits a name
 * correctly, whatever the upstream's own names hold. A server with namespacing off keeps its names.
 * Skill URIs (SEP-2640) stay skill URIs: `skill://<skill-path>` becomes `skill://<namespace>/<skill-path>`,
 * a deeper skill path whose last segment (the skill's name) is unchanged, so hosts read the same skill.
 */
import type { ServerConfig } from "@mcpx/config";

export const SEPARATOR = "__";
export const URI_SCHEME = "mcpx://";
export const SKILL_SCHEME = "skill://";

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
    if (!server.namespacing) return original;
    if (original.startsWith(SKILL_SCHEME)) {
      return `${SKILL_SCHEME}${server.namespace}/${original.slice(SKILL_SCHEME.length)}`;
    }
    return `${URI_SCHEME}${server.namespace}/${original}`;
  }

  /** The owner of a namespaced name; undefined for a name no namespace claims. */
  parseName(exposed: string): Owned | undefined {
    const at = exposed.indexOf(SEPARATOR);
    if (at <= 0) return undefined;
    const server = this.#byNamespace.get(exposed.slice(0, at));
    return server ? { server: server.name, original: exposed.slice(at + SEPARATOR.length) } : undefined;
  }

  parseUri(exposed: string): Owned | undefined {
    const scheme = exposed.startsWith(URI_SCHEME)
      ? URI_SCHEME
      : exposed.startsWith(SKILL_SCHEME)
        ? SKILL_SCHEME
        : undefined;
    if (scheme === undefined) return undefined;
    const rest = exposed.slice(scheme.length);
    const slash = rest.indexOf("/");
    if (slash <= 0) return undefined;
    const server = this.#byNamespace.get(rest.slice(0, slash));
    if (!server) return undefined;
    const tail = rest.slice(slash + 1);
    return { server: server.name, original: scheme === SKILL_SCHEME ? `${SKILL_SCHEME}${tail}` : tail };
  }
}
