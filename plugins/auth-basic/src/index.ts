/**
 * The auth scheme "basic": `{ "type": "basic", "username": "me", "password": "${env:PASSWORD}" }`
 * sends `Authorization: Basic base64(username:password)` on every request to the configured origin
 * (RFC 7617, UTF-8).
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

export interface BasicAuth {
  username: string;
  password: string;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROL = /[\x00-\x1f\x7f]/;

export const basicScheme: AuthScheme = {
  type: "basic",
  optionsSchema: {
    type: "object",
    properties: {
      username: { type: "string", description: "The user id; it cannot contain a colon" },
      password: { type: "string", description: "The password" },
    },
    required: ["username", "password"],
    additionalProperties: false,
  },
  apply(options: JSONObject, target: AuthTarget): AuthEffect {
    const { username, password } = options as unknown as BasicAuth;
    if (target.url === undefined) {
      throw new ConfigError(
        `${at(target)}: type "basic" sends an HTTP header, and ${target.name} is a command server (give a child its credentials with type "env")`,
      );
    }
    const problems: string[] = [];
    if (username.includes(":")) {
      problems.push(
        `${at(target, "username")}: must not contain ":" (Basic authentication ends the user name at the first colon, RFC 7617)`,
      );
    }
    for (const [key, value] of [
      ["username", username],
      ["password", password],
    ] as const) {
      if (CONTROL.test(value)) problems.push(`${at(target, key)}: must not contain control characters`);
    }
    if (username === "" && password === "")
      problems.push(`${at(target)}: username and password are both empty`);
    if (problems.length > 0) throw new ConfigError(problems.join("; "), problems);
    const credentials = Buffer.from(`${username}:${password}`, "utf8").toString("base64");
    return { headers: { Authorization: `Basic ${credentials}` } };
  },
};

function at(target: AuthTarget, ...keys: string[]): string {
  return formatKeyPath(["servers", target.name, "auth", ...keys]);
}

export default definePlugin({
  name: "@mcpx/auth-basic",
  apiVersion: 1,
  apply(host) {
    host.registerAuthScheme(basicScheme);
  },
});
