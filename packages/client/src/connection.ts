/**
 * UpstreamClient: mcpx's client of one upstream server. It picks the transport, runs the handshake
 * of the revision it is given (or the newest legacy one), and then serves requests through the
 * engine: resultType and input_required, pagination, server requests and notifications.
 */
import {
  type Cancellation,
  ConnectionClosedError,
  type ConnectionInfo,
  DEFAULT_UPSTREAM_SETTINGS,
  type FrameContext,
  type FrameMeta,
  type HandshakeContext,
  HeaderMismatchError,
  type HostHooks,
  type Implementation,
  InvalidResultError,
  isCreateTaskResult,
  type JSONObject,
  type JSONRPCMessage,
  type Logger,
  type LoggingLevel,
  MethodNotFoundError,
  type Negotiated,
  PluginError,
  type ProgressNotificationParams,
  type RegistryView,
  RequestTimeoutError,
  type Result,
  type Revision,
  type ServerWarning,
  SessionExpiredError,
  type Tool,
  type Transport,
  type TransportKind,
  transportCapabilities,
  UnsupportedVersionError,
  type UpstreamSettings,
  type UpstreamTarget,
  withKey,
  withTasksDeclared,
} from "@mcpx/core";
import { redactError } from "@mcpx/host";
import { ResultCache } from "./cache.js";
import { RequestEngine, type RequestOptions } from "./engine.js";
import { type ClientHandlers, installedHandlers, NO_HANDLERS } from "./handlers.js";
import { fulfilInputRequests, fulfilWithin, type InputScope } from "./input-required.js";
import { type LegacySession, LegacySubscriptions } from "./legacy-subscriptions.js";
import { type LeftOut, listScreen, showText } from "./list-screen.js";
import { collect, withCursor } from "./pagination.js";
import { ListedToolHeaders } from "./param-headers.js";
import { type HandshakeOptions, probeEra } from "./probe.js";
import { resultKind } from "./results.js";
import { ServerRequests } from "./server-requests.js";
import { Subscriptions } from "./subscriptions.js";
import { targetRedactor } from "./target-redactor.js";
import { type FollowTaskOptions, followTask, type TaskPoller } from "./tasks.js";

export const MCPX_CLIENT_INFO: Implementation = { name: "mcpx", version: "0.1.0" };

export interface ClientEnvironment {
  registry: RegistryView;
  hooks: HostHooks;
  log: Logger;
}

export interface UpstreamClientOptions {
  target: UpstreamTarget;
  env: ClientEnvironment;
  settings?: UpstreamSettings;
  clientInfo?: Implementation;
  handlers?: ClientHandlers;
  /** A revision pin: speak exactly this version (modern: discover with it; legacy: offer it). */
  revision?: string;
  /** A transport pin; otherwise the first registered transport that accepts the target. */
  transport?: TransportKind;
  /**
   * The log level asked for: logging/setLevel after the handshake to a legacy server that declared
   * logging, io.modelcontextprotocol/logLevel in every request's _meta to a modern one.
   */
  logLevel?: LoggingLevel;
}

export type NotificationListener = (params: JSONObject, method: string) => void;

export class UpstreamClient {
  readonly name: string;
  readonly settings: UpstreamSettings;
  readonly transport: Transport;
  readonly #env: ClientEnvironment;
  readonly #log: Logger;
  readonly #handlers: ClientHandlers;
  readonly #engine: RequestEngine;
  readonly #serverRequests: ServerRequests;
  readonly #listeners = new Map<string, Set<NotificationListener>>();
  readonly #closeListeners = new Set<(err?: Error) => void>();
  readonly #frameCtx: FrameContext;
  readonly #options: UpstreamClientOptions;
  #negotiated: Negotiated | undefined;
  #rehandshake: Promise<Negotiated> | undefined;
  #closed = false;
  readonly #cache = new ResultCache();
  readonly #subscriptions: Subscriptions;
  /** Resource subscriptions a modern server cannot take, through a legacy session (legacy-subscriptions.ts). */
  readonly #legacySubscriptions: LegacySubscriptions;
  /** x-mcp-header annotations of each listed tool, or why the tool was left out (none before a list). */
  #toolHeaders: ListedToolHeaders | undefined;
  #listingTools: Promise<unknown> | undefined;

  constructor(options: UpstreamClientOptions) {
    const { target, env } = options;
    this.#options = options;
    this.name = target.name;
    this.#env = env;
    this.#log = env.log.child({ upstream: target.name });
    this.settings = options.settings ?? DEFAULT_UPSTREAM_SETTINGS;
    this.#handlers = options.handlers ?? NO_HANDLERS;
    const factory = options.transport
      ? env.registry.transport(options.transport)
      : env.registry.transportFor(target);
    if (!factory) {
      const known = env.registry.transports().map((t) => t.kind);
      throw new PluginError(
        "(host)",
        options.transport
          ? `upstream ${target.name}: transport ${options.transport} is not installed (installed: ${known.join(", ") || "none"})`
          : `upstream ${target.name}: no installed transport can reach it (installed: ${known.join(", ") || "none"})`,
      );
    }
    this.transport = factory.create(target, {
      upstream: target.name,
      log: this.#log,
      settings: this.settings,
      sink: {
        message: (msg, meta) => this.#onMessage(msg, meta),
        requestFailed: (id, err) => this.#engine.fail(id, err),
        closed: (err) => this.#onClosed(err),
      },
    });
    const info: ConnectionInfo = {
      upstream: target.name,
      transport: this.transport.kind,
      version: "",
      clientInfo: options.clientInfo ?? MCPX_CLIENT_INFO,
      capabilities: {},
    };
    if (options.logLevel) info.logLevel = options.logLevel;
    this.#engine = new RequestEngine(
      {
        upstream: target.name,
        transport: this.transport,
        hooks: env.hooks,
        log: this.#log,
        settings: this.settings,
        // Every error a request fails with leaves without the target's credentials.
        redact: targetRedactor(target),
      },
      info,
    );
    this.#frameCtx = { upstream: target.name, version: undefined, transport: this.transport.kind };
    this.#serverRequests = new ServerRequests({
      upstream: target.name,
      handlers: this.#handlers,
      hooks: env.hooks,
      log: this.#log,
      revision: () => this.#engine.revision,
      version: () => this.#engine.info.version,
      respond: (msg) => this.#engine.respond(msg),
    });
    this.#subscriptions = new Subscriptions({
      log: this.#log,
      reopenDelay: this.settings.listenReopenDelay,
      capabilities: () => this.#negotiated?.serverCapabilities ?? {},
      request: (params, opts) => this.#engine.request("subscriptions/listen", params, opts),
      cancel: (id) => this.#engine.cancel(id, "subscription replaced"),
      release: (id) =>
        this.#engine.release(
          id,
          new ConnectionClosedError(`upstream ${target.name}: the server ended the listen`),
        ),
      warn: (message) => this.#warn(message),
      closed: () => this.#closed,
    });
    this.#legacySubscriptions = new LegacySubscriptions({
      upstream: target.name,
      open: (updated, closed) => this.#openLegacySession(updated, closed),
      updated: (params) => this.#emit("notifications/resources/updated", params),
      warn: (message) => this.#warn(message),
      reopenDelay: this.settings.listenReopenDelay,
    });
  }

  /** Creates the client, opens its transport and runs the handshake. */
  static async connect(options: UpstreamClientOptions): Promise<UpstreamClient> {
    const client = new UpstreamClient(options);
    try {
      await client.open();
    } catch (err) {
      await client.close();
      // What opening the transport raised (an HTTP+SSE GET's error body) may quote the credentials too.
      const clean = targetRedactor(options.target);
      throw clean ? redactError(err, clean) : err;
    }
    return client;
  }

  get negotiated(): Negotiated {
    if (!this.#negotiated) throw new ConnectionClosedError(`upstream ${this.name} is not connected`);
    return this.#negotiated;
  }

  get revision(): Revision {
    return this.negotiated.revision;
  }

  get info(): Readonly<ConnectionInfo> {
    return this.#engine.info;
  }

  /** Opens the transport and negotiates: the pinned revision, or the era probe. */
  async open(): Promise<Negotiated> {
    await this.transport.open();
    const registry = this.#env.registry;
    const pin = this.#options.revision;
    if (!pin) return probeEra(this, registry, this.settings.probeTimeout, this.#log);
    const pinned = registry.revision(pin);
    if (!pinned)
      throw new UnsupportedVersionError(
        pin,
        registry.revisions().map((x) => x.version),
      );
    return this.handshake(pinned);
  }

  /** Runs `revision`'s handshake and, on success, makes the negotiated revision current. */
  async handshake(revision: Revision, opts: HandshakeOptions = {}): Promise<Negotiated> {
    const engine = this.#engine;
    engine.revision = revision;
    engine.info.version = revision.version;
    const installed = installedHandlers(this.#handlers);
    engine.info.capabilities = revision.capabilities(installed);
    const ctx: HandshakeContext = {
      upstream: this.name,
      transport: this.transport.kind,
      clientInfo: engine.info.clientInfo,
      handlers: installed,
      settings: this.settings,
      request: (method, params, o) =>
        engine.request(method, params, {
          raw: true,
          timeout: opts.timeout ?? this.settings.handshakeTimeout,
          cancellable: opts.cancellable ?? o?.cancellable ?? true,
        }),
      notify: (method, params) => engine.notify(method, params),
      resolve: (version) => {
        const r = this.#env.registry.revision(version);
        if (!r || r.era !== revision.era) {
          throw new UnsupportedVersionError(
            version,
            this.#env.registry.revisions(revision.era).map((x) => x.version),
          );
        }
        return r;
      },
      spoken: () => this.#env.registry.revisions().map((r) => r.version),
      agreed: (r, version) => {
        engine.revision = r;
        engine.info.version = version;
        engine.info.capabilities = r.capabilities(installed);
      },
    };
    const negotiated = await revision.handshake(ctx);
    engine.revision = negotiated.revision;
    engine.info.version = negotiated.version;
    engine.info.capabilities = negotiated.revision.capabilities(installed);
    this.#negotiated = negotiated;
    this.#frameCtx.version = negotiated.version;
    this.transport.negotiated({
      version: negotiated.version,
      era: negotiated.revision.era,
      features: negotiated.revision.features,
    });
    this.#log.debug("negotiated", { revision: negotiated.version, transport: this.transport.kind });
    this.#cache.clear();
    this.#toolHeaders = undefined;
    if (negotiated.revision.features.subscriptionsListen) this.#subscriptions.start();
    this.#askLogLevel(negotiated);
    return negotiated;
  }

  /**
   * The log level asked for (the daemon asks every upstream for info). A legacy server that declared
   * `logging` is sent logging/setLevel once the handshake is done, and again after a new session (it
   * forgot the old one's); a modern one reads the level from every request's _meta and is sent
   * nothing (2026-07-28 removed logging/setLevel). Not awaited: a connection does not wait on a log
   * level, and a refusal is only logged.
   */
  #askLogLevel(negotiated: Negotiated): void {
    const level = this.#engine.info.logLevel;
    if (!level || !negotiated.revision.features.setLevel) return;
    if (negotiated.serverCapabilities.logging === undefined) return;
    this.#engine.request("logging/setLevel", { level }).catch((err: Error) => {
      if (!this.#closed) this.#log.warn("logging/setLevel failed", { level, error: err.message });
    });
  }

  /**
   * Sends a request and returns its complete result. An input_required result is fulfilled by the
   * handlers and the request sent again (new id, inputResponses, requestState echoed), up to
   * settings.maxInputRounds rounds. A revision without input_required retries (legacy) never gets
   * those keys sent to it: the result is returned as it came, recognisably not complete.
   */
  async request(method: string, params?: JSONObject, opts: RequestOptions = {}): Promise<Result> {
    // The tasks extension is declared per request, where capabilities travel with each one.
    if (opts.tasks && !this.revision.features.initialize) {
      opts = {
        ...opts,
        capabilities: withTasksDeclared(opts.capabilities ?? this.#engine.info.capabilities),
      };
    }
    const cacheKey = ResultCache.key(method, params);
    const auth = opts.authContext ?? "";
    if (cacheKey && !opts.refresh) {
      const hit = this.#cache.get(cacheKey, auth);
      if (hit) return hit;
    }
    const rounds = { retried: false };
    const result =
      method === "tools/call" && this.#mirrorsParams()
        ? await this.#callTool(params, opts)
        : await this.#rounds(method, params, opts, rounds);
    // The answer to a retry carrying inputResponses or requestState depends on inputs that are not
    // part of the key: it is never cached, whatever ttlMs it carries.
    if (cacheKey && !rounds.retried) this.#cache.set(cacheKey, method, params, result, auth);
    return result;
  }

  /** Whether `request(method, params)` would be answered from the cache now (for this caller). */
  isCached(method: string, params: JSONObject | undefined, authContext = ""): boolean {
    const key = ResultCache.key(method, params);
    return key !== undefined && this.#cache.get(key, authContext) !== undefined;
  }

  /**
   * x-mcp-header applies on a modern connection whose transport carries headers (HTTP) only; over
   * stdio and in legacy revisions it is ignored. The transport's declaration says, never its kind.
   */
  #mirrorsParams(): boolean {
    return this.revision.features.paramHeaders && transportCapabilities(this.transport).headers;
  }

  /**
   * Leaves out tools with an invalid x-mcp-header (a server.warning names each) and records the
   * annotations of the rest, as the revision reads them.
   */
  #screenTools(tools: Tool[]): Tool[] {
    const listed = new ListedToolHeaders(this.revision.toolHeaders);
    const kept = listed.screen(tools, (tool, reason) => {
      const item = showText(tool.name, 80);
      this.#warn(`tool ${item} left out: ${reason}`, { tool: item, list: "tools", item, reason });
    });
    this.#toolHeaders = listed;
    return kept;
  }

  /**
   * tools/call with its Mcp-Param-* headers. A connection that has not listed tools lists them once
   * first (the annotations come from the list); -32020 means the schema likely changed since: list
   * again and retry once.
   */
  async #callTool(params: JSONObject | undefined, opts: RequestOptions): Promise<Result> {
    const name = typeof params?.name === "string" ? params.name : "";
    if (!this.#toolHeaders) await this.#relistTools(opts);
    try {
      return await this.#rounds(
        "tools/call",
        params,
        withKey(opts, "headers", this.#paramHeaders(name, params)),
      );
    } catch (err) {
      if (!(err instanceof HeaderMismatchError)) throw err;
      this.#log.info("tools/call got -32020; listing tools again and retrying once", { tool: name });
      await this.#relistTools(opts);
      return this.#rounds("tools/call", params, withKey(opts, "headers", this.#paramHeaders(name, params)));
    }
  }

  #relistTools(opts: RequestOptions): Promise<unknown> {
    if (this.#listingTools) return this.#listingTools;
    // Before listing, not after: the first page is looked up in the cache as the list starts, and a
    // cached list is the very schema the server just said is out of date.
    this.#cache.invalidate("notifications/tools/list_changed", {});
    this.#listingTools = this.list("tools/list", "tools", undefined, {
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.cancellation ? { cancellation: opts.cancellation } : {}),
    })
      .catch((err: Error) => this.#log.warn("could not list tools for x-mcp-header", { error: err.message }))
      .finally(() => {
        this.#listingTools = undefined;
      });
    return this.#listingTools;
  }

  #paramHeaders(name: string, params: JSONObject | undefined): Record<string, string> | undefined {
    return this.#toolHeaders?.forCall(name, params?.arguments as JSONObject | undefined);
  }

  #warn(message: string, extra: Omit<ServerWarning, "upstream" | "message"> = {}): void {
    const warning: ServerWarning = { upstream: this.name, message, ...extra };
    // Only the hook: its built-in tap (@mcpx/host) publishes the `server.warning` event.
    this.#env.hooks.serverWarning.call(warning);
  }

  /** The rounds of one request: input_required is fulfilled and the request sent again. */
  async #rounds(
    method: string,
    params: JSONObject | undefined,
    opts: RequestOptions,
    trace: { retried: boolean } = { retried: false },
  ): Promise<Result> {
    let current = params;
    let roundOpts = opts;
    // The maximum total bounds the whole request: every round, and the questions answered between
    // them (read only where a revision has rounds: nothing more on a legacy call's path).
    const startedAt = this.revision.features.inputRequired ? Date.now() : 0;
    for (let round = 0; ; round++) {
      if (round > 0) trace.retried = true;
      const result = await this.#send(method, current, roundOpts);
      const kind = resultKind(method, result, opts.tasks === true);
      if (kind !== "input_required" || !this.revision.features.inputRequired) return result;
      if (round + 1 >= this.settings.maxInputRounds) {
        throw new InvalidResultError(`${method}: the server still asked for input after ${round + 1} rounds`);
      }
      const scope = this.#inputScope(params === undefined ? { method } : { method, params }, opts);
      const maxTotal = opts.maxTotalTimeout ?? this.settings.maxTotalTimeout;
      const left = () => maxTotal - (Date.now() - startedAt);
      const expired = () => {
        const afterMs = Date.now() - startedAt;
        return new RequestTimeoutError(
          `${method} to upstream ${this.name} timed out after ${afterMs} ms (its maximum total of ${maxTotal} ms) while the server's input requests were answered`,
          { timeout: maxTotal, afterMs },
        );
      };
      const responses = await fulfilWithin(result.inputRequests, scope, left(), expired);
      current = { ...params, inputResponses: responses };
      if (typeof result.requestState === "string") current.requestState = result.requestState;
      const rest = left();
      if (rest <= 0) throw expired();
      roundOpts = withKey(opts, "maxTotalTimeout", rest);
    }
  }

  /**
   * One request through the engine. A Streamable HTTP session the server forgot (404 to a request
   * carrying its id) is started again with the handshake, and the request sent once more. A request
   * made while that handshake is in flight waits for it: sent without a session, the server would
   * refuse it as coming before initialize.
   */
  async #send(method: string, params: JSONObject | undefined, opts: RequestOptions): Promise<Result> {
    if (this.#rehandshake) await this.#rehandshake;
    try {
      return await this.#engine.request(method, params, opts);
    } catch (err) {
      if (!(err instanceof SessionExpiredError)) throw err;
      this.#log.info("session expired; starting a new one", { method });
      this.#rehandshake ??= this.handshake(this.revision).finally(() => {
        this.#rehandshake = undefined;
      });
      await this.#rehandshake;
      return this.#engine.request(method, params, opts);
    }
  }

  notify(method: string, params?: JSONObject): Promise<void> {
    return this.#engine.notify(method, params);
  }

  /**
   * Every item of a paginated list, all pages. The four lists of a server (tools, prompts,
   * resources, resource templates) come screened: an item the revision's schema or mcpx's rules
   * reject, or a second one with the same name or URI, is left out with a server.warning.
   */
  async list<T = JSONObject>(
    method: string,
    key: string,
    params?: JSONObject,
    opts?: RequestOptions,
  ): Promise<T[]> {
    const screen = listScreen(method, {
      revision: () => this.revision,
      settings: this.settings,
      log: this.#log,
      leftOut: (w) => this.#leftOut(w),
    });
    const items = await collect<T>(
      (cursor) => this.request(method, withCursor(params, cursor), opts),
      () => this.revision,
      key,
      screen,
    );
    if (method === "tools/list" && this.#mirrorsParams()) return this.#screenTools(items as Tool[]) as T[];
    return items;
  }

  #leftOut(w: LeftOut): void {
    const extra: Omit<ServerWarning, "upstream" | "message"> = { list: w.list, reason: w.reason };
    if (w.item) {
      extra.item = w.item;
      if (w.list === "tools") extra.tool = w.item;
    }
    this.#warn(w.message, extra);
  }

  listTools(opts?: RequestOptions) {
    return this.list("tools/list", "tools", undefined, opts);
  }

  listPrompts(opts?: RequestOptions) {
    return this.list("prompts/list", "prompts", undefined, opts);
  }

  listResources(opts?: RequestOptions) {
    return this.list("resources/list", "resources", undefined, opts);
  }

  listResourceTemplates(opts?: RequestOptions) {
    return this.list("resources/templates/list", "resourceTemplates", undefined, opts);
  }

  /**
   * tasks/get, tasks/update and tasks/cancel on this connection, each declaring the tasks extension
   * (the server refuses them otherwise): what followTask polls.
   */
  taskPoller(opts: RequestOptions = {}): TaskPoller {
    const withSignal = (signal?: AbortSignal): RequestOptions => ({
      ...opts,
      tasks: true,
      ...(signal ? { signal } : {}),
    });
    return {
      get: (taskId, signal) => this.request("tasks/get", { taskId }, withSignal(signal)),
      update: (taskId, inputResponses, signal) =>
        this.request("tasks/update", { taskId, inputResponses }, withSignal(signal)),
      cancel: (taskId) => this.request("tasks/cancel", { taskId }, withSignal()),
    };
  }

  /** A task's input requests, answered by this connection's handlers (as an input_required round's). */
  answerInputRequests(
    inputRequests: Record<string, JSONObject>,
    related: { method: string; params?: JSONObject },
    opts: { signal?: AbortSignal; context?: unknown } = {},
  ): Promise<Record<string, JSONObject>> {
    return fulfilInputRequests(inputRequests, this.#inputScope(related, opts));
  }
  /** What answering a server's input requests needs: this connection's handlers and hooks. */
  #inputScope(
    related: { method: string; params?: JSONObject },
    opts: { signal?: AbortSignal; cancellation?: Cancellation; context?: unknown },
  ): InputScope {
    return {
      upstream: this.name,
      handlers: this.#handlers,
      hooks: this.#env.hooks,
      revision: this.revision,
      version: this.#engine.info.version,
      signal: signalOf(opts) ?? new AbortController().signal,
      related,
      ...(opts.context === undefined ? {} : { caller: opts.context }),
    };
  }

  /**
   * A tool's result, following a task to it: the call declares the tasks extension, and a
   * CreateTaskResult is polled (followTask) until the task ends; its input requests are answered by
   * this connection's handlers.
   */
  async callToolFollowing(
    name: string,
    args?: JSONObject,
    opts: RequestOptions & { follow?: Omit<FollowTaskOptions, "signal" | "answer"> } = {},
  ): Promise<Result> {
    const { follow, ...requestOpts } = opts;
    const params = args === undefined ? { name } : { name, arguments: args };
    const first = await this.request("tools/call", params, { ...requestOpts, tasks: true });
    if (!isCreateTaskResult(first)) return first;
    const signal = signalOf(requestOpts);
    return followTask(this.taskPoller(requestOpts), first, {
      ...follow,
      ...(signal ? { signal } : {}),
      answer: (inputRequests) =>
        this.answerInputRequests(
          inputRequests,
          { method: "tools/call", params },
          {
            ...(signal ? { signal } : {}),
            ...(requestOpts.context === undefined ? {} : { context: requestOpts.context }),
          },
        ),
    });
  }

  callTool(name: string, args?: JSONObject, opts?: RequestOptions): Promise<Result> {
    return this.request("tools/call", args === undefined ? { name } : { name, arguments: args }, opts);
  }

  getPrompt(name: string, args?: Record<string, string>, opts?: RequestOptions): Promise<Result> {
    return this.request("prompts/get", args === undefined ? { name } : { name, arguments: args }, opts);
  }

  readResource(uri: string, opts?: RequestOptions): Promise<Result> {
    return this.request("resources/read", { uri }, opts);
  }

  complete(params: JSONObject, opts?: RequestOptions): Promise<Result> {
    return this.request("completion/complete", params, opts);
  }

  /** A liveness check: ping where the revision has it, server/discover where it does not. */
  ping(opts?: RequestOptions): Promise<Result> {
    return this.revision.features.ping
      ? this.request("ping", undefined, opts)
      : this.request("server/discover", undefined, opts);
  }

  /** Legacy: logging/setLevel. Modern: the level travels in every later request's _meta. */
  async setLogLevel(level: LoggingLevel): Promise<void> {
    this.#engine.info.logLevel = level;
    if (this.revision.features.setLevel) await this.request("logging/setLevel", { level });
  }

  /** Listens to notifications of one method ("*" for all); returns the function that stops it. */
  onNotification(method: string, listener: NotificationListener): () => void {
    let set = this.#listeners.get(method);
    if (!set) {
      set = new Set();
      this.#listeners.set(method, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  /**
   * Subscribes to a resource's updates: resources/subscribe (legacy) or the listen filter (modern).
   * A modern server that declares no resources.subscribe is asked through a legacy session of the
   * same URL where that session declares it (legacy-subscriptions.ts); otherwise MethodNotFoundError.
   */
  async subscribeResource(uri: string, opts?: RequestOptions): Promise<void> {
    if (!this.revision.features.subscriptionsListen) {
      await this.request("resources/subscribe", { uri }, opts);
    } else if (this.negotiated.serverCapabilities.resources?.subscribe === true) {
      this.#subscriptions.subscribe(uri);
    } else if (this.#options.target.url !== undefined) {
      await this.#legacySubscriptions.subscribe(uri);
    } else {
      throw new MethodNotFoundError(`upstream ${this.name} does not support resource subscriptions`);
    }
  }

  async unsubscribeResource(uri: string, opts?: RequestOptions): Promise<void> {
    if (!this.revision.features.subscriptionsListen) {
      await this.request("resources/unsubscribe", { uri }, opts);
    } else if (this.#legacySubscriptions.uris.has(uri)) {
      await this.#legacySubscriptions.unsubscribe(uri);
    } else {
      this.#subscriptions.unsubscribe(uri);
    }
  }

  /** The URIs subscribed through the legacy session of a modern connection (for tests and status). */
  get legacySubscriptions(): ReadonlySet<string> {
    return this.#legacySubscriptions.uris;
  }

  /** A connection of the newest legacy revision to the same upstream, for subscriptions only. */
  async #openLegacySession(
    updated: (params: JSONObject) => void,
    closed: () => void,
  ): Promise<LegacySession> {
    const legacy = this.#env.registry.revisions("legacy")[0];
    if (!legacy) throw new MethodNotFoundError(`upstream ${this.name}: no legacy revision is installed`);
    const { handlers: _none, logLevel: _unasked, ...options } = this.#options;
    const client = await UpstreamClient.connect({ ...options, revision: legacy.version });
    if (this.#closed) {
      await client.close();
      throw new ConnectionClosedError(`upstream ${this.name}: connection closed`);
    }
    client.onNotification("notifications/resources/updated", (params) => updated(params));
    client.onClose(() => closed());
    this.#log.info("resource subscriptions go through a legacy session", {
      revision: client.negotiated.version,
    });
    return {
      version: client.negotiated.version,
      subscribes: () => client.negotiated.serverCapabilities.resources?.subscribe === true,
      subscribe: (uri) => client.subscribeResource(uri),
      unsubscribe: (uri) => client.unsubscribeResource(uri),
      close: () => client.close(),
    };
  }

  /** The open subscriptions/listen request's id (modern), for tests and diagnostics. */
  get listenId(): string | number | undefined {
    return this.#subscriptions.listenId;
  }

  onClose(listener: (err?: Error) => void): () => void {
    this.#closeListeners.add(listener);
    return () => this.#closeListeners.delete(listener);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Requests in flight, the long-lived subscriptions/listen aside: what a graceful close (a reload
   * removing this upstream) waits for.
   */
  get busy(): number {
    return this.#engine.pendingCount - (this.#subscriptions.listenId === undefined ? 0 : 1);
  }

  /** Closes the connection; the requests still in flight fail with `reason` (by default: connection closed). */
  async close(reason?: Error): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#subscriptions.stop();
    const legacy = this.#legacySubscriptions.close();
    this.#engine.close(reason ?? new ConnectionClosedError(`upstream ${this.name}: connection closed`));
    this.#serverRequests.abortAll();
    await Promise.all([legacy, this.transport.close()]);
  }

  #onMessage(msg: JSONRPCMessage, meta: FrameMeta): void {
    const hooks = this.#env.hooks;
    if (hooks.incomingFrame.isUsed()) hooks.incomingFrame.call(msg, this.#frameCtx);
    if (!("method" in msg)) {
      // An error with a null id on a POST's answer (e.g. "server not initialized") answers that POST's request.
      const via = meta.via;
      const answer =
        msg.id === null && via.kind === "post" && via.requestId !== undefined
          ? { ...msg, id: via.requestId }
          : msg;
      if (!this.#engine.handleResponse(answer)) {
        this.#log.debug("response to no pending request (late or unknown)", { id: msg.id });
      }
      return;
    }
    if ("id" in msg) {
      if (this.#negotiated && !this.#negotiated.revision.features.serverRequests) {
        // A modern server never sends requests (it asks through input_required), and a modern client never writes responses.
        this.#log.warn(
          `ignored a ${msg.method} request: servers of ${this.#negotiated.version} ask through input_required`,
        );
        return;
      }
      const via = meta.via;
      this.#serverRequests.handle(
        msg,
        this.#engine.relatedTo(via.kind === "post" ? via.requestId : undefined),
      );
      return;
    }
    const params = msg.params ?? {};
    this.#cache.invalidate(msg.method, params);
    if (
      this.#negotiated?.revision.features.subscriptionsListen &&
      this.#subscriptions.intercept(msg.method, params)
    ) {
      return;
    }
    switch (msg.method) {
      case "notifications/progress":
        this.#engine.handleProgress(params as unknown as ProgressNotificationParams);
        break;
      case "notifications/cancelled":
        this.#serverRequests.cancelled((params as { requestId: string | number }).requestId);
        break;
      case "notifications/elicitation/complete": {
        const id = (params as { elicitationId?: unknown }).elicitationId;
        if (typeof id === "string") {
          for (const h of this.#handlers.elicitation) h.complete?.(id, { upstream: this.name });
        }
        break;
      }
    }
    this.#emit(msg.method, params);
  }

  #emit(method: string, params: JSONObject): void {
    for (const key of [method, "*"]) {
      const set = this.#listeners.get(key);
      if (!set) continue;
      for (const fn of set) {
        try {
          fn(params, method);
        } catch (err) {
          this.#log.warn("notification listener threw", { method, error: (err as Error).message });
        }
      }
    }
  }

  #onClosed(err?: Error): void {
    const error = err ?? new ConnectionClosedError(`upstream ${this.name}: connection closed`);
    this.#engine.close(error);
    this.#serverRequests.abortAll();
    const wasClosed = this.#closed;
    this.#closed = true;
    if (wasClosed) return;
    for (const fn of this.#closeListeners) fn(err);
  }
}

/** The request's AbortSignal: the one given, else one made from its cancellation (only when read). */
function signalOf(opts: { signal?: AbortSignal; cancellation?: Cancellation }): AbortSignal | undefined {
  return opts.signal ?? opts.cancellation?.signal;
}
