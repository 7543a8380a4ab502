/**
 * Cursor's `~/.cursor/mcp.json` and a project's `.cursor/mcp.json`: `mcpServers`, each with
 * `command`/`args`/`env`/`envFile` or `url`/`headers`. Cursor tells Streamable HTTP from SSE by itself,
 * so only an explicit `sse` is pinned. It expands `${env:NAME}`, `${userHome}`, `${workspaceFolder}`,
 * `${workspaceFolderBasename}` and `${pathSeparator}`.
 */
import { type JsonHost, readServers } from "./json-host.js";
import { ENV_FILE_LEFT_OUT, OAUTH_LEFT_OUT } from "./notes.js";
import { type HostDefinition, isObject } from "./read.js";

const host: JsonHost = {
  name: "Cursor",
  urlKeys: ["url"],
  types: { stdio: null, http: null, "streamable-http": "streamable-http", sse: "http+sse" },
  extra: { envFile: ENV_FILE_LEFT_OUT, auth: OAUTH_LEFT_OUT },
};

export const cursor: HostDefinition = {
  format: "cursor",
  label: "Cursor",
  bareEnv: true,
  read(doc, ctx) {
    if (!isObject(doc) || !isObject(doc.mcpServers)) return undefined;
    return readServers(doc.mcpServers, ["mcpServers"], host, ctx);
  },
};
