/**
 * The era probe (DESIGN.md "Era probe"; 2026-07-28 transports §Backward Compatibility): send
 * server/discover with the modern version. A DiscoverResult, or a recognisably modern error (-32020,
 * -32021, -32022), means modern: version retry, never a fall back. Anything else — another error, a
 * timeout, over HTTP a 4xx with an empty or unrecognised body — means legacy: run initialize. If an
 * HTTP endpoint refuses both with a bare 400, 404 or 405, it is an HTTP+SSE server
 * (LegacyHTTPRefusedError). The fall back never keys on a single error code.
 */
import {
  HeaderMismatchError,
  HttpStatusError,
  LegacyHTTPRefusedError,
  type Logger,
  MissingRequiredClientCapabilityError,
  type Negotiated,
  PluginError,
  type RegistryView,
  type Revision,
  UnsupportedProtocolVersionError,
} from "@mcpx/core";

export interface HandshakeOptions {
  timeout?: number;
  cancellable?: boolean;
}

export interface Probeable {
  readonly name: string;
  handshake(revision: Revision, opts?: HandshakeOptions): Promise<Negotiated>;
}

const REFUSED = new Set([400, 404, 405]);

export function isModernError(err: unknown): boolean {
  return (
    err instanceof UnsupportedProtocolVersionError ||
    err instanceof MissingRequiredClientCapabilityError ||
    err instanceof HeaderMismatchError
  );
}

/**
 * A -32022 that leaves no version to retry with, in mcpx's words rather than the server's alone
 * (which may say nothing): both sides' versions, the server's as it listed them (truncated).
 */
function noSharedVersion(name: string, err: unknown, registry: RegistryView): unknown {
  if (!(err instanceof UnsupportedProtocolVersionError)) return err;
  const listed = err.supported.slice(0, 10).map((v) => JSON.stringify(v.slice(0, 40)));
  const theirs = listed.length > 0 ? `it lists ${listed.join(", ")}` : "it lists none";
  const ours = registry.revisions().map((r) => r.version);
  return new UnsupportedProtocolVersionError(
    `upstream ${name} speaks no protocol version mcpx speaks: ${theirs} (server/discover answered ${JSON.stringify(err.message.slice(0, 200))}); mcpx speaks ${ours.join(", ")}`,
    err.data,
  );
}

function bareRefusal(err: unknown): HttpStatusError | undefined {
  return err instanceof HttpStatusError && REFUSED.has(err.status) ? err : undefined;
}

export async function probeEra(
  client: Probeable,
  registry: RegistryView,
  probeTimeout: number,
  log: Logger,
): Promise<Negotiated> {
  const modern = registry.revisions("modern")[0];
  const legacy = registry.revisions("legacy")[0];
  let refusal: HttpStatusError | undefined;
  if (modern) {
    try {
      // Not cancellable: before initialize a legacy server must hear nothing but ping.
      return await client.handshake(modern, { timeout: probeTimeout, cancellable: false });
    } catch (err) {
      if (isModernError(err)) {
        // A dual-era server may list only legacy versions mcpx shares: that means initialize.
        const shared =
          err instanceof UnsupportedProtocolVersionError
            ? registry.revisions("legacy").find((r) => err.supported.includes(r.version))
            : undefined;
        if (!shared) throw noSharedVersion(client.name, err, registry);
        return client.handshake(shared);
      }
      refusal = bareRefusal(err);
      log.debug("server/discover did not identify a modern server; trying initialize", {
        reason: (err as Error).message,
      });
    }
  }
  if (!legacy) throw new PluginError("(host)", `upstream ${client.name}: no legacy revision is installed`);
  try {
    return await client.handshake(legacy);
  } catch (err) {
    const second = bareRefusal(err);
    if (refusal && second) {
      throw new LegacyHTTPRefusedError(
        second.status,
        `upstream ${client.name} refused server/discover (HTTP ${refusal.status}) and initialize (HTTP ${second.status}): an HTTP+SSE server`,
      );
    }
    throw err;
  }
}
