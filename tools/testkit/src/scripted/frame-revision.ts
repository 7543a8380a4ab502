/** Which revision a received frame is checked against. */

export const MODERN: readonly string[] = ["2026-07-28"];
export const PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";

export interface RequestLike {
  method?: string;
  params?: { protocolVersion?: unknown; _meta?: Record<string, unknown> } & Record<string, unknown>;
}

/**
 * initialize is checked against the version it offers (the revision the client speaks at that
 * moment); every frame after a legacy initialize against the negotiated version (so a modern _meta
 * key in it is a failure); a modern frame against the version in its _meta.
 */
export function revisionOfFrame(
  frame: RequestLike,
  negotiated: string | undefined,
  versions: readonly string[],
): string | undefined {
  if (frame.method === "initialize" && typeof frame.params?.protocolVersion === "string") {
    return frame.params.protocolVersion;
  }
  if (negotiated) return negotiated;
  const metaVersion = frame.params?._meta?.[PROTOCOL_VERSION_KEY];
  if (typeof metaVersion === "string") return metaVersion;
  return versions[0];
}

export function metaVersion(params: Record<string, unknown> | undefined): unknown {
  const meta = params?._meta;
  return typeof meta === "object" && meta !== null
    ? (meta as Record<string, unknown>)[PROTOCOL_VERSION_KEY]
    : undefined;
}
