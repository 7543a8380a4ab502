/**
 * The auth scheme "bearer": `{ "type": "bearer", "token": "${env:API_TOKEN}" }` sends
 * `Authorization: Bearer <token>` on every request to the configured origin (RFC 6750 §2.1).
 */
import {
  type AuthEffect,
  type AuthScheme,
  type AuthTarget,
  authHeaderValueProblem,
  ConfigError,
  definePlugin,
  formatKeyPath,
  type JSONObject,
} from "@mcpx/core";

export interface BearerAuth {
  token: string;
}

export const bearerScheme: AuthScheme = {
  type: "bearer",
  optionsSchema: {
    type: "object",
    properties: { token: { type: "string", minLength: 1, description: "The token, without `Bearer `" } },
    required: ["token"],
    additionalProperties: false,
  },
  apply(options: JSONObject, target: AuthTarget): AuthEffect {
    const { token } = options as unknown as BearerAuth;
    if (target.url === undefined) {
      throw new ConfigError(
        `${at(target)}: type "bearer" sends an HTTP header, and ${target.name} is a command server (give a child its credentials with type "env")`,
      );
    }
    if (/^bearer\s/i.test(token)) {
      throw new ConfigError(`${at(target, "token")}: must be the token alone, without "Bearer "`);
    }
    const problem = /\s/.test(token)
      ? "must be one token, without spaces or line breaks"
      : authHeaderValueProblem(token);
    if (problem) throw new ConfigError(`${at(target, "token")}: ${problem}`);
    return { headers: { Authorization: `Bearer ${token}` } };
  },
};

function at(target: AuthTarget, ...keys: string[]): string {
  return formatKeyPath(["servers", target.name, "auth", ...keys]);
}

export default definePlugin({
  name: "@mcpx/auth-bearer",
  apiVersion: 1,
  apply(host) {
    host.registerAuthScheme(bearerScheme);
  },
});
