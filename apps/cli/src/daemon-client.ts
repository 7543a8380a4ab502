/**
 * Talking to a running daemon's control API (/.mcpx/ on the configured listen address, with the
 * configured token). `reachable` tells whether one is running, quickly.
 */
import { request as httpRequest } from "node:http";
import * as path from "node:path";
import { type ListenOnly, loadListen } from "@mcpx/config";
import { UnreachableError } from "./errors.js";
import type { MainIO } from "./io.js";

export class DaemonClient {
  readonly base: string;
  /** The config file the daemon was looked for from (its absolute path). */
  readonly configPath: string;
  readonly #token: string | undefined;

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

  #headers(extra: Record<string, string> = {}): Record<string, string> {
    return this.#token ? { authorization: `Bearer ${this.#token}`, ...extra } : extra;
  }

  async reachable(timeoutMs = 500): Promise<boolean> {
    try {
      const res = await fetch(`${this.base}status`, {
        headers: this.#headers(),
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.body?.cancel();
      return res.ok;
    } catch {
      return false;
    }
  }

  async get<T>(route: string): Promise<T> {
    return this.#json<T>(await fetch(`${this.base}${route}`, { headers: this.#headers() }));
  }

  /**
   * POSTs JSON and waits for the answer however long it takes (a call through the daemon waits for a
   * person to answer an elicitation; fetch would give up on the headers after five minutes).
   */
  post<T>(route: string, body: unknown): Promise<T> {
    const text = JSON.stringify(body);
    return new Promise<T>((resolve, reject) => {
      const req = httpRequest(
        `${this.base}${route}`,
        {
          method: "POST",
          headers: this.#headers({
            "content-type": "application/json",
            "content-length": String(Buffer.byteLength(text)),
          }),
        },
        (res) => {
          let answer = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            answer += chunk;
          });
          res.on("end", () => {
            try {
              resolve(parseAnswer<T>(res.statusCode ?? 0, answer));
            } catch (err) {
              reject(err);
            }
          });
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(text);
    });
  }

  /** The items of a streaming route, as they come, until `signal` aborts or the daemon ends it. */
  async *stream<T>(route: string, signal?: AbortSignal): AsyncGenerator<T> {
    const res = await fetch(`${this.base}${route}`, {
      headers: this.#headers({ accept: "text/event-stream" }),
      ...(signal ? { signal } : {}),
    });
    if (!res.ok || !res.body) throw new Error(`the daemon answered ${res.status} to ${route}`);
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end = buffer.indexOf("\n\n");
        while (end !== -1) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = event
            .split("\n")
            .filter((l) => l.startsWith("data:"))
            .map((l) => l.slice(5).trimStart())
            .join("\n");
          if (data) yield JSON.parse(data) as T;
          end = buffer.indexOf("\n\n");
        }
      }
    } catch (err) {
      if (!signal?.aborted) throw err;
    }
  }

  async #json<T>(res: Response): Promise<T> {
    return parseAnswer<T>(res.status, await res.text());
  }
}

/** A control answer: its JSON, or the error it carries thrown. */
function parseAnswer<T>(status: number, text: string): T {
  const body = text ? (JSON.parse(text) as unknown) : {};
  if (status < 200 || status > 299) {
    const message = (body as { error?: { message?: string } }).error?.message ?? `HTTP ${status}`;
    throw new Error(message);
  }
  return body as T;
}
