/**
 * The auth scheme "env": `{ "type": "env", "env": { "API_KEY": "${env:API_KEY}" } }` (or `vars`)
 * puts credentials in a stdio server's environment, over the server's own `env`. It applies only
 * to command servers: a URL server has no environment to give.
 */
import {
  type AuthEffect,
  type AuthScheme,
  type AuthTarget,
  ConfigError,
  definePlugin,
  envNameProblem,
  envValueProblem,
  formatKeyPath,
  type JSONObject,
} from "@mcpx/core";

export type EnvAuth = { env: Record<string, string> } | { vars: Record<string, string> };

const variables = {
  type: "object",
  additionalProperties: { type: "string" },
  minProperties: 1,
};

export const envScheme: AuthScheme = {
  type: "env",
  optionsSchema: {
    type: "object",
    properties: {
      env: { ...variables, description: "Variables added to the child's environment, by name" },
      vars: { ...variables, description: "The same as `env`" },
    },
    oneOf: [{ required: ["env"] }, { required: ["vars"] }],
    additionalProperties: false,
  },
  apply(options: JSONObject, target: AuthTarget): AuthEffect {
    const auth = options as unknown as EnvAuth;
    if (target.command === undefined) {
      throw new ConfigError(
        `${at(target)}: type "env" sets a child process's environment, and ${target.name} is a URL server (use bearer, basic, header or query)`,
      );
    }
    const key = "env" in auth ? "env" : "vars";
    const vars = "env" in auth ? auth.env : auth.vars;
    const problems: string[] = [];
    for (const [name, value] of Object.entries(vars)) {
      const problem = envNameProblem(name) ?? envValueProblem(value);
      if (problem) problems.push(`${at(target, key, name)}: ${problem}`);
    }
    if (problems.length > 0) throw new ConfigError(problems.join("; "), problems);
    return { env: { ...vars } };
  },
};

function at(target: AuthTarget, ...keys: string[]): string {
  return formatKeyPath(["servers", target.name, "auth", ...keys]);
}

export default definePlugin({
  name: "@mcpx/auth-env",
  apiVersion: 1,
  apply(host) {
    host.registerAuthScheme(envScheme);
  },
});
