/**
 * The revisions mcpx serves: the registry's, newest first by era (2026-07-28, then the
 * initialize-era ones, newest first). The registry is the only list: what a -32022 lists, what
 * initialize negotiates down to and what server/discover answers all come from here, so a
 * revision plugin is served as soon as it is registered. Read once, when first asked, which is
 * after every plugin has been applied.
 */
import {
  ERAS,
  type ForeignKeys,
  foreignKeys,
  type HeaderReader,
  httpSseRevisions,
  type JSONRPCRequest,
  type RegistryView,
  type Revision,
  type ServeContext,
} from "@mcpx/core";

const NO_HEADERS: HeaderReader = () => undefined;

export class ServedRevisions {
  readonly #registry: RegistryView;
  #all: readonly Revision[] | undefined;
  #versions: readonly string[] = [];
  /** The newest revision of each era, in ERAS order: the ones asked whether a request opens a client. */
  #heads: readonly Revision[] = [];
  #sse: readonly Revision[] = [];
  readonly #foreign = new Map<Revision, ForeignKeys>();

  constructor(registry: RegistryView) {
    this.#registry = registry;
  }

  #load(): readonly Revision[] {
    if (this.#all) return this.#all;
    // A revision registered without a server facet (a plugin written before it) is spoken to
    // upstreams only: mcpx does not serve what it cannot answer as.
    const all = ERAS.flatMap((era) => this.#registry.revisions(era)).filter(
      (r) => typeof (r as Partial<Revision>).server?.negotiate === "function",
    );
    this.#versions = Object.freeze(all.map((r) => r.version));
    this.#heads = ERAS.map((era) => all.find((r) => r.era === era)).filter((r) => r !== undefined);
    // HTTP+SSE: its own revisions first, so a version it does not serve gets the newest of them.
    const sse = httpSseRevisions(all);
    this.#sse = [...sse, ...all.filter((r) => !sse.includes(r))];
    this.#all = Object.freeze(all);
    return all;
  }

  /** Every served revision, newest first by era. */
  get all(): readonly Revision[] {
    return this.#load();
  }

  /** Every served version, newest first by era (what a -32022 lists). */
  get versions(): readonly string[] {
    this.#load();
    return this.#versions;
  }

  get(version: string | undefined): Revision | undefined {
    return version === undefined ? undefined : this.#load().find((r) => r.version === version);
  }

  /**
   * The era a request with no session belongs to, decided once for it: the newest revision of the
   * first era whose way of opening a client it follows (a modern request's _meta, a legacy
   * initialize). A request whose MCP-Protocol-Version header names a served revision without a
   * handshake stands alone too, even with its _meta missing or incomplete: that revision refuses it.
   * Undefined: a request of a session (or of none).
   */
  opener(msg: JSONRPCRequest, headerVersion?: string): Revision | undefined {
    this.#load();
    const opens = this.#heads.find((r) => r.server.opens(msg));
    if (opens) return opens;
    const named = this.get(headerVersion);
    return named && !named.features.initialize ? this.#heads.find((r) => r.era === named.era) : undefined;
  }

  /** Whether this MCP-Protocol-Version names a served revision whose requests stand alone (no session). */
  standsAlone(headerVersion: string | undefined): boolean {
    const named = this.get(headerVersion);
    return named !== undefined && !named.features.initialize;
  }

  /** What a revision negotiating with a client is told; HTTP+SSE prefers its own revisions. */
  context(header: HeaderReader = NO_HEADERS, transport: "http+sse" | "other" = "other"): ServeContext {
    this.#load();
    return { served: transport === "http+sse" ? this.#sse : this.all, supported: this.#versions, header };
  }

  /** The other revisions' own result and _meta keys, which a client of `revision` is not sent. */
  foreign(revision: Revision): ForeignKeys {
    let keys = this.#foreign.get(revision);
    if (!keys) {
      const others = this.#load().filter((r) => r !== revision);
      keys = foreignKeys(
        revision.methods,
        others.map((r) => r.methods),
      );
      this.#foreign.set(revision, keys);
    }
    return keys;
  }
}
