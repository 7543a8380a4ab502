/**
 * The catalog: the union of every connected upstream's tools, prompts, resources and resource
 * templates under their namespaces, each upstream's lists kept until it says they changed (or
 * drops). The client hands over each upstream's lists already screened (an item its revision's
 * schema or mcpx's rules reject is left out with a server.warning), so they are served as they are:
 * tool schemas pass through exactly as the upstream sent them. Per-server include/exclude
 * globs trim the tools a gateway shows, since too many tools is what users of gateways most often
 * complain about. Lists and routes wait for the upstreams still making their first connection
 * (pool.ready, bounded by their timeouts.ready), so a host that lists once right after initialize
 * sees every upstream that comes up in time.
 */
import type { UpstreamClient } from "@mcpx/client";
import type { ServerConfig } from "@mcpx/config";
import type { JSONObject, Logger } from "@mcpx/core";
import type { Namespaces } from "./namespaces.js";
import type { Pool } from "./pool.js";
import { toolFilter } from "./tool-filter.js";

export type ListKind = "tools" | "prompts" | "resources" | "resourceTemplates";

const LIST_METHOD: Record<ListKind, string> = {
  tools: "tools/list",
  prompts: "prompts/list",
  resources: "resources/list",
  resourceTemplates: "resources/templates/list",
};

/** What identifies an item of each list: a resource's name is only a label, two may share it. */
const KEY: Record<ListKind, "name" | "uri" | "uriTemplate"> = {
  tools: "name",
  prompts: "name",
  resources: "uri",
  resourceTemplates: "uriTemplate",
};

/** Which lists a list_changed notification of an upstream invalidates. */
export const CHANGED: Record<string, ListKind[]> = {
  "notifications/tools/list_changed": ["tools"],
  "notifications/prompts/list_changed": ["prompts"],
  "notifications/resources/list_changed": ["resources", "resourceTemplates"],
};

interface Union {
  /** The catalog's generation when it was built: a later one means a list may have changed. */
  generation: number;
  /** The connected clients it was built from, in order. */
  clients: UpstreamClient[];
  items: Promise<JSONObject[]>;
}

const sameClients = (built: readonly UpstreamClient[], now: readonly { client: UpstreamClient }[]): boolean =>
  built.length === now.length && built.every((c, i) => c === now[i]?.client);

interface Lists {
  tools?: Promise<JSONObject[]>;
  prompts?: Promise<JSONObject[]>;
  resources?: Promise<JSONObject[]>;
  resourceTemplates?: Promise<JSONObject[]>;
}

export interface Route {
  server: ServerConfig;
  client: UpstreamClient;
  /** The name or URI the upstream knows. */
  original: string;
}

export class Catalog {
  readonly #pool: Pool;
  readonly #ns: Namespaces;
  readonly #log: Logger;
  readonly #lists = new Map<string, Lists>();
  readonly #filters = new Map<string, (name: string) => boolean>();
  /**
   * The union of each kind as last built, with what it was built from: a page of a 10,000-tool
   * union would otherwise copy every item of every upstream again, per page.
   */
  readonly #unions = new Map<ListKind, Union>();
  #generation = 0;

  constructor(pool: Pool, namespaces: Namespaces, log: Logger) {
    this.#pool = pool;
    this.#ns = namespaces;
    this.#log = log;
    this.setServers(pool.servers());
  }

  /** The tool filters of these servers from now on (a reload); their lists are fetched again. */
  setServers(servers: readonly ServerConfig[]): void {
    this.#filters.clear();
    this.#unions.clear();
    for (const s of servers) this.#filters.set(s.name, toolFilter(s.tools));
  }

  get namespaces(): Namespaces {
    return this.#ns;
  }

  /**
   * Changes whenever a list may have changed (an invalidation, a failed fetch), so what is derived
   * from the lists (the HTTP server's x-mcp-header index) is rebuilt only then.
   */
  get generation(): number {
    return this.#generation;
  }

  /** Forgets an upstream's lists (all, or some kinds). */
  invalidate(server: string, kinds?: readonly ListKind[]): void {
    this.#generation++;
    if (!kinds) {
      this.#lists.delete(server);
      return;
    }
    const lists = this.#lists.get(server);
    if (lists) for (const k of kinds) delete lists[k];
  }

  /**
   * Every connected upstream's items of one kind, exposed under their namespaces, in config order.
   * Built once per change (an invalidation, a failed fetch, an upstream connecting or dropping) and
   * shared by every caller until then: callers must not change it or its items.
   */
  async list(kind: ListKind): Promise<readonly JSONObject[]> {
    const starting = this.#pool.ready();
    if (starting) await starting;
    const connected = this.#pool.clients();
    const cached = this.#unions.get(kind);
    if (cached && cached.generation === this.#generation && sameClients(cached.clients, connected)) {
      return cached.items;
    }
    const union: Union = {
      generation: this.#generation,
      clients: connected.map((c) => c.client),
      items: this.#union(kind, connected),
    };
    this.#unions.set(kind, union);
    return union.items;
  }

  async #union(
    kind: ListKind,
    connected: readonly { server: ServerConfig; client: UpstreamClient }[],
  ): Promise<JSONObject[]> {
    const parts = await Promise.all(
      connected.map(async ({ server, client }) => {
        const items = await this.#upstreamList(server, client, kind);
        return items.map((item) => this.#expose(server, kind, item));
      }),
    );
    const out: JSONObject[] = [];
    const seen = new Set<string>();
    for (const part of parts) {
      for (const item of part) {
        const key = String(item[KEY[kind]]);
        // Two servers with namespacing off may name the same thing: the first keeps it.
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(item);
      }
    }
    return out;
  }

  async #upstreamList(server: ServerConfig, client: UpstreamClient, kind: ListKind): Promise<JSONObject[]> {
    if (!this.#declares(client, kind)) return [];
    let lists = this.#lists.get(server.name);
    if (!lists) {
      lists = {};
      this.#lists.set(server.name, lists);
    }
    let pending = lists[kind];
    if (!pending) {
      pending = client
        .list<JSONObject>(LIST_METHOD[kind], kind)
        .then((items) =>
          kind === "tools"
            ? items.filter((t) => this.#filters.get(server.name)?.(String(t.name)) ?? true)
            : items,
        );
      lists[kind] = pending;
      // A failed list is not kept: the next ask tries again.
      pending.catch(() => {
        if (lists?.[kind] === pending) delete lists[kind];
        this.#generation++;
      });
    }
    try {
      return await pending;
    } catch (err) {
      this.#log.warn(`could not list ${kind}: ${(err as Error).message}`, { upstream: server.name });
      return [];
    }
  }

  #declares(client: UpstreamClient, kind: ListKind): boolean {
    const caps = client.negotiated.serverCapabilities;
    if (kind === "tools") return caps.tools !== undefined;
    if (kind === "prompts") return caps.prompts !== undefined;
    return caps.resources !== undefined;
  }

  #expose(server: ServerConfig, kind: ListKind, item: JSONObject): JSONObject {
    switch (kind) {
      case "tools":
      case "prompts":
        return { ...item, name: this.#ns.name(server, String(item.name)) };
      case "resources":
        return { ...item, uri: this.#ns.uri(server, String(item.uri)) };
      case "resourceTemplates":
        return { ...item, uriTemplate: this.#ns.uri(server, String(item.uriTemplate)) };
    }
  }

  /**
   * The upstream of a tool or prompt name; undefined when nobody has it, or when its upstream is
   * not connected (still not, for one making its first connection, at its ready bound).
   */
  async routeName(kind: "tools" | "prompts", exposed: string): Promise<Route | undefined> {
    const owned = this.#ns.parseName(exposed);
    if (owned) {
      if (kind === "tools" && !(this.#filters.get(owned.server)?.(owned.original) ?? true)) return undefined;
      const starting = this.#pool.readyFor(owned.server);
      if (starting) await starting;
      const client = this.#pool.client(owned.server);
      const server = this.#pool.servers().find((s) => s.name === owned.server);
      if (!client || !server) return undefined;
      return { server, client, original: owned.original };
    }
    return this.#routeBare(kind, (item) => item.name === exposed, exposed);
  }

  /** The upstream of a resource URI (or a URI a template of theirs expands to). */
  async routeUri(exposed: string): Promise<Route | undefined> {
    const owned = this.#ns.parseUri(exposed);
    if (owned) {
      const starting = this.#pool.readyFor(owned.server);
      if (starting) await starting;
      const client = this.#pool.client(owned.server);
      const server = this.#pool.servers().find((s) => s.name === owned.server);
      return client && server ? { server, client, original: owned.original } : undefined;
    }
    // Not namespaced: a bare server that lists it, else the only bare server there is.
    const listed = await this.#routeBare("resources", (item) => item.uri === exposed, exposed);
    if (listed) return listed;
    const bare = this.#pool.clients().filter(({ server }) => !server.namespacing);
    const only = bare.length === 1 ? bare[0] : undefined;
    return only ? { server: only.server, client: only.client, original: exposed } : undefined;
  }

  async #routeBare(
    kind: ListKind,
    match: (item: JSONObject) => boolean,
    original: string,
  ): Promise<Route | undefined> {
    const starting = this.#pool.ready();
    if (starting) await starting;
    for (const { server, client } of this.#pool.clients()) {
      if (server.namespacing) continue;
      const items = await this.#upstreamList(server, client, kind);
      if (items.some(match)) return { server, client, original };
    }
    return undefined;
  }
}
