/**
 * Resource subscriptions through the gateway: a downstream subscription to an mcpx:// URI becomes one
 * upstream subscription to the URI that upstream knows (shared by every peer that asked), and an
 * update from the upstream goes to each subscribed peer carrying the URI it subscribed with. The
 * match is on the upstream URI, since the event names a server and the URI that server knows.
 */
import type { UpstreamClient } from "@mcpx/client";
import { type Logger, MethodNotFoundError } from "@mcpx/core";
import type { Route } from "./catalog.js";
import type { Peer } from "./server/peer.js";

interface Subscriber {
  peer: Peer;
  exposed: string;
}

export class ResourceSubscriptions {
  /** server → upstream URI → peer id → subscriber */
  readonly #byServer = new Map<string, Map<string, Map<string, Subscriber>>>();
  /** peer id → exposed URI → [server, upstream URI] */
  readonly #byPeer = new Map<string, Map<string, [string, string]>>();
  readonly #log: Logger;

  constructor(log: Logger) {
    this.#log = log;
  }

  async subscribe(peer: Peer, exposed: string, route: Route): Promise<void> {
    const server = route.server.name;
    let uris = this.#byServer.get(server);
    if (!uris) {
      uris = new Map();
      this.#byServer.set(server, uris);
    }
    let peers = uris.get(route.original);
    const first = !peers || peers.size === 0;
    if (first) await upstreamSubscribe(route.client, route.original);
    if (!peers) {
      peers = new Map();
      uris.set(route.original, peers);
    }
    peers.set(peer.id, { peer, exposed });
    let mine = this.#byPeer.get(peer.id);
    if (!mine) {
      mine = new Map();
      this.#byPeer.set(peer.id, mine);
    }
    mine.set(exposed, [server, route.original]);
  }

  async unsubscribe(
    peer: Peer,
    exposed: string,
    client?: (server: string) => UpstreamClient | undefined,
  ): Promise<void> {
    const entry = this.#byPeer.get(peer.id)?.get(exposed);
    if (!entry) return;
    this.#byPeer.get(peer.id)?.delete(exposed);
    const [server, uri] = entry;
    const peers = this.#byServer.get(server)?.get(uri);
    peers?.delete(peer.id);
    if (peers && peers.size === 0) {
      this.#byServer.get(server)?.delete(uri);
      const c = client?.(server);
      if (c) await c.unsubscribeResource(uri).catch(() => {});
    }
  }

  /** A peer went away: its subscriptions go with it. */
  async dropPeer(peer: Peer, client: (server: string) => UpstreamClient | undefined): Promise<void> {
    const mine = this.#byPeer.get(peer.id);
    if (!mine) return;
    for (const exposed of [...mine.keys()]) await this.unsubscribe(peer, exposed, client);
    this.#byPeer.delete(peer.id);
  }

  /** An upstream said a resource changed. */
  updated(server: string, uri: string): void {
    const peers = this.#byServer.get(server)?.get(uri);
    if (!peers) return;
    for (const { peer, exposed } of peers.values()) {
      if (!peer.notify("notifications/resources/updated", { uri: exposed })) {
        this.#log.debug("a subscribed peer cannot take an update now", { peer: peer.id, uri: exposed });
      }
    }
  }

  /** An upstream (re)connected: subscribe again to what its peers still want. */
  async resubscribe(server: string, client: UpstreamClient): Promise<void> {
    for (const uri of this.#byServer.get(server)?.keys() ?? []) {
      await upstreamSubscribe(client, uri).catch((err: Error) =>
        this.#log.warn(`could not subscribe again to ${uri}: ${err.message}`, { upstream: server }),
      );
    }
  }
}

async function upstreamSubscribe(client: UpstreamClient, uri: string): Promise<void> {
  // A modern upstream without resources.subscribe may still take it through a legacy session: the
  // client decides, and refuses with MethodNotFoundError when it cannot.
  const modern = client.revision.features.subscriptionsListen;
  if (!modern && client.negotiated.serverCapabilities.resources?.subscribe !== true) {
    throw new MethodNotFoundError(`upstream ${client.name} does not support resource subscriptions`);
  }
  await client.subscribeResource(uri);
}
