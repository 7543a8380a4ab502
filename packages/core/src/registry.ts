/** What plugins register: revisions, transports, auth schemes and the handlers of server requests. */
import type { AuthScheme } from "./auth.js";
import type { ControlRoute } from "./control.js";
import { PluginError } from "./errors.js";
import type { ElicitationHandler, SamplingHandler } from "./handlers.js";
import type { Era, Revision } from "./revision.js";
import type { TransportFactory, TransportKind, UpstreamTarget } from "./transport.js";

export class Registry {
  readonly #revisions = new Map<string, Revision>();
  readonly #transports = new Map<TransportKind, TransportFactory>();
  readonly #auth = new Map<string, AuthScheme>();
  readonly #elicitation: ElicitationHandler[] = [];
  readonly #sampling: SamplingHandler[] = [];
  readonly #routes: ControlRoute[] = [];
  /** Which plugin registered what, for errors that name both sides of a clash. */
  readonly #owner = new Map<string, string>();

  #claim(key: string, plugin: string): void {
    const prior = this.#owner.get(key);
    if (prior !== undefined) {
      throw new PluginError(plugin, `${key} is already registered by plugin ${prior}`);
    }
    this.#owner.set(key, plugin);
  }

  addRevision(revision: Revision, plugin = "(host)"): void {
    this.#claim(`revision ${revision.version}`, plugin);
    this.#revisions.set(revision.version, revision);
  }

  addTransport(factory: TransportFactory, plugin = "(host)"): void {
    this.#claim(`transport ${factory.kind}`, plugin);
    this.#transports.set(factory.kind, factory);
  }

  addAuthScheme(scheme: AuthScheme, plugin = "(host)"): void {
    this.#claim(`auth scheme ${scheme.type}`, plugin);
    this.#auth.set(scheme.type, scheme);
  }

  addElicitationHandler(handler: ElicitationHandler, plugin = "(host)"): void {
    this.#claim(`elicitation handler ${handler.name}`, plugin);
    this.#elicitation.push(handler);
  }

  addSamplingHandler(handler: SamplingHandler, plugin = "(host)"): void {
    this.#claim(`sampling handler ${handler.name}`, plugin);
    this.#sampling.push(handler);
  }

  addControlRoute(route: ControlRoute, plugin = "(host)"): void {
    this.#claim(`control route ${route.method} ${route.path}`, plugin);
    this.#routes.push(route);
  }

  controlRoutes(): readonly ControlRoute[] {
    return this.#routes;
  }

  revision(version: string): Revision | undefined {
    return this.#revisions.get(version);
  }

  /** Every registered revision, newest first. */
  revisions(era?: Era): Revision[] {
    return [...this.#revisions.values()]
      .filter((r) => era === undefined || r.era === era)
      .sort((a, b) => (a.version < b.version ? 1 : a.version > b.version ? -1 : 0));
  }

  transport(kind: TransportKind): TransportFactory | undefined {
    return this.#transports.get(kind);
  }

  transports(): TransportFactory[] {
    return [...this.#transports.values()];
  }

  /** The first registered transport that can reach the target. */
  transportFor(target: UpstreamTarget): TransportFactory | undefined {
    return this.transports().find((t) => t.accepts(target));
  }

  authScheme(type: string): AuthScheme | undefined {
    return this.#auth.get(type);
  }

  authSchemes(): AuthScheme[] {
    return [...this.#auth.values()];
  }

  elicitationHandlers(): readonly ElicitationHandler[] {
    return this.#elicitation;
  }

  samplingHandlers(): readonly SamplingHandler[] {
    return this.#sampling;
  }
}
