/** Why a host key is left out, where several hosts share the reason. */
export const OAUTH_LEFT_OUT =
  'mcpx discovers OAuth by itself; left out (give the server "auth": { "type": "oauth" }, with a client registered in advance if it has one)';
export const ENV_FILE_LEFT_OUT =
  // biome-ignore lint/suspicious/noTemplateCurlyInString: ${env:NAME} is mcpx's own syntax
  "mcpx reads no env file; left out (set its variables where mcpx runs and name them in env as ${env:NAME})";
export const TOOL_APPROVAL_LEFT_OUT =
  "tool approval is the host's own; left out (mcpx serves every tool it lists)";
