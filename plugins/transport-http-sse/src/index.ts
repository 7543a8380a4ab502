import { definePlugin, type TransportFactory } from "@mcpx/core";
import { HttpSseTransport } from "./http-sse-transport.js";

export { HTTP_SSE_CAPABILITIES, HttpSseTransport } from "./http-sse-transport.js";

export const httpSseTransport: TransportFactory = {
  kind: "http+sse",
  reaches: "url",
  // Never chosen for a URL by itself: Streamable HTTP is the default, and HTTP+SSE is reached by a
  // transport pin or by the era probe's fallback (a bare 400/404/405 to both POSTs).
  accepts: () => false,
  fallbackFor: "streamable-http",
  create: (target, ctx) => new HttpSseTransport(target, ctx),
};

export default definePlugin({
  name: "@mcpx/transport-http-sse",
  apiVersion: 1,
  apply(host) {
    host.registerTransport(httpSseTransport);
  },
});
