/**
 * The registry: what plugins register (revisions, transports, auth schemes, the handlers of server
 * requests, control routes), each claimed by the plugin that registered it. Only the host holds it;
 * plugins and every reader get `view()`, core's RegistryView.
 */
import {
  type AuthScheme,
  type ControlRoute,
  type ElicitationHandler,
  type Era,
  PluginError,
  type RegistryView,
  type Revision,
  type SamplingHandler,
  type StoreFactory,
  type TelemetryFactory,
  type TransportFactory,
  type TransportKind,
  type UpstreamTarget,
} from "@mcpx/core";

export class Registry implements RegistryView {
  readonly #revisions = new Map<string, Revision>();
  readonly #transports = new Map<TransportKind, TransportFactory>();
  readonly #auth = new Map<string, AuthScheme>();
  readonly #elicitation: ElicitationHandler[] = [];
  readonly #sampling: SamplingHandler[] = [];
  readonly #routes: ControlRoute[] = [];
  readonly #stores = new Map<string, StoreFactory>();
  #telemetry: TelemetryFactory | undefined;
  /** Which plugin registered what, for errors that name both sides of a clash. */
  readonly #owner = new Map<string, string>();
  #view: RegistryView | undefined;

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

  addStore(factory: StoreFactory, plugin = "(host)"): void {
    this.#claim(`store ${factory.type}`, plugin);
    this.#stores.set(factory.type, factory);
  }

  store(type: string): StoreFactory | undefined {
    return this.#stores.get(type);
  }

  stores(): StoreFactory[] {
    return [...this.#stores.values()];
  }

  addTelemetry(factory: TelemetryFactory, plugin = "(host)"): void {
    // One telemetry per host: a second plugin claiming it is a conflict, named.
    this.#claim("telemetry", plugin);
    this.#telemetry = factory;
  }

  telemetry(): TelemetryFactory | undefined {
    return this.#telemetry;
  }

  // The lists are handed out as copies: a reader cannot add to them behind the registry's back.

  controlRoutes(): readonly ControlRoute[] {
    return [...this.#routes];
  }

  revision(version: string): Revision | undefined {
    return this.#revisions.get(version);
  }

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
    return [...this.#elicitation];
  }

  samplingHandlers(): readonly SamplingHandler[] {
    return [...this.#sampling];
  }

  /**
   * The read methods alone, on a frozen object of their own (made once): what plugins and every
   * reader get. It is not this instance, so no cast reaches `addRevision`.
   */
  view(): RegistryView {
    this.#view ??= Object.freeze({
      revision: (version: string) => this.revision(version),
      revisions: (era?: Era) => this.revisions(era),
      transport: (kind: TransportKind) => this.transport(kind),
      transports: () => this.transports(),
      transportFor: (target: UpstreamTarget) => this.transportFor(target),
      authScheme: (type: string) => this.authScheme(type),
      authSchemes: () => this.authSchemes(),
      elicitationHandlers: () => this.elicitationHandlers(),
      samplingHandlers: () => this.samplingHandlers(),
      controlRoutes: () => this.controlRoutes(),
      store: (type: string) => this.store(type),
      stores: () => this.stores(),
      telemetry: () => this.telemetry(),
    });
    return this.#view;
  }
}
