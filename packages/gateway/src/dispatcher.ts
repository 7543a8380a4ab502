/**
 * What the gateway does with a downstream request once the protocol layer has checked it: lists
 * come from the catalog, a call, get, read or completion goes to the upstream that owns the name
 * or URI (mapped back to what that upstream knows), with progress and cancellation forwarded.
 */
import {
  type ClientHandlers,
  installedHandlers,
  type RequestOptions,
  type UpstreamClient,
} from "@mcpx/client";
import {
  InvalidParamsError,
  type JSONObject,
  MethodNotFoundError,
  type RequestSpan,
  ResourceNotFoundError,
  type Result,
  type Revision,
  requestOf,
  SkillsMethod,
  UpstreamUnavailableError,
  withKey,
} from "@mcpx/core";
import type { Catalog, ListKind, Route } from "./catalog.js";
import { InputBridge } from "./input-bridge.js";
import { page } from "./paging.js";
import type { CallContext } from "./server/peer.js";
import type { GatewaySkills } from "./skills.js";
import type { ResourceSubscriptions } from "./subscriptions.js";
import { TaskRelay } from "./task-relay.js";

const LISTS: Record<string, ListKind> = {
  "tools/list": "tools",
  "prompts/list": "prompts",
  "resources/list": "resources",
  "resources/templates/list": "resourceTemplates",
};

/** Keys of a downstream request's params that are the protocol's, not the call's. */
function callParams(params: JSONObject, overrides: JSONObject): JSONObject {
  // inputResponses and requestState are between a client and mcpx (input-bridge.ts): a client's own
  // never reach an upstream, which would take them for its own state.
  const { _meta, inputResponses: _i, requestState: _r, ...rest } = params;
  return { ...rest, ...overrides };
}

export interface DispatcherOptions {
  pageSize?: number;
  /** The handlers of the upstream connections: what a modern request declares follows them. */
  handlers?: ClientHandlers;
  /** How long a requestState mcpx issued to a modern client stays good (default 10 min). */
  inputTtlMs?: number;
  /** An upstream's state, to say why a name it owns cannot be reached (asked when no route is found). */
  upstreamState?: (server: string) => { status: string; error?: string } | undefined;
  /** An upstream's connection by server name: where a relayed task's tasks/* requests go. */
  upstreamClient?: (server: string) => UpstreamClient | undefined;
  /** The skills extension (SEP-2640) over the upstreams, served to clients whose revision has extensions. */
  skills?: GatewaySkills;
}

/** The methods of the skills extension: in no revision's method table, served where extensions are. */
const SKILLS_METHODS: ReadonlySet<string> = new Set(Object.values(SkillsMethod));

export class Dispatcher {
  readonly #catalog: Catalog;
  readonly #subscriptions: ResourceSubscriptions;
  readonly #pageSize: number;
  readonly #handlers: ClientHandlers | undefined;
  /** Whether a handler answers only for some callers (then modern requests declare per caller). */
  readonly #perCaller: boolean;
  readonly #bridge: InputBridge;
  readonly #upstreamState: DispatcherOptions["upstreamState"];
  /** Tasks (SEP-2663) relayed to the upstreams that own them. */
  readonly tasks: TaskRelay;
  readonly #skills: GatewaySkills | undefined;

  constructor(
    catalog: Catalog,
    subscriptions: ResourceSubscriptions,
    options: DispatcherOptions | number = {},
  ) {
    const opts = typeof options === "number" ? { pageSize: options } : options;
    this.#catalog = catalog;
    this.#subscriptions = subscriptions;
    this.#pageSize = opts.pageSize ?? 100;
    this.#handlers = opts.handlers;
    this.#perCaller =
      opts.handlers !== undefined &&
      [...opts.handlers.elicitation, ...opts.handlers.sampling].some((h) => h.canAnswer !== undefined);
    this.#bridge = new InputBridge(opts.inputTtlMs === undefined ? {} : { ttlMs: opts.inputTtlMs });
    this.#upstreamState = opts.upstreamState;
    const upstreamClient = opts.upstreamClient;
    this.tasks = new TaskRelay((server) => upstreamClient?.(server));
    this.#skills = opts.skills;
  }

  /**
   * Whether `method` is an extension's that mcpx serves to a client of `revision`: the skills
   * methods, to a client whose revision has the `extensions` capability to learn of them by.
   */
  servesExtension(method: string, revision: Revision): boolean {
    return (
      this.#skills !== undefined &&
      SKILLS_METHODS.has(method) &&
      revision.server.capabilities.includes("extensions")
    );
  }

  /** Calls of modern clients waiting for their retry (between input_required rounds). */
  get parkedCalls(): number {
    return this.#bridge.parked;
  }

  /** mcpx stops: calls waiting for a modern client's retry are cancelled. */
  close(): void {
    this.#bridge.close();
  }

  /** Whether this method is routed here (the protocol layer answers the rest itself). */
  handles(method: string): boolean {
    // Own keys only: a method named "constructor" or "toString" is no list and no route.
    return (
      Object.hasOwn(LISTS, method) ||
      Object.hasOwn(ROUTED, method) ||
      TaskRelay.handles(method) ||
      method === "resources/subscribe" ||
      method === "resources/unsubscribe" ||
      (this.#skills !== undefined && SKILLS_METHODS.has(method))
    );
  }

  async handle(method: string, params: JSONObject, ctx: CallContext): Promise<Result> {
    const kind = Object.hasOwn(LISTS, method) ? LISTS[method] : undefined;
    if (kind) return page(await this.#catalog.list(kind), kind, params.cursor, this.#pageSize);
    // A task's requests name the task, not a tool: no input_required rounds of mcpx's on them.
    if (TaskRelay.handles(method)) return this.tasks.handle(method, params, ctx);
    // A client whose revision has input_required is asked the upstream's questions that way, and
    // retries; each round is bound to what the request names (the method table's `names`).
    const revision = ctx.peer.revision;
    const names = revision?.features.inputRequired
      ? requestOf(revision.methods, method, "client")?.names
      : undefined;
    if (names === "name" || names === "uri")
      return this.#bridge.run(method, names, params, ctx, (p, c) => this.#routed(method, p, c));
    return this.#routed(method, params, ctx);
  }

  async #routed(method: string, params: JSONObject, ctx: CallContext): Promise<Result> {
    switch (method) {
      case "tools/call":
        return this.#forward("tools/call", await this.#byName("tools", params.name), params, "name", ctx);
      case "prompts/get":
        return this.#forward("prompts/get", await this.#byName("prompts", params.name), params, "name", ctx);
      case "resources/read":
        return this.#forward("resources/read", await this.#byUri(params.uri), params, "uri", ctx);
      case "completion/complete":
        return this.#complete(params, ctx);
      case "resources/subscribe":
        await this.#subscriptions.subscribe(ctx.peer, String(params.uri), await this.#byUri(params.uri));
        return {};
      case "resources/unsubscribe":
        await this.#subscriptions.unsubscribe(ctx.peer, String(params.uri));
        return {};
      case SkillsMethod.list:
        if (this.#skills) return this.#skills.list(params.cursor, this.#pageSize, this.#plain(ctx));
        break;
      case SkillsMethod.get:
        if (this.#skills) return this.#skills.get(params.uri, this.#plain(ctx));
        break;
      case SkillsMethod.directoryRead:
        if (this.#skills) return this.#skills.readDirectory(params, this.#plain(ctx));
        break;
    }
    throw new MethodNotFoundError(`Method not found: ${method}`);
  }

  /** What a request to upstreams that no single route names carries: cancellation and the caller's context. */
  #plain(ctx: CallContext): RequestOptions {
    return withCancellation({ authContext: ctx.peer.authContext, context: ctx }, ctx);
  }

  async #byName(kind: "tools" | "prompts", name: unknown): Promise<Route> {
    if (typeof name !== "string") throw new InvalidParamsError(`params.name must be a string`);
    const route = await this.#catalog.routeName(kind, name);
    if (route) return route;
    this.#unavailable(this.#catalog.namespaces.parseName(name)?.server);
    throw new InvalidParamsError(`Unknown ${kind === "tools" ? "tool" : "prompt"}: ${name}`);
  }

  async #byUri(uri: unknown): Promise<Route> {
    if (typeof uri !== "string") throw new InvalidParamsError(`params.uri must be a string`);
    const route = await this.#catalog.routeUri(uri);
    if (route) return route;
    this.#unavailable(this.#catalog.namespaces.parseUri(uri)?.server);
    throw new ResourceNotFoundError(`Resource not found: ${uri}`, { uri });
  }

  /**
   * Throws UpstreamUnavailableError when what was asked for belongs to an upstream that is down or
   * still connecting: "Unknown tool" would send a user looking for a typo when the server crashed or
   * has not come up yet, and the same request may succeed later. A name no namespace claims may
   * belong to any server with namespacing off: those that are not connected are named.
   */
  #unavailable(owner: string | undefined): void {
    const candidates = owner === undefined ? this.#catalog.namespaces.bare : [owner];
    const down: { server: string; status: string; why: string }[] = [];
    for (const server of candidates) {
      const state = this.#upstreamState?.(server);
      // No state: a disabled server, which no waiting will bring.
      if (!state || state.status === "connected") continue;
      down.push({ server, status: state.status, why: unavailability(server, state) });
    }
    const first = down[0];
    if (!first) return;
    throw new UpstreamUnavailableError(first.server, down.map((d) => d.why).join("; "), {
      upstream: first.server,
      status: first.status,
    });
  }

  async #forward(
    method: string,
    route: Route,
    params: JSONObject,
    key: "name" | "uri",
    ctx: CallContext,
  ): Promise<Result> {
    const overrides: JSONObject = { [key]: route.original };
    // A modern client's own answers on a first request go to an upstream whose revision has
    // input_required (they may be its keys), no other.
    if (ctx.inputResponses !== undefined && route.client.revision.features.inputRequired) {
      overrides.inputResponses = ctx.inputResponses;
    }
    const opts = this.#options(ctx, route.client);
    // A caller that takes tasks lets the upstream answer a call with one (the extension's only method).
    if (method === "tools/call" && this.tasks.accepts(ctx)) opts.tasks = true;
    const result = await this.#request(route, method, callParams(params, overrides), opts, ctx);
    return opts.tasks ? this.tasks.created(route.server.name, result, ctx) : result;
  }

  async #complete(params: JSONObject, ctx: CallContext): Promise<Result> {
    const ref = params.ref as { type?: unknown; name?: unknown; uri?: unknown } | undefined;
    if (ref?.type === "ref/prompt") {
      const route = await this.#byName("prompts", ref.name);
      return this.#request(
        route,
        "completion/complete",
        callParams(params, { ref: { ...ref, name: route.original } }),
        this.#options(ctx, route.client),
        ctx,
      );
    }
    if (ref?.type === "ref/resource") {
      const route = await this.#byUri(ref.uri);
      return this.#request(
        route,
        "completion/complete",
        callParams(params, { ref: { ...ref, uri: route.original } }),
        this.#options(ctx, route.client),
        ctx,
      );
    }
    throw new InvalidParamsError(`completion/complete: ref must be a ref/prompt or a ref/resource`);
  }

  /** The call to the route's upstream; a child span of the request's when telemetry is on. */
  #request(
    route: Route,
    method: string,
    params: JSONObject,
    opts: RequestOptions,
    ctx: CallContext,
  ): Promise<Result> {
    if (ctx.span === undefined) return route.client.request(method, params, opts);
    return traced(ctx.span, route, method, params, opts);
  }

  /** Cancellation and progress travel with the call; the caller's authorization context keys private caching. */
  #options(ctx: CallContext, client: UpstreamClient): RequestOptions {
    // The call context travels with the request, so a question the upstream asks can go back to this caller.
    const opts = withCancellation({ authContext: ctx.peer.authContext, context: ctx }, ctx);
    // An upstream with no handshake (capabilities go with every request) is told, on this request,
    // only what can be answered for this caller.
    if (this.#perCaller && this.#handlers && !client.revision.features.initialize) {
      opts.capabilities = client.revision.capabilities(installedHandlers(this.#handlers, ctx));
    }
    if (ctx.progressToken !== undefined) {
      const token = ctx.progressToken;
      opts.onProgress = ({ progressToken: _upstreamToken, ...rest }) =>
        ctx.notify("notifications/progress", withKey(rest, "progressToken", token));
    }
    return opts;
  }
}

async function traced(
  span: RequestSpan,
  route: Route,
  method: string,
  params: JSONObject,
  opts: RequestOptions,
): Promise<Result> {
  const client = route.client;
  const call = span.upstreamCall(route.server.name, client.info.version, client.transport.kind);
  opts.trace = call.carrier;
  try {
    const result = await client.request(method, params, opts);
    call.end();
    return result;
  } catch (err) {
    call.end(err);
    throw err;
  }
}

/** Why an upstream cannot be asked: its last error (a retry in flight keeps it: that is the news). */
function unavailability(server: string, state: { status: string; error?: string }): string {
  if (state.status === "stopped") return `upstream ${server} is not connected: mcpx is stopping`;
  if (state.error) return `upstream ${server} is not connected: ${state.error}`;
  if (state.status === "connecting") return `upstream ${server} is still connecting`;
  return `upstream ${server} is not connected`;
}

const ROUTED: Record<string, true> = {
  "tools/call": true,
  "prompts/get": true,
  "resources/read": true,
  "completion/complete": true,
};

/**
 * The request's cancellation on an upstream call: the light one where the transport made it (its
 * AbortSignal is then never made on a call's path), else the signal.
 */
function withCancellation(opts: RequestOptions, ctx: CallContext): RequestOptions {
  if (ctx.cancellation) opts.cancellation = ctx.cancellation;
  else opts.signal = ctx.signal;
  return opts;
}
