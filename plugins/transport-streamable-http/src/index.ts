import { definePlugin, type TransportFactory } from "@mcpx/core";
import { StreamableHttpTransport } from "./streamable-http-transport.js";

export { STREAMABLE_HTTP_CAPABILITIES, StreamableHttpTransport } from "./streamable-http-transport.js";

export const streamableHttpTransport: TransportFactory = {
  kind: "streamable-http",
  reaches: "url",
  accepts: (target) => typeof target.url === "string" && /^https?:\/\//i.test(target.url),
  create: (target, ctx) => new StreamableHttpTransport(target, ctx),
};

export default definePlugin({
  name: "@mcpx/transport-streamable-http",
  apiVersion: 1,
  apply(host) {
    host.registerTransport(streamableHttpTransport);
  },
});
