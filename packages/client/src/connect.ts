/**
 * From a target to a live connection: a pinned revision or transport is used as given; otherwise
 * the era record (if any) is tried first and the probe runs once more if it fails; an endpoint that
 * refuses both the modern probe and initialize with a bare 4xx is reached over HTTP+SSE. An abort
 * signal ends the attempt wherever it is: the client being opened is closed (a stdio server still
 * starting is ended) and nothing more is tried.
 */
import { createHash } from "node:crypto";
import {
  ConnectionClosedError,
  type EraRecord,
  httpSseRevisions,
  LegacyHTTPRefusedError,
  type UpstreamTarget,
} from "@mcpx/core";
import { redactError } from "@mcpx/host";
import { UpstreamClient, type UpstreamClientOptions } from "./connection.js";
import type { EraStore } from "./era-store.js";
import { targetRedactor } from "./target-redactor.js";

export interface ConnectOptions extends UpstreamClientOptions {
  eraStore?: EraStore;
  /**
   * What the era record is keyed by; by default the target's. Pass the fingerprint of the target
   * before credentials were added, so rotating a query credential does not force a new probe.
   */
  fingerprint?: string;
  /** Ends the attempt: the client being opened is closed, and the attempt fails at once. */
  signal?: AbortSignal;
}

/** What identifies a target for the era record: a changed command or URL means a new probe. */
export function targetFingerprint(target: UpstreamTarget): string {
  const basis = target.url ?? JSON.stringify([target.command, target.args ?? [], target.cwd ?? ""]);
  return createHash("sha256").update(basis).digest("hex").slice(0, 16);
}

export async function connectUpstream(options: ConnectOptions): Promise<UpstreamClient> {
  const { eraStore, env, target } = options;
  const pinned = options.revision !== undefined || options.transport !== undefined;
  const fingerprint = options.fingerprint ?? targetFingerprint(target);
  if (!pinned && eraStore) {
    const cached = await eraStore.get(target.name, fingerprint);
    if (cached) {
      try {
        const client = await open({
          ...options,
          revision: cached.revision,
          transport: cached.transport,
        });
        announce(options, client, cached, true);
        return client;
      } catch (err) {
        // Ended by the signal: the record is not at fault, and nothing more is tried.
        if (options.signal?.aborted) throw err;
        env.log.info("the recorded era failed; probing again", {
          upstream: target.name,
          era: `${cached.revision} over ${cached.transport}`,
          error: (err as Error).message,
        });
        await eraStore.delete(target.name);
      }
    }
  }
  let client: UpstreamClient;
  try {
    client = await open(options);
  } catch (err) {
    // The transport that stands in for the refused one (HTTP+SSE for Streamable HTTP) speaks the
    // revisions from before sessions: the newest of them is offered.
    const refused = env.registry.transportFor(target)?.kind;
    const fallback = env.registry
      .transports()
      .find((t) => refused !== undefined && t.fallbackFor === refused);
    const sse = httpSseRevisions(env.registry.revisions("legacy"))[0];
    if (!(err instanceof LegacyHTTPRefusedError) || pinned || !fallback || !sse) throw err;
    if (options.signal?.aborted) throw err;
    env.log.info(`falling back to ${fallback.kind}`, { upstream: target.name, reason: err.message });
    client = await open({ ...options, transport: fallback.kind, revision: sse.version });
  }
  const record: EraRecord = {
    revision: client.negotiated.version,
    transport: client.transport.kind,
    probedAt: new Date().toISOString(),
  };
  if (!pinned) await eraStore?.set(target.name, fingerprint, record);
  announce(options, client, record, false);
  return client;
}

/**
 * UpstreamClient.connect that the signal can end: on abort the client is closed (its transport too:
 * a stdio child is ended, an HTTP request cancelled), which fails the handshake in flight at once.
 * Resolves or rejects only once the client is closed, so a caller that waits for the attempt knows
 * its process is gone.
 */
async function open(options: ConnectOptions): Promise<UpstreamClient> {
  const { signal, target } = options;
  if (!signal) return UpstreamClient.connect(options);
  if (signal.aborted) throw aborted(target.name);
  const client = new UpstreamClient(options);
  let closing: Promise<void> | undefined;
  // Once: a second close() would return before the first has ended the child.
  const close = () => {
    closing ??= client.close();
    return closing;
  };
  signal.addEventListener("abort", close, { once: true });
  try {
    await client.open();
  } catch (err) {
    await close();
    if (signal.aborted) throw aborted(target.name);
    // What opening the transport raised (an HTTP+SSE GET's error body) may quote the credentials.
    const clean = targetRedactor(target);
    throw clean ? redactError(err, clean) : err;
  } finally {
    signal.removeEventListener("abort", close);
  }
  if (signal.aborted) {
    await close();
    throw aborted(target.name);
  }
  return client;
}

function aborted(upstream: string): ConnectionClosedError {
  return new ConnectionClosedError(`upstream ${upstream}: the connection attempt was aborted`);
}

function announce(options: ConnectOptions, client: UpstreamClient, era: EraRecord, cached: boolean): void {
  const { hooks } = options.env;
  const upstream = options.target.name;
  // Only the hook for the era: its built-in taps publish `era.resolved` and set the pool's status.
  hooks.eraResolved.call(upstream, era, cached);
  hooks.lifecycle.call({
    type: "upstream.connected",
    upstream,
    revision: client.negotiated.version,
    transport: client.transport.kind,
  });
}
