import {
  type HandshakeContext,
  type Implementation,
  InvalidResultError,
  MetaKey,
  type Negotiated,
  type Revision,
  type ServerCapabilities,
  UnsupportedProtocolVersionError,
} from "@mcpx/core";
import { requestMeta } from "./meta.js";

/**
 * server/discover with the preferred version, retried on -32022 with a version from data.supported:
 * first one not yet tried, then, once, one already tried that the server nonetheless lists (the
 * official suite rejects the first request naming the very version it rejected). Each version is
 * sent at most settings.versionAttempts times, so a server that keeps refusing cannot loop it.
 * When no modern version is left, the last -32022 is thrown: the caller may pick a legacy version
 * from its `supported` list. Only a DiscoverResult (one that lists supportedVersions) means modern:
 * a legacy server that answers any method it does not know with an empty result is not one, and
 * the InvalidResultError thrown then sends the era probe on to initialize.
 */
export async function discoverHandshake(preferred: Revision, ctx: HandshakeContext): Promise<Negotiated> {
  const sent = new Map<string, number>();
  const capabilities = preferred.capabilities(ctx.handlers);
  let version = preferred.version;
  for (;;) {
    sent.set(version, (sent.get(version) ?? 0) + 1);
    const conn = {
      upstream: ctx.upstream,
      transport: ctx.transport,
      version,
      clientInfo: ctx.clientInfo,
      capabilities,
    };
    try {
      const result = await ctx.request("server/discover", { _meta: requestMeta(conn, version) });
      if (!Array.isArray(result.supportedVersions)) {
        throw new InvalidResultError(
          `server/discover answered without supportedVersions: not a DiscoverResult, so not a ${version} server`,
        );
      }
      const revision = ctx.resolve(version);
      const meta = result._meta as Record<string, unknown> | undefined;
      const serverInfo = meta?.[MetaKey.serverInfo];
      const negotiated: Negotiated = {
        revision,
        version,
        serverCapabilities: isObject(result.capabilities) ? (result.capabilities as ServerCapabilities) : {},
        result,
      };
      if (isObject(serverInfo)) negotiated.serverInfo = serverInfo as Implementation;
      if (typeof result.instructions === "string") negotiated.instructions = result.instructions;
      return negotiated;
    } catch (err) {
      if (!(err instanceof UnsupportedProtocolVersionError)) throw err;
      const next = nextVersion(err.supported, sent, ctx, preferred);
      if (next === undefined) throw err;
      version = next;
    }
  }
}

function nextVersion(
  supported: readonly string[],
  sent: Map<string, number>,
  ctx: HandshakeContext,
  preferred: Revision,
): string | undefined {
  const spoken = new Set(ctx.spoken());
  const modern = supported.filter((v) => spoken.has(v) && isModern(v, ctx, preferred));
  const untried = modern.find((v) => !sent.has(v));
  if (untried !== undefined) return untried;
  return modern.find((v) => (sent.get(v) ?? 0) < ctx.settings.versionAttempts);
}

function isModern(version: string, ctx: HandshakeContext, preferred: Revision): boolean {
  try {
    return ctx.resolve(version).era === preferred.era;
  } catch {
    return false;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
