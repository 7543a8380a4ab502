/** Helpers for 2026-07-28 tests: the _meta of a received frame, and a stand-in newer revision. */
import type { HandshakeContext, Revision } from "@mcpx/core";
import { discoverHandshake, revision as modern } from "@mcpx/revision-2026-07-28";
import type { Frame } from "@mcpx/testkit";

export const MODERN_VERSION = "2026-07-28";

export function metaOf(frame: Frame | undefined): Record<string, unknown> {
  return (frame?.params?._meta as Record<string, unknown> | undefined) ?? {};
}

/** A third-party modern revision newer than 2026-07-28 (the plugin API at work), for version retry. */
export const futureRevision: Revision = Object.freeze({
  ...modern,
  version: "2099-01-01",
  handshake: (ctx: HandshakeContext) => discoverHandshake(futureRevision, ctx),
});
