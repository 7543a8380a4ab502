/**
 * The state store "redis": `"store": { "type": "redis", "url": "${env:REDIS_URL}" }` keeps mcpx's
 * shared state (era records, OAuth grants, session holders, elicitations) in Redis, so that every
 * replica of a gateway sees it. Entries are `<prefix>:<space>:<key>` holding JSON; channels are
 * `<prefix>:ch:<channel>` on a second connection (a subscribed Redis connection takes no other
 * command).
 *
 * ioredis is imported when a store is made, not when the plugin is applied: an mcpx without a Redis
 * store never loads it.
 */
import { definePlugin, type JSONObject, type Plugin, type StoreFactory } from "@mcpx/core";
import { connectRedisStore, type RedisStoreOptions } from "./store.js";

export { redactUrl } from "./redact.js";
export {
  connectRedisStore,
  DEFAULT_CONNECT_TIMEOUT_MS,
  RedisStore,
  type RedisStoreOptions,
} from "./store.js";

export const PLUGIN_NAME = "@mcpx/store-redis";

export const optionsSchema: JSONObject = {
  type: "object",
  properties: {
    url: {
      type: "string",
      pattern: "^rediss?://",
      description: "redis://[user:password@]host:port[/db], or rediss:// for TLS",
    },
    prefix: {
      type: "string",
      minLength: 1,
      pattern: "^[^*?\\[\\]\\\\]+$",
      description:
        'The first part of every key and channel (default "mcpx"): replica sets sharing a Redis differ by it',
    },
    connectTimeoutMs: {
      type: "integer",
      minimum: 1,
      description: "How long connecting may take before it fails (default 5000)",
    },
  },
  required: ["url"],
  additionalProperties: false,
};

export const redisStoreFactory: StoreFactory = {
  type: "redis",
  optionsSchema,
  create: (options, ctx) => connectRedisStore(options as unknown as RedisStoreOptions, ctx.log),
};

const plugin: Plugin = definePlugin({
  name: PLUGIN_NAME,
  version: "0.1.0",
  apiVersion: 1,
  apply(host) {
    host.registerStore(redisStoreFactory);
  },
});

export default plugin;
