/**
 * Windsurf's `~/.codeium/windsurf/mcp_config.json`: `mcpServers`, each with `command`/`args`/`env`, or
 * `serverUrl` (also `url`) with `headers`; `disabled` and `disabledTools`. Windsurf expands
 * `${env:NAME}` in command, args, env, serverUrl, url and headers (and `${file:…}`, which mcpx cannot).
 */
import { type JsonHost, readServers } from "./json-host.js";
import { OAUTH_LEFT_OUT, TOOL_APPROVAL_LEFT_OUT } from "./notes.js";
import { type HostDefinition, isObject, strings } from "./read.js";

const host: JsonHost = {
  name: "Windsurf",
  urlKeys: ["serverUrl", "url"],
  types: { stdio: null, http: null, "streamable-http": "streamable-http", sse: "http+sse" },
  extra: {
    disabledTools: (value, server, ctx, at) => {
      const names = strings(value, at, ctx);
      if (names.length > 0) server.tools = { exclude: names };
    },
    alwaysAllow: TOOL_APPROVAL_LEFT_OUT,
    oauth: OAUTH_LEFT_OUT,
  },
};

export const windsurf: HostDefinition = {
  format: "windsurf",
  label: "Windsurf",
  bareEnv: true,
  read(doc, ctx) {
    if (!isObject(doc) || !isObject(doc.mcpServers)) return undefined;
    return readServers(doc.mcpServers, ["mcpServers"], host, ctx);
  },
};
