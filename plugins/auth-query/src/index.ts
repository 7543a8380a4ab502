/**
 * The auth scheme "query": `{ "type": "query", "params": { "api_key": "${env:KEY}" } }` (or one
 * `{ "name", "value" }`) adds credentials to the URL's query string. The MCP authorization spec forbids
 * access tokens in a query string; this exists for services that accept nothing else, and sends one
 * only because a config declares it.
 */
import {
  type AuthEffect,
  type AuthScheme,
  type AuthTarget,
  ConfigError,
  definePlugin,
  formatKeyPath,
  type JSONObject,
} from "@mcpx/core";

export type QueryAuth = { name: string; value: string } | { params: Record<string, string> };

export const queryScheme: AuthScheme = {
  type: "query",
  optionsSchema: {
    type: "object",
    properties: {
      name: { type: "string", minLength: 1, description: "The parameter's name (with `value`)" },
      value: { type: "string", description: "The parameter's value (with `name`)" },
      params: {
        type: "object",
        additionalProperties: { type: "string" },
        minProperties: 1,
        description: "Several parameters, by name",
      },
    },
    oneOf: [{ required: ["params"] }, { required: ["name"] }],
    dependencies: { name: ["value"], value: ["name"] },
    additionalProperties: false,
  },
  apply(options: JSONObject, target: AuthTarget): AuthEffect {
    const auth = options as unknown as QueryAuth;
    if (target.url === undefined) {
      throw new ConfigError(
        `${at(target)}: type "query" adds to a URL, and ${target.name} is a command server (give a child its credentials with type "env")`,
      );
    }
    const query = "params" in auth ? { ...auth.params } : { [auth.name]: auth.value };
    if ("" in query) {
      throw new ConfigError(`${at(target, "params")}: a parameter name must not be empty`);
    }
    return { query };
  },
};

function at(target: AuthTarget, ...keys: string[]): string {
  return formatKeyPath(["servers", target.name, "auth", ...keys]);
}

export default definePlugin({
  name: "@mcpx/auth-query",
  apiVersion: 1,
  apply(host) {
    host.registerAuthScheme(queryScheme);
  },
});
