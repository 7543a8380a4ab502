/** An auth scheme turns a server's `auth` config into headers, environment or query parameters. */
import type { JSONObject } from "./jsonrpc.js";

export interface AuthEffect {
  /** Sent on every HTTP request to the configured origin, never to another. */
  headers?: Record<string, string>;
  /** Added to a stdio child's environment. */
  env?: Record<string, string>;
  /** Added to the URL's query string (only when a config declares it: tokens do not belong there). */
  query?: Record<string, string>;
}

export interface AuthTarget {
  name: string;
  url?: string;
  command?: string;
}

export interface AuthScheme {
  /** The `auth.type` this scheme answers to. */
  readonly type: string;
  /** JSON Schema of the rest of the `auth` object, checked before apply. */
  readonly optionsSchema?: JSONObject;
  apply(options: JSONObject, target: AuthTarget): AuthEffect | Promise<AuthEffect>;
}
