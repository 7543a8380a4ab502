/**
 * subscriptions/listen (2026-07-28): one stream per modern connection, asking only for what the
 * server declared, with the subscribed resource URIs when it declared resources.subscribe.
 * Notifications are matched by _meta subscriptionId: a replaced stream's are dropped, untagged ones
 * pass. Subscribing replaces the stream (the old one ended the way the transport requires); a stream
 * the server ends, by a response or by notifications/cancelled, is reopened after listenReopenDelay.
 */
import {
  ConnectionClosedError,
  type JSONObject,
  type Logger,
  MetaKey,
  type RequestId,
  type Result,
  type ServerCapabilities,
} from "@mcpx/core";
import type { RequestOptions } from "./engine.js";

export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

export interface ListenScope {
  log: Logger;
  reopenDelay: number;
  capabilities(): ServerCapabilities;
  request(params: JSONObject, opts: RequestOptions): Promise<Result>;
  /** Ends a listen by the revision's rule: closes its stream (HTTP) or notifications/cancelled (stdio). */
  cancel(id: RequestId): void;
  /** Lets go of a listen the server ended: no longer pending, its stream closed, nothing sent. */
  release(id: RequestId): void;
  warn(message: string): void;
  closed(): boolean;
}

interface Stream {
  id: RequestId | undefined;
  filter: SubscriptionFilter;
  ended: boolean;
}

export class Subscriptions {
  readonly #scope: ListenScope;
  readonly #uris = new Set<string>();
  /** Ids of streams mcpx replaced or that ended: their notifications are dropped. */
  readonly #stale = new Set<RequestId>();
  #current: Stream | undefined;
  #reopen: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(scope: ListenScope) {
    this.#scope = scope;
  }

  get uris(): ReadonlySet<string> {
    return this.#uris;
  }

  /** The id of the open listen request, if any. */
  get listenId(): RequestId | undefined {
    return this.#current?.id;
  }

  /** What to ask for: only what the server declared. */
  filter(): SubscriptionFilter {
    const caps = this.#scope.capabilities();
    const f: SubscriptionFilter = {};
    if (caps.tools?.listChanged === true) f.toolsListChanged = true;
    if (caps.prompts?.listChanged === true) f.promptsListChanged = true;
    if (caps.resources?.listChanged === true) f.resourcesListChanged = true;
    if (caps.resources?.subscribe === true && this.#uris.size > 0) f.resourceSubscriptions = [...this.#uris];
    return f;
  }

  /** Opens the stream if there is anything to listen for (replacing any open one). */
  start(): void {
    this.#stopped = false;
    this.#replace();
  }

  subscribe(uri: string): void {
    if (this.#uris.has(uri)) return;
    this.#uris.add(uri);
    this.#refresh();
  }

  unsubscribe(uri: string): void {
    if (!this.#uris.delete(uri)) return;
    this.#refresh();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#reopen) clearTimeout(this.#reopen);
    this.#end(this.#current);
    this.#current = undefined;
  }

  /** Replaces the stream when the filter changed (a URI the server cannot subscribe to changes nothing). */
  #refresh(): void {
    const current = this.#current;
    if (current && !current.ended && JSON.stringify(current.filter) === JSON.stringify(this.filter())) return;
    this.#replace();
  }

  #replace(): void {
    if (this.#reopen) {
      clearTimeout(this.#reopen);
      this.#reopen = undefined;
    }
    this.#end(this.#current);
    this.#current = undefined;
    if (this.#stopped || this.#scope.closed()) return;
    const filter = this.filter();
    if (Object.keys(filter).length === 0) return;
    this.#open(filter);
  }

  #end(stream: Stream | undefined): void {
    if (!stream || stream.ended) return;
    stream.ended = true;
    if (stream.id !== undefined) {
      this.#stale.add(stream.id);
      this.#scope.cancel(stream.id);
    }
  }

  #open(filter: SubscriptionFilter): void {
    const stream: Stream = { id: undefined, filter, ended: false };
    this.#current = stream;
    this.#scope
      .request(
        { notifications: filter as JSONObject },
        {
          timeout: Number.POSITIVE_INFINITY,
          maxTotalTimeout: Number.POSITIVE_INFINITY,
          onId: (id) => {
            stream.id = id;
          },
        },
      )
      .then(
        () => this.#serverEnded(stream, "the server ended it"),
        (err: Error) => {
          if (stream.ended || this.#scope.closed()) return;
          // A dropped stream (HTTP closed without a response) ends it too; a dead connection does not reopen.
          if (err instanceof ConnectionClosedError && this.#scope.closed()) return;
          this.#serverEnded(stream, err.message);
        },
      );
  }

  #serverEnded(stream: Stream, why: string): void {
    if (stream.ended || this.#current !== stream) return;
    stream.ended = true;
    if (stream.id !== undefined) {
      this.#stale.add(stream.id);
      // Ended by notifications/cancelled, the request is still pending and its HTTP stream open: no
      // response will come, so neither is kept (a request the server answered is not pending).
      this.#scope.release(stream.id);
    }
    this.#current = undefined;
    if (this.#stopped || this.#scope.closed()) return;
    this.#scope.log.debug("subscriptions/listen ended; reopening", { reason: why });
    this.#reopen = setTimeout(() => {
      this.#reopen = undefined;
      if (!this.#current) this.#replace();
    }, this.#scope.reopenDelay);
    this.#reopen.unref?.();
  }

  /**
   * Looks at a notification first. Returns true when it is consumed here (an acknowledgement, a
   * stale stream's notification, the server ending the listen) and must not be passed on.
   */
  intercept(method: string, params: JSONObject): boolean {
    const current = this.#current;
    if (method === "notifications/cancelled") {
      const requestId = params.requestId;
      if (current && requestId === current.id) {
        // The server ending the stream this way is harmless: treat it as ended and reopen.
        this.#serverEnded(current, "the server cancelled it");
        return true;
      }
      return requestId !== undefined && this.#stale.has(requestId as RequestId);
    }
    const meta = params._meta as JSONObject | undefined;
    const sid = meta?.[MetaKey.subscriptionId];
    if (sid === undefined) return false;
    if (!current || !sameId(sid, current.id)) {
      this.#scope.log.debug("dropped a notification of a replaced subscription", {
        method,
        subscriptionId: sid,
      });
      return true;
    }
    if (method === "notifications/subscriptions/acknowledged") {
      this.#compare(current.filter, (params.notifications ?? {}) as SubscriptionFilter);
      return true;
    }
    return false;
  }

  /** Reports as a server warning whatever the acknowledgement declined. */
  #compare(asked: SubscriptionFilter, acked: SubscriptionFilter): void {
    const declined: string[] = [];
    for (const key of ["toolsListChanged", "promptsListChanged", "resourcesListChanged"] as const) {
      if (asked[key] && acked[key] !== true) declined.push(key);
    }
    const ackedUris = new Set(acked.resourceSubscriptions ?? []);
    for (const uri of asked.resourceSubscriptions ?? []) {
      if (!ackedUris.has(uri)) declined.push(`resourceSubscriptions ${uri}`);
    }
    if (declined.length > 0) {
      this.#scope.warn(`subscriptions/listen: the server declined ${declined.join(", ")}`);
    }
  }
}

/**
 * Whether a notification's subscriptionId names the listen with this id. The spec's value is the
 * listen's JSON-RPC id itself; the suite's reference server sends a numeric id as a string ("5" for
 * 5). mcpx minted the id, so the string form of its own number names nothing else: it is taken too.
 */
function sameId(sid: unknown, id: RequestId | undefined): boolean {
  if (id === undefined) return false;
  return sid === id || (typeof id === "number" && sid === String(id));
}
