/** Scripted upstreams over Streamable HTTP and over 2024-11-05's HTTP+SSE, connected through a test host. */
import { UpstreamClient, type UpstreamClientOptions } from "@mcpx/client";
import type { LifecycleEvent } from "@mcpx/core";
import type { Host } from "@mcpx/host";
import {
  type HttpRecord,
  type HttpScript,
  type HttpScriptOptions,
  httpScript,
  ScriptedServer,
  type ScriptedServerOptions,
  type SseScript,
  type SseScriptOptions,
  sseScript,
} from "@mcpx/testkit";
import { afterThisTest, settings, testHost } from "./harness.js";

type ConnectOptions = Partial<Omit<UpstreamClientOptions, "env">>;

export interface HttpCase {
  server: ScriptedServer;
  script: HttpScript;
  host: Host & { events: LifecycleEvent[] };
  /** Connects mcpx to the scripted server (a `target` given here is merged over the default). */
  connect(opts?: ConnectOptions): Promise<UpstreamClient>;
}

/** A scripted server of `versions` over Streamable HTTP. */
export async function httpCase(
  options: ScriptedServerOptions,
  front: HttpScriptOptions = {},
): Promise<HttpCase> {
  const server = new ScriptedServer(options);
  const script = await httpScript(server, front);
  const host = await testHost();
  afterThisTest(() => script.close());
  return {
    server,
    script,
    host,
    connect: (opts = {}) => connectTo(host, { name: "scripted", url: script.url }, opts),
  };
}

export interface SseCase {
  server: ScriptedServer;
  script: SseScript;
  host: Host & { events: LifecycleEvent[] };
  connect(opts?: ConnectOptions): Promise<UpstreamClient>;
}

/** A scripted 2024-11-05 server over HTTP+SSE; connect() pins transport http+sse and 2024-11-05. */
export async function sseCase(
  options: ScriptedServerOptions,
  front: SseScriptOptions = {},
): Promise<SseCase> {
  const server = new ScriptedServer(options);
  const script = await sseScript(server, front);
  const host = await testHost();
  afterThisTest(() => script.close());
  return {
    server,
    script,
    host,
    connect: (opts = {}) =>
      connectTo(
        host,
        { name: "scripted", url: script.url },
        { transport: "http+sse", revision: "2024-11-05", ...opts },
      ),
  };
}

async function connectTo(
  host: Host,
  target: UpstreamClientOptions["target"],
  opts: ConnectOptions,
): Promise<UpstreamClient> {
  const { target: over, ...rest } = opts;
  const client = await UpstreamClient.connect({
    target: { ...target, ...over },
    env: host,
    settings: settings(),
    ...rest,
  });
  afterThisTest(() => client.close());
  return client;
}

/** The POSTs of one JSON-RPC method. */
export function posts(script: HttpScript, method: string): HttpRecord[] {
  return script.requests.filter((r) => r.httpMethod === "POST" && r.frames.some((f) => f.method === method));
}

/** Every request after the first POST of `method` (exclusive). */
export function requestsAfter(script: HttpScript, method: string): HttpRecord[] {
  const at = script.requests.findIndex((r) => r.frames.some((f) => f.method === method));
  return at === -1 ? [] : script.requests.slice(at + 1);
}

/** What a request is, for assertion messages: "POST tools/call", "GET", "DELETE". */
export function label(r: HttpRecord): string {
  const f = r.frames[0];
  const what = f?.method ?? (f && "id" in f ? `response ${String(f.id)}` : "");
  return `${r.httpMethod}${what ? ` ${what}` : ""}`;
}

export const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));
