/**
 * The skills extension (SEP-2640) through the gateway: the union of every connected upstream's skills
 * under their namespaces (skill://<namespace>/<skill-path>, namespaces.ts), skills/get and
 * resources/directory/read routed to the upstream that owns the URI with the URI it knows, and the
 * answers' URIs mapped back. An upstream's entry is passed on only if it is a valid entry (the
 * client's checks); its files are read through resources/read like any resource, so a host verifies
 * them against the namespaced entry (the digests and sizes are the upstream's, unchanged).
 */
import { type LoadedSkill, type RequestOptions, SkillsClient, type UpstreamClient } from "@mcpx/client";
import type { ServerConfig } from "@mcpx/config";
import {
  InvalidParamsError,
  type JSONObject,
  type Logger,
  type Result,
  type Skill,
  SkillsMethod,
  skillRoot,
  skillsCapabilityOf,
} from "@mcpx/core";
import type { Namespaces } from "./namespaces.js";
import { page } from "./paging.js";
import type { Pool } from "./pool.js";

interface Owner {
  server: ServerConfig;
  client: UpstreamClient;
  original: string;
}

export class GatewaySkills {
  readonly #pool: Pool;
  readonly #ns: Namespaces;
  readonly #log: Logger;

  constructor(pool: Pool, namespaces: Namespaces, log: Logger) {
    this.#pool = pool;
    this.#ns = namespaces;
    this.#log = log;
  }

  /** skills/list: one page of the union (mcpx's own cursor), with the caching fields of 2026-07-28. */
  async list(cursor: unknown, pageSize: number, opts: RequestOptions): Promise<Result> {
    const all = await this.#all(opts);
    // Aggregated from upstreams each with its own caching: fresh for nobody else to reuse.
    return { ...page(all, "skills", cursor, pageSize), ttlMs: 0, cacheScope: "private" };
  }

  /** skills/get: the owning upstream's entry for the skill, namespaced. Unknown URI: -32602. */
  async get(uri: unknown, opts: RequestOptions): Promise<Result> {
    const owner = await this.#owner(uri, opts);
    const result = await owner.client.request(SkillsMethod.get, { uri: owner.original }, opts);
    const skill = result.skill as Skill | undefined;
    return skill ? { ...result, skill: this.#expose(owner.server, skill) } : result;
  }

  /** resources/directory/read on a skill directory, forwarded to its upstream, children namespaced. */
  async readDirectory(params: JSONObject, opts: RequestOptions): Promise<Result> {
    const owner = await this.#owner(params.uri, opts, true);
    if (skillsCapabilityOf(owner.client.negotiated.serverCapabilities)?.directoryRead !== true) {
      throw new InvalidParamsError(`${String(params.uri)} is not a directory mcpx can read`);
    }
    const forwarded: JSONObject = { uri: owner.original };
    if (params.cursor !== undefined) forwarded.cursor = params.cursor;
    const result = await owner.client.request(SkillsMethod.directoryRead, forwarded, opts);
    const resources = Array.isArray(result.resources) ? (result.resources as JSONObject[]) : [];
    return {
      ...result,
      resources: resources.map((r) =>
        typeof r.uri === "string" ? { ...r, uri: this.#ns.uri(owner.server, r.uri) } : r,
      ),
    };
  }

  /**
   * Loads a skill for mcpx's own use (`mcpx skills get`): its upstream's entry, and its SKILL.md
   * read and verified against that entry by the client (SkillVerificationError when it fails).
   */
  async load(
    uri: string,
    opts: RequestOptions = {},
  ): Promise<Omit<LoadedSkill, "skill"> & { skill: JSONObject }> {
    const owner = await this.#owner(uri, opts);
    const skills = new SkillsClient(owner.client);
    const listed = (await skills.list(opts)).skills.find((s) => s.uri === owner.original);
    const loaded = await skills.load(listed ?? (await skills.get(owner.original, opts)), opts);
    return { ...loaded, skill: this.#expose(owner.server, loaded.skill) };
  }

  /** Every connected upstream's valid skills, namespaced, in config order. */
  async all(opts: RequestOptions = {}): Promise<JSONObject[]> {
    return this.#all(opts);
  }

  async #all(opts: RequestOptions): Promise<JSONObject[]> {
    const starting = this.#pool.ready();
    if (starting) await starting;
    const parts = await Promise.all(
      this.#offering().map(async ({ server, client }) => {
        try {
          const { skills, invalid } = await new SkillsClient(client).list(opts);
          for (const bad of invalid) {
            this.#log.warn(`skill entry left out: ${bad.reason}`, { upstream: server.name, uri: bad.uri });
          }
          return skills.map((s) => this.#expose(server, s));
        } catch (err) {
          this.#log.warn(`could not list skills: ${(err as Error).message}`, { upstream: server.name });
          return [];
        }
      }),
    );
    return parts.flat();
  }

  /** The connected upstreams that declared the extension. */
  #offering(): { server: ServerConfig; client: UpstreamClient }[] {
    return this.#pool
      .clients()
      .filter(({ client }) => skillsCapabilityOf(client.negotiated.serverCapabilities) !== undefined);
  }

  /**
   * The upstream a skill URI belongs to: its namespace, else (namespacing off) the upstream that
   * lists the skill, else the only one offering skills with namespacing off.
   */
  async #owner(uri: unknown, opts: RequestOptions, directory = false): Promise<Owner> {
    if (typeof uri !== "string") throw new InvalidParamsError("params.uri must be a string");
    const owned = this.#ns.parseUri(uri);
    if (owned) {
      const starting = this.#pool.readyFor(owned.server);
      if (starting) await starting;
      const found = this.#offering().find(({ server }) => server.name === owned.server);
      if (found) return { ...found, original: owned.original };
    } else {
      const starting = this.#pool.ready();
      if (starting) await starting;
      const bare = this.#offering().filter(({ server }) => !server.namespacing);
      for (const candidate of bare) {
        const { skills } = await new SkillsClient(candidate.client).list(opts);
        const hit = skills.some((s) => {
          if (!directory) return s.uri === uri;
          const root = skillRoot(s.uri) ?? s.uri;
          return uri === root || uri.startsWith(`${root}/`);
        });
        if (hit) return { ...candidate, original: uri };
      }
      const only = bare.length === 1 ? bare[0] : undefined;
      if (only) return { ...only, original: uri };
    }
    throw new InvalidParamsError(`no skill is served at ${uri}`, { uri });
  }

  #expose(server: ServerConfig, skill: Skill): JSONObject {
    const out: JSONObject = { ...skill, uri: this.#ns.uri(server, skill.uri) };
    if (Array.isArray(skill.resources)) {
      out.resources = skill.resources.map((r) => ({ ...r, uri: this.#ns.uri(server, r.uri) }));
    }
    return out;
  }
}
