/**
 * The explorer's calls go through the MCP endpoint, as any client's: a Streamable HTTP session of
 * its own (2025-06-18), so that a call carries a progressToken and shows the upstream's
 * notifications/progress while it runs, and Cancel sends notifications/cancelled for it. The page
 * declares no elicitation: a question the call raises goes to the broker, and so to the Questions view.
 */
import { authHeaders, get, readEvents, type Status, UnauthorizedError } from "./api";

const REVISION = "2025-06-18";

export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** An error the endpoint answered a request with (its JSON-RPC code and message). */
export class McpCallError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.name = "McpCallError";
    this.code = code;
  }
}

/** The call was cancelled from the page. */
export class CancelledError extends Error {
  constructor() {
    super("Cancelled.");
    this.name = "CancelledError";
  }
}

interface Frame {
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

export class McpSession {
  #endpoint: Promise<string> | undefined;
  #session: string | undefined;
  #ready: Promise<void> | undefined;
  #nextId = 1;

  /** The endpoint's path (the daemon's status says where it is), on the page's own origin. */
  #url(): Promise<string> {
    this.#endpoint ??= get<Status>("status").then((s) => new URL(s.url ?? "/mcp", location.href).pathname);
    return this.#endpoint;
  }

  #headers(): Record<string, string> {
    return authHeaders({
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": REVISION,
      ...(this.#session ? { "mcp-session-id": this.#session } : {}),
    });
  }

  async #post(frame: Frame, signal?: AbortSignal): Promise<Response> {
    const res = await fetch(await this.#url(), {
      method: "POST",
      headers: this.#headers(),
      body: JSON.stringify({ jsonrpc: "2.0", ...frame }),
      ...(signal ? { signal } : {}),
    });
    if (res.status === 401) throw new UnauthorizedError();
    return res;
  }

  #start(): Promise<void> {
    this.#ready ??= (async () => {
      const res = await this.#post({
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: REVISION,
          capabilities: {},
          clientInfo: { name: "mcpx-console", version: "0.1.0" },
        },
      });
      this.#session = res.headers.get("mcp-session-id") ?? undefined;
      await answerOf(res, 0, () => {});
      await (await this.#post({ method: "notifications/initialized" })).body?.cancel();
    })().catch((err) => {
      this.#ready = undefined;
      throw err;
    });
    return this.#ready;
  }

  /** A request; `onProgress` gets its progress notifications; aborting `signal` cancels it upstream. */
  async request(
    method: string,
    params: Record<string, unknown>,
    opts: { onProgress?: (p: Progress) => void; signal?: AbortSignal } = {},
  ): Promise<Record<string, unknown>> {
    await this.#start();
    const id = this.#nextId++;
    const token = `console-${id}`;
    const local = new AbortController();
    const cancel = () => {
      // Told to the endpoint, which cancels the upstream's call; then the stream is let go.
      void this.#post({
        method: "notifications/cancelled",
        params: { requestId: id, reason: "cancelled from the console" },
      })
        .then((r) => r.body?.cancel())
        .catch(() => {});
      local.abort();
    };
    opts.signal?.addEventListener("abort", cancel, { once: true });
    try {
      const res = await this.#post(
        { id, method, params: { ...params, _meta: { progressToken: token } } },
        local.signal,
      );
      if (res.status === 404 && this.#session) {
        // The session ended (the daemon restarted): a new one, and the request again.
        this.#session = undefined;
        this.#ready = undefined;
        return this.request(method, params, opts);
      }
      return await answerOf(res, id, (frame) => {
        if (frame.method === "notifications/progress" && frame.params?.progressToken === token) {
          opts.onProgress?.(frame.params as unknown as Progress);
        }
      });
    } catch (err) {
      if (local.signal.aborted) throw new CancelledError();
      throw err;
    } finally {
      opts.signal?.removeEventListener("abort", cancel);
    }
  }
}

/** The answer to request `id` in a JSON body or an SSE stream; other frames of the stream go to `other`. */
async function answerOf(
  res: Response,
  id: number,
  other: (frame: Frame) => void,
): Promise<Record<string, unknown>> {
  const type = res.headers.get("content-type") ?? "";
  let answer: Frame | undefined;
  const take = (frame: Frame) => {
    if (frame.id === id && (frame.result || frame.error)) answer = frame;
    else other(frame);
  };
  if (type.startsWith("text/event-stream") && res.body) {
    await readEvents(res.body, (data) => {
      if (!answer) take(JSON.parse(data) as Frame);
    });
  } else {
    const text = await res.text();
    if (text) take(JSON.parse(text) as Frame);
  }
  if (!answer) throw new Error(`the MCP endpoint answered ${res.status} without a response`);
  if (answer.error) throw new McpCallError(answer.error.code, answer.error.message);
  return answer.result ?? {};
}
