/**
 * The daemon's own control routes: status, events, the catalog per server, and calls — what `mcpx
 * status`, `mcpx events`, `mcpx tools list`, `mcpx call` ask a running daemon.
 */
import { CONTROL_PREFIX, type ControlRoute, InvalidParamsError, type JSONObject } from "@mcpx/core";
import type { ListKind } from "../catalog.js";
import type { Gateway } from "../gateway.js";
import type { CallContext, Peer } from "../server/peer.js";
import { toolFilter } from "../tool-filter.js";
import { UnknownUpstreamError } from "./unknown-upstream.js";

const KINDS: Record<string, ListKind> = {
  tools: "tools",
  prompts: "prompts",
  resources: "resources",
  "resource-templates": "resourceTemplates",
};

export interface DaemonInfo {
  version: string;
  /** The MCP endpoint's URL. */
  url?: string;
  startedAt: string;
  /**
   * The absolute path of the config file the daemon runs (none for a config built in memory):
   * `mcpx status` tells a user whose `--config` names another file.
   */
  config?: string;
  /** The state store in use: its type, and whether other replicas share it (never its options). */
  store?: { type: string; shared: boolean };
}

/** A control caller as the gateway's peer: it gets nothing outside its own requests. */
function controlContext(signal: AbortSignal): CallContext {
  const peer: Peer = {
    id: "control",
    // In process: it speaks no revision, and is asked nothing.
    revision: undefined,
    capabilities: {},
    authContext: "control",
    notify: () => false,
  };
  return { peer, signal, notify: () => {} };
}

function objectBody(body: unknown): JSONObject {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new InvalidParamsError("the request body must be a JSON object");
  }
  return body as JSONObject;
}

export function builtinRoutes(gateway: Gateway, info: DaemonInfo): ControlRoute[] {
  return [
    {
      method: "GET",
      path: "status",
      handle: () => ({
        ...info,
        upstreams: gateway.pool.states().map((s) => ({ ...s, ...eraOf(gateway, s.name) })),
        peers: gateway.peers.length,
      }),
    },
    {
      method: "GET",
      path: "events",
      handle: (req) => {
        const since = Number(req.query.get("since") ?? 0) || 0;
        if (req.query.get("follow") !== "1") return { events: gateway.events.since(since) };
        return follow(gateway, since, req.signal);
      },
    },
    {
      // The console's Reconnect button and `mcpx reconnect`: now, not when the backoff says.
      method: "POST",
      path: "upstreams/:name/reconnect",
      handle: async (req) => {
        const name = req.params.name ?? "";
        const state = await gateway.pool.reconnect(name);
        if (!state)
          throw new UnknownUpstreamError(
            name,
            gateway.pool.states().map((s) => s.name),
          );
        return { ...state, ...eraOf(gateway, name) };
      },
    },
    {
      method: "GET",
      path: "servers/tools",
      handle: async () => {
        const servers = [];
        for (const state of gateway.pool.states()) {
          const client = gateway.pool.client(state.name);
          const server = gateway.pool.servers().find((s) => s.name === state.name);
          let tools: JSONObject[] = [];
          let error = state.error;
          if (client && server) {
            try {
              const shown = toolFilter(server.tools);
              tools = (await client.listTools())
                .filter((t) => shown(String(t.name)))
                .map((t) => ({
                  name: gateway.namespaces.name(server, String(t.name)),
                  original: t.name,
                  ...(typeof t.description === "string" ? { description: t.description } : {}),
                }));
            } catch (err) {
              // An upstream's error may quote a credential.
              error = gateway.protocol.redact((err as Error).message);
            }
          }
          servers.push({
            server: state.name,
            status: state.status,
            revision: state.revision,
            transport: state.transport,
            error,
            tools,
          });
        }
        return { servers };
      },
    },
    {
      method: "GET",
      path: "list/:kind",
      handle: async (req) => {
        const name = req.params.kind ?? "";
        // Own keys only: "constructor" or "__proto__" is no list.
        const kind = Object.hasOwn(KINDS, name) ? KINDS[name] : undefined;
        if (!kind)
          throw new InvalidParamsError(
            `unknown list ${JSON.stringify(req.params.kind)} (tools, prompts, resources, resource-templates)`,
          );
        return { [kind]: await gateway.catalog.list(kind) };
      },
    },
    {
      method: "POST",
      path: "call",
      handle: (req) => {
        const body = objectBody(req.body);
        return gateway.dispatcher.handle(
          "tools/call",
          { name: body.name, arguments: body.arguments ?? {} },
          controlContext(req.signal),
        );
      },
    },
    {
      method: "POST",
      path: "read",
      handle: (req) =>
        gateway.dispatcher.handle(
          "resources/read",
          { uri: objectBody(req.body).uri },
          controlContext(req.signal),
        ),
    },
    {
      method: "POST",
      path: "prompt",
      handle: (req) => {
        const body = objectBody(req.body);
        return gateway.dispatcher.handle(
          "prompts/get",
          { name: body.name, arguments: body.arguments ?? {} },
          controlContext(req.signal),
        );
      },
    },
  ];
}

/** A connected upstream's era (legacy or modern), from the revision it negotiated: the console shows it. */
function eraOf(gateway: Gateway, name: string): { era?: string } {
  try {
    const era = gateway.pool.client(name)?.revision.era;
    return era ? { era } : {};
  } catch {
    return {}; // not connected: no revision yet
  }
}

/** Past events after `since`, then live ones, until the caller goes away. */
async function* follow(gateway: Gateway, since: number, signal: AbortSignal): AsyncIterable<unknown> {
  const queue: unknown[] = [...gateway.events.since(since)];
  let wake: (() => void) | undefined;
  const off = gateway.events.subscribe((e) => {
    queue.push(e);
    wake?.();
  });
  const stop = () => wake?.();
  signal.addEventListener("abort", stop, { once: true });
  try {
    while (!signal.aborted) {
      while (queue.length > 0) yield queue.shift();
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
  } finally {
    off();
    signal.removeEventListener("abort", stop);
  }
}

export { CONTROL_PREFIX };
