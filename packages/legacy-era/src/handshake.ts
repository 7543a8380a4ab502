import {
  type HandshakeContext,
  type Implementation,
  InvalidResultError,
  type Negotiated,
  type Revision,
  type ServerCapabilities,
} from "@mcpx/core";

/**
 * The initialize handshake: offer this revision's version, accept the server's answer only if mcpx
 * speaks it (otherwise UnsupportedVersionError and no notifications/initialized), then initialized.
 * initialize is never cancelled: every legacy cancellation page forbids it.
 */
export async function initializeHandshake(offered: Revision, ctx: HandshakeContext): Promise<Negotiated> {
  const result = await ctx.request(
    "initialize",
    {
      protocolVersion: offered.version,
      capabilities: offered.capabilities(ctx.handlers),
      clientInfo: ctx.clientInfo,
    },
    { cancellable: false },
  );
  const version = result.protocolVersion;
  if (typeof version !== "string") {
    throw new InvalidResultError(
      `initialize result has no protocolVersion string (got ${JSON.stringify(version) ?? "nothing"})`,
    );
  }
  const revision = ctx.resolve(version);
  // notifications/initialized already speaks the negotiated revision (its MCP-Protocol-Version).
  ctx.agreed(revision, version);
  await ctx.notify("notifications/initialized");
  const negotiated: Negotiated = {
    revision,
    version,
    serverCapabilities: isObject(result.capabilities) ? (result.capabilities as ServerCapabilities) : {},
    result,
  };
  if (isObject(result.serverInfo)) negotiated.serverInfo = result.serverInfo as Implementation;
  if (typeof result.instructions === "string") negotiated.instructions = result.instructions;
  return negotiated;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
