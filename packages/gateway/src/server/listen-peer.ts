/**
 * A modern client's subscriptions/listen stream as a peer of the gateway: list changes and the
 * subscribed resources' updates it asked for, tagged with the listen's id, written to its stream.
 */
import type {
  ClientCapabilities,
  Implementation,
  JSONObject,
  JSONRPCMessage,
  RequestId,
  Revision,
} from "@mcpx/core";
import type { Gateway } from "../gateway.js";
import { acknowledgement, type ListenFilter, tagged, wants } from "./listen.js";
import type { Peer } from "./peer.js";

export interface ListenOwner {
  id: string;
  revision: Revision;
  capabilities: ClientCapabilities;
  clientInfo?: Implementation;
  authContext: string;
}

export interface OpenListen {
  peer: Peer;
  acked: ListenFilter;
  close(): Promise<void>;
}

export async function openListen(
  gateway: Gateway,
  owner: ListenOwner,
  listenId: RequestId,
  filter: ListenFilter,
  write: (frame: JSONRPCMessage) => void,
): Promise<OpenListen> {
  const acked: ListenFilter = { ...filter };
  const peer: Peer = {
    id: `${owner.id}#listen:${String(listenId)}`,
    revision: owner.revision,
    capabilities: owner.capabilities,
    authContext: owner.authContext,
    notify(method: string, params: JSONObject) {
      if (!wants(acked, method, params)) return false;
      write(tagged(method, params, listenId));
      return true;
    },
  };
  if (owner.clientInfo) peer.clientInfo = owner.clientInfo;
  if (filter.resourceSubscriptions) {
    // Only what mcpx can route is honoured; the acknowledgement tells the client the rest was declined.
    const kept: string[] = [];
    for (const uri of filter.resourceSubscriptions) {
      const route = await gateway.catalog.routeUri(uri);
      if (!route) continue;
      try {
        await gateway.subscriptions.subscribe(peer, uri, route);
        kept.push(uri);
      } catch {
        // the upstream cannot subscribe: declined
      }
    }
    acked.resourceSubscriptions = kept;
  }
  write(acknowledgement(acked, listenId));
  gateway.addPeer(peer);
  return { peer, acked, close: () => gateway.removePeer(peer) };
}
