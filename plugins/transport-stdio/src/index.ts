import { definePlugin, type TransportFactory } from "@mcpx/core";
import { StdioTransport } from "./stdio-transport.js";

export { childEnv } from "./child-env.js";
export { STDIO_CAPABILITIES, StdioTransport } from "./stdio-transport.js";

export const stdioTransport: TransportFactory = {
  kind: "stdio",
  reaches: "command",
  accepts: (target) => typeof target.command === "string" && target.command !== "",
  create: (target, ctx) => new StdioTransport(target, ctx),
};

export default definePlugin({
  name: "@mcpx/transport-stdio",
  apiVersion: 1,
  apply(host) {
    host.registerTransport(stdioTransport);
  },
});
