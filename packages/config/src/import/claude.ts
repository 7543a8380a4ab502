/**
 * Claude Desktop's `claude_desktop_config.json` and Claude Code's `.mcp.json`: `mcpServers`, each with
 * `command`/`args`/`env`, or (Claude Code) `type` `http`/`sse` with `url` and `headers`. Claude Code
 * expands `${VAR}` and `${VAR:-default}`; `http` there is Streamable HTTP only, so it is pinned.
 */
import { type JsonHost, readServers } from "./json-host.js";
import { OAUTH_LEFT_OUT } from "./notes.js";
import { type HostDefinition, isObject } from "./read.js";

const host: JsonHost = {
  name: "Claude",
  urlKeys: ["url"],
  types: { stdio: null, http: "streamable-http", "streamable-http": "streamable-http", sse: "http+sse" },
  extra: {
    oauth: OAUTH_LEFT_OUT,
    headersHelper: "a headers helper is Claude Code's own (it runs a command for headers); left out",
  },
};

export const claudeDesktop: HostDefinition = {
  format: "claude-desktop",
  label: "Claude Desktop",
  bareEnv: true,
  read(doc, ctx) {
    if (!isObject(doc) || !isObject(doc.mcpServers)) return undefined;
    return readServers(doc.mcpServers, ["mcpServers"], host, ctx);
  },
};
