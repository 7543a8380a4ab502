/**
 * A per-capability fallback: resource subscriptions through a legacy session, for a modern upstream
 * whose server/discover declares no resources.subscribe. One era per upstream is otherwise the rule;
 * an upstream that serves both eras at one URL may be thin in its modern mode (the suite's reference
 * server declares `resources: {}` there, and offers resources/subscribe on an initialize session).
 *
 * The session is opened on the first subscription and only for subscriptions: the newest legacy
 * revision, no sampling or elicitation handlers, no log level; of what it hears only
 * notifications/resources/updated is passed on. It is kept while the connection lives and closed
 * with it; one that ends before is opened again after `reopenDelay`, with the same subscriptions. Only where a second connection reaches the same server (a URL; a command would start
 * another process with other state). A legacy session that does not declare resources.subscribe
 * either leaves the refusal standing.
 */
import { type JSONObject, MethodNotFoundError } from "@mcpx/core";

/** What the fallback needs of a connection: a legacy one of the same upstream, its own. */
export interface LegacySession {
  readonly version: string;
  subscribes(): boolean;
  subscribe(uri: string): Promise<void>;
  unsubscribe(uri: string): Promise<void>;
  close(): Promise<void>;
}

export interface LegacySubscriptionsParts {
  upstream: string;
  /** Opens the legacy session; `updated` gets its notifications/resources/updated, `closed` its end. */
  open(updated: (params: JSONObject) => void, closed: () => void): Promise<LegacySession>;
  updated(params: JSONObject): void;
  warn(message: string): void;
  /** Wait before opening a session that ended again (upstream.listenReopenDelay). */
  reopenDelay: number;
}

export class LegacySubscriptions {
  readonly #parts: LegacySubscriptionsParts;
  readonly #uris = new Set<string>();
  #session: Promise<LegacySession> | undefined;
  #reopen: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(parts: LegacySubscriptionsParts) {
    this.#parts = parts;
  }

  /** The URIs subscribed through the legacy session (for tests and status). */
  get uris(): ReadonlySet<string> {
    return this.#uris;
  }

  async subscribe(uri: string): Promise<void> {
    const none = `upstream ${this.#parts.upstream} does not support resource subscriptions: its server/discover declares no resources.subscribe`;
    let session: LegacySession;
    try {
      session = await this.#open();
    } catch (err) {
      throw new MethodNotFoundError(
        `${none}, and no legacy session could be opened (${(err as Error).message})`,
      );
    }
    if (!session.subscribes()) {
      throw new MethodNotFoundError(`${none}, and neither does its ${session.version} session`);
    }
    await session.subscribe(uri);
    this.#uris.add(uri);
  }

  async unsubscribe(uri: string): Promise<void> {
    if (!this.#uris.delete(uri) || !this.#session) return;
    await (await this.#session).unsubscribe(uri);
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#reopen) clearTimeout(this.#reopen);
    const session = this.#session;
    this.#session = undefined;
    this.#uris.clear();
    if (session) await session.then((s) => s.close()).catch(() => {});
  }

  #open(): Promise<LegacySession> {
    if (this.#closed)
      return Promise.reject(new MethodNotFoundError(`upstream ${this.#parts.upstream} is closed`));
    if (this.#session) return this.#session;
    const opening = this.#parts.open(
      (params) => this.#parts.updated(params),
      () => {
        if (this.#session !== opening || this.#closed) return;
        // The session went away with its subscriptions: a new one takes them up again.
        this.#session = undefined;
        if (this.#uris.size > 0) this.#scheduleReopen();
      },
    );
    this.#session = opening;
    // A session that could not be opened is not kept: the next subscription tries again.
    opening.catch(() => {
      if (this.#session === opening) this.#session = undefined;
    });
    return opening;
  }

  #scheduleReopen(): void {
    if (this.#reopen || this.#closed) return;
    this.#reopen = setTimeout(() => {
      this.#reopen = undefined;
      const uris = [...this.#uris];
      this.#uris.clear();
      for (const uri of uris) {
        this.subscribe(uri).catch((err: Error) =>
          this.#parts.warn(`could not subscribe again to ${uri} through a legacy session: ${err.message}`),
        );
      }
    }, this.#parts.reopenDelay);
    this.#reopen.unref?.();
  }
}
