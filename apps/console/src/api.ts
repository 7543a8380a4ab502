/**
 * The daemon's control API (/.mcpx/ on the page's own origin), with the bearer token the user gave
 * once for this tab (sessionStorage: gone when the tab closes). Streams are read with fetch, not
 * EventSource, so they carry the same Authorization header as every other request.
 */
const TOKEN_KEY = "mcpx.token";
const BASE = "/.mcpx/";

/** The daemon asked for a token (401): the page asks the user for it. */
export class UnauthorizedError extends Error {
  constructor() {
    super("this mcpx needs its bearer token (listen.token)");
    this.name = "UnauthorizedError";
  }
}

export function storedToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function storeToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const token = storedToken();
  return token ? { authorization: `Bearer ${token}`, ...extra } : extra;
}

async function reply<T>(res: Response): Promise<T> {
  if (res.status === 401) throw new UnauthorizedError();
  const text = await res.text();
  const body = text ? (JSON.parse(text) as unknown) : {};
  if (!res.ok) {
    const message = (body as { error?: { message?: string } }).error?.message;
    throw new Error(message ?? `HTTP ${res.status}`);
  }
  return body as T;
}

export async function get<T>(route: string): Promise<T> {
  return reply<T>(await fetch(BASE + route, { headers: headers() }));
}

/** JSON only: the daemon refuses any other Content-Type on a POST (no cross-site simple request). */
export async function post<T>(route: string, body: unknown, signal?: AbortSignal): Promise<T> {
  const res = await fetch(BASE + route, {
    method: "POST",
    headers: headers({ "content-type": "application/json" }),
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  return reply<T>(res);
}

/** The items of a streaming route (server-sent events, one JSON item each) until `signal` aborts. */
export async function stream<T>(
  route: string,
  onItem: (item: T) => void,
  signal: AbortSignal,
): Promise<void> {
  const res = await fetch(BASE + route, { headers: headers({ accept: "text/event-stream" }), signal });
  if (res.status === 401) throw new UnauthorizedError();
  if (!res.ok || !res.body) throw new Error(`the daemon answered ${res.status} to ${route}`);
  await readEvents(res.body, (data) => onItem(JSON.parse(data) as T));
}

/** The data of each server-sent event of `body` (a keep-alive comment carries none), until it ends. */
export async function readEvents(body: NonNullable<Response["body"]>, onData: (data: string) => void) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replace(/\r\n?/g, "\n");
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block
        .split("\n")
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).replace(/^ /, ""))
        .join("\n");
      if (data) onData(data);
      end = buffer.indexOf("\n\n");
    }
  }
}

/** The Authorization header of the tab's token, for the MCP endpoint too. */
export function authHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return headers(extra);
}

/** A stream that comes back after the daemon restarts or the connection drops. */
export function keepStreaming<T>(
  route: string,
  onItem: (item: T) => void,
  onState: (state: "live" | "down" | "unauthorized") => void,
): () => void {
  const abort = new AbortController();
  (async () => {
    while (!abort.signal.aborted) {
      try {
        onState("live");
        await stream(route, onItem, abort.signal);
      } catch (err) {
        if (abort.signal.aborted) return;
        if (err instanceof UnauthorizedError) return onState("unauthorized");
      }
      if (abort.signal.aborted) return;
      onState("down");
      await new Promise((r) => setTimeout(r, 2000));
    }
  })();
  return () => abort.abort();
}

export interface UpstreamState {
  name: string;
  namespace: string;
  status: string;
  revision?: string;
  era?: string;
  transport?: string;
  error?: string;
  /** It waits for a user's OAuth sign-in (the console's Sign in button). */
  needsLogin?: boolean;
  attempts: number;
  connectedAt?: string;
}

export interface Status {
  version: string;
  url?: string;
  upstreams: UpstreamState[];
  peers: number;
}

export interface LifecycleEvent {
  seq: number;
  time: string;
  type: string;
  upstream?: string;
  [key: string]: unknown;
}

export interface PendingElicitation {
  id: string;
  upstream: string;
  mode: "form" | "url";
  message: string;
  requestedSchema?: JsonSchema;
  url?: string;
  host?: string;
}

export type BrokerEvent =
  | { event: "snapshot"; pending: PendingElicitation[] }
  | { event: "pending"; elicitation: PendingElicitation }
  | { event: "settled"; elicitation: { id: string } };

export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  enumNames?: string[];
  oneOf?: { const?: unknown; title?: string }[];
  anyOf?: { const?: unknown; title?: string }[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: JsonSchema;
}
export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
}
export interface ResourceTemplate {
  uriTemplate: string;
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
}
export interface Resource {
  uri: string;
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
}
