import type { ServerConfig } from "@mcpx/config";
import type { UpstreamTarget } from "@mcpx/core";

/** Where a configured server is, before its auth scheme adds credentials. */
export function upstreamTarget(server: ServerConfig): UpstreamTarget {
  if (server.kind === "url") return { name: server.name, url: server.url };
  const target: UpstreamTarget = {
    name: server.name,
    command: server.command,
    args: server.args,
    env: { ...server.env },
  };
  if (server.cwd) target.cwd = server.cwd;
  return target;
}
