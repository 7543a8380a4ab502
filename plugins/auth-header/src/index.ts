/**
 * The auth scheme "header": one header, `{ "type": "header", "name": "X-Api-Key", "value": "${env:KEY}" }`,
 * or several, `{ "type": "header", "headers": { "X-Api-Key": "…", "X-Tenant": "…" } }`, sent on every
 * request to the configured origin. HTTP's own headers and the MCP protocol headers are refused.
 */
import {
  type AuthEffect,
  type AuthScheme,
  type AuthTarget,
  authHeaderNameProblem,
  authHeaderValueProblem,
  ConfigError,
  definePlugin,
  formatKeyPath,
  type JSONObject,
} from "@mcpx/core";

export type HeaderAuth = { name: string; value: string } | { headers: Record<string, string> };

export const headerScheme: AuthScheme = {
  type: "header",
  optionsSchema: {
    type: "object",
    properties: {
      name: { type: "string", description: "The header's name (with `value`)" },
      value: { type: "string", description: "The header's value (with `name`)" },
      headers: {
        type: "object",
        additionalProperties: { type: "string" },
        minProperties: 1,
        description: "Several headers, by name",
      },
    },
    oneOf: [{ required: ["headers"] }, { required: ["name"] }],
    dependencies: { name: ["value"], value: ["name"] },
    additionalProperties: false,
  },
  apply(options: JSONObject, target: AuthTarget): AuthEffect {
    const auth = options as unknown as HeaderAuth;
    if (target.url === undefined) {
      throw new ConfigError(
        `${at(target)}: type "header" sends HTTP headers, and ${target.name} is a command server (give a child its credentials with type "env")`,
      );
    }
    // Each header with the key path that names it in config.
    const entries: [name: string, value: string, path: (part: "name" | "value") => string][] =
      "headers" in auth
        ? Object.entries(auth.headers).map(([name, value]) => [
            name,
            value,
            () => at(target, "headers", name),
          ])
        : [[auth.name, auth.value, (part) => at(target, part)]];
    const problems: string[] = [];
    const headers: Record<string, string> = {};
    const seen = new Set<string>();
    for (const [name, value, path] of entries) {
      const nameProblem = authHeaderNameProblem(name);
      if (nameProblem) {
        problems.push(`${path("name")}: ${nameProblem}`);
        continue;
      }
      if (seen.has(name.toLowerCase())) {
        problems.push(`${path("name")}: names a header already given (header names ignore case)`);
        continue;
      }
      seen.add(name.toLowerCase());
      const valueProblem = authHeaderValueProblem(value);
      if (valueProblem) problems.push(`${path("value")}: ${valueProblem}`);
      else headers[name] = value;
    }
    if (problems.length > 0) throw new ConfigError(problems.join("; "), problems);
    return { headers };
  },
};

function at(target: AuthTarget, ...keys: string[]): string {
  return formatKeyPath(["servers", target.name, "auth", ...keys]);
}

export default definePlugin({
  name: "@mcpx/auth-header",
  apiVersion: 1,
  apply(host) {
    host.registerAuthScheme(headerScheme);
  },
});
