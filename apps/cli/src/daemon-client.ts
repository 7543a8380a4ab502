/**
 * Talking to a running daemon's control API (/.mcpx/ on the configured listen address, with the
 * configured token), through @mcpx/http: one HTTP client (a keep-alive undici agent that sends the
 * token to the daemon's origin only) for every request, and its SSE reader for the streaming routes.
 * `reachable` tells whether one is running, quickly.
 */
import * as path from "node:path";
import { type ListenOnly, loadListen } from "@mcpx/config";
import { DEFAULT_UPSTREAM_SETTINGS } from "@mcpx/core";
import { discard, type HttpAnswer, HttpClient, type HttpMethod, readSse } from "@mcpx/http";
import { UnreachableError } from "./errors.js";
import type { MainIO } from "./io.js";

/** How the daemon is named in what the HTTP client reports (`upstream mcpx daemon: GET … failed`). */
const DAEMON = "mcpx daemon";

export class DaemonClient {
  readonly base: string;
  /** The config file the daemon was looked for from (its absolute path). */
  readonly configPath: string;
  readonly #token: string | undefined;
  readonly #http = new HttpClient(DAEMON);

  constructor(config: ListenOnly) {
    const host = config.listen.host.includes(":") ? `[${config.listen.host}]` : config.listen.host;
    this.base = `http://${host}:${config.listen.port}/.mcpx/`;
    this.configPath = config.path;
    this.#token = config.listen.token;
  }

  /**
   * The daemon of a config: only its `listen` is read (address and token), so the upstreams'
   * `${env:…}` secrets are neither needed nor expanded by a command that talks to the daemon.
   */
  static async forConfig(opts: { config: string }, io: MainIO): Promise<DaemonClient> {
    const config = await loadListen(
      path.resolve(io.cwd ?? process.cwd(), opts.config),
      io.env ? { env: io.env } : {},
    );
    return new DaemonClient(config);
  }

  /** The daemon of a config, once it answers; UnreachableError when none does. */
  static async reached(opts: { config: string }, io: MainIO): Promise<DaemonClient> {
    const daemon = await DaemonClient.forConfig(opts, io);
    if (await daemon.reachable(2000)) return daemon;
    throw new UnreachableError(`no daemon answers at ${daemon.base}`, "start one with `mcpx serve`");
  }

  /**
   * One request to a control route. No timeout unless `signal` says so: a call through the daemon
   * waits for a person to answer an elicitation, however long that takes.
   */
  #send(
    method: HttpMethod,
    route: string,
    extra: Record<string, string> = {},
    body?: string,
    signal?: AbortSignal,
  ): Promise<HttpAnswer> {
    const headers = this.#token ? { authorization: `Bearer ${this.#token}`, ...extra } : extra;
    return this.#http.send(method, new URL(route, this.base), headers, body, signal);
  }

  async reachable(timeoutMs = 500): Promise<boolean> {
    try {
      const res = await this.#send("GET", "status", {}, undefined, AbortSignal.timeout(timeoutMs));
      await discard(res.body);
      return res.status >= 200 && res.status < 300;
    } catch {
      return false;
    }
  }

  async get<T>(route: string): Promise<T> {
    return answer<T>(await this.#send("GET", route));
  }

  /** POSTs JSON and waits for the answer however long it takes. */
  async post<T>(route: string, body: unknown): Promise<T> {
    const res = await this.#send("POST", route, { "content-type": "application/json" }, JSON.stringify(body));
    return answer<T>(res);
  }

  /**
   * The items of a streaming route (SSE, one JSON item per event), as they come, until `signal`
   * aborts or the daemon ends it.
   */
  async *stream<T>(route: string, signal?: AbortSignal): AsyncGenerator<T> {
    const res = await this.#send("GET", route, { accept: "text/event-stream" }, undefined, signal);
    if (res.status !== 200) {
      await discard(res.body);
      throw new Error(`the daemon answered ${res.status} to ${route}`);
    }
    const items: T[] = [];
    let wake: (() => void) | undefined;
    let ended = false;
    let failure: unknown;
    readSse(
      res.body,
      {
        // An event with no data (a keep-alive, a primed id) carries no item.
        event: (e) => {
          if (e.data === "") return;
          items.push(JSON.parse(e.data) as T);
          wake?.();
        },
        retry: () => {},
        problem: () => {},
      },
      { upstream: DAEMON, maxEventBytes: DEFAULT_UPSTREAM_SETTINGS.maxFrameBytes },
    ).then(
      () => {
        ended = true;
        wake?.();
      },
      (err: unknown) => {
        failure = err;
        ended = true;
        wake?.();
      },
    );
    try {
      for (;;) {
        while (items.length > 0) yield items.shift() as T;
        if (ended) break;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    } finally {
      // The caller stopped early: the stream is of no more use.
      if (!ended) res.body.destroy();
    }
    if (failure !== undefined && !signal?.aborted) throw failure;
  }
}

/** An error the daemon answered a control request with: its message and the JSON-RPC code it carries. */
export class DaemonAnswerError extends Error {
  readonly code: number | undefined;
  /** The error's data, as the daemon sent it (a refused reload's problems). */
  readonly data: unknown;
  constructor(message: string, code: number | undefined, data?: unknown) {
    super(message);
    this.name = "DaemonAnswerError";
    this.code = code;
    this.data = data;
  }
}

/** A control answer: its JSON, or the error it carries thrown. */
async function answer<T>(res: HttpAnswer): Promise<T> {
  const text = await res.body.text();
  const body = text ? (JSON.parse(text) as unknown) : {};
  if (res.status < 200 || res.status > 299) {
    const error = (body as { error?: { message?: string; code?: unknown; data?: unknown } }).error;
    throw new DaemonAnswerError(
      error?.message ?? `HTTP ${res.status}`,
      typeof error?.code === "number" ? error.code : undefined,
      error?.data,
    );
  }
  return body as T;
}
