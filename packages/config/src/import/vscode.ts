/**
 * VS Code's `.vscode/mcp.json` and user `mcp.json` (`servers`, `inputs`), and `settings.json` (the
 * same under `mcp`). Each server has `type` `stdio` (`command`/`args`/`env`/`envFile`/`cwd`) or
 * `http`/`sse` (`url`/`headers`). VS Code's `http` tries Streamable HTTP and falls back to SSE, as
 * mcpx's probe does, so only `sse` is pinned. An input (`${input:id}`) is asked of the user by VS Code;
 * mcpx reads it from an environment variable named after the id (`github-token` → GITHUB_TOKEN), with
 * the input's default when it is not a password, so the secret never lands in the mcpx config.
 */
import { type JsonHost, readServers } from "./json-host.js";
import { ENV_FILE_LEFT_OUT, OAUTH_LEFT_OUT } from "./notes.js";
import { type InputVariable, inputEnvName } from "./placeholders.js";
import { type HostDefinition, isObject, type Json, type ReadContext } from "./read.js";
import type { KeyPath } from "./report.js";

const host: JsonHost = {
  name: "VS Code",
  urlKeys: ["url"],
  types: { stdio: null, http: null, sse: "http+sse" },
  extra: {
    envFile: ENV_FILE_LEFT_OUT,
    oauth: OAUTH_LEFT_OUT,
    dev: "development mode (watch, debug) is VS Code's own; left out",
    sandboxEnabled: "sandboxing is VS Code's own; left out",
    sandbox: "sandboxing is VS Code's own; left out",
    gallery: "VS Code's gallery record; left out",
    version: "VS Code's gallery record; left out",
  },
};

export const vscode: HostDefinition = {
  format: "vscode",
  label: "VS Code",
  bareEnv: false,
  read(doc, ctx) {
    if (!isObject(doc)) return undefined;
    // mcp.json has the keys at the top; settings.json under "mcp".
    const [base, at]: [Json, KeyPath] =
      isObject(doc.mcp) && doc.servers === undefined ? [doc.mcp, ["mcp"]] : [doc, []];
    if (!isObject(base.servers)) return undefined;
    if (base.inputs !== undefined) ctx.rules.inputs = readInputs(base.inputs, [...at, "inputs"], ctx);
    return readServers(base.servers, [...at, "servers"], host, ctx);
  },
};

function readInputs(value: unknown, at: KeyPath, ctx: ReadContext): Map<string, InputVariable> {
  const inputs = new Map<string, InputVariable>();
  if (!Array.isArray(value)) {
    ctx.report.warn(at, "is not an array; left out");
    return inputs;
  }
  value.forEach((raw, i) => {
    const here = [...at, i];
    if (!isObject(raw) || typeof raw.id !== "string" || raw.id === "") {
      ctx.report.warn(here, 'has no "id"; left out');
      return;
    }
    const env = inputEnvName(raw.id);
    const password = raw.password === true;
    const input: InputVariable = { env, password };
    if (typeof raw.default === "string" && !password) input.default = raw.default;
    inputs.set(raw.id, input);
    const what = typeof raw.description === "string" ? ` (${raw.description})` : "";
    const how =
      raw.type === "command"
        ? "VS Code runs a command for"
        : raw.type === "pickString" || raw.type === "promptString"
          ? "VS Code asks for"
          : `VS Code's ${JSON.stringify(raw.type)} input gives`;
    ctx.report.warn(
      here,
      `${how} "${raw.id}"${what}; mcpx reads it from \${env:${env}}: set ${env} where mcpx runs`,
    );
  });
  return inputs;
}
