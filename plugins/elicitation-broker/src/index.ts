/**
 * @mcpx/elicitation-broker: elicitations an upstream asks mcpx, held by the daemon and answered from
 * the CLI (`mcpx elicit list | answer | watch`). Registers the handler and the control routes.
 */
import { definePlugin } from "@mcpx/core";
import { type BrokerOptions, DEFAULT_BROKER_OPTIONS, ElicitationBroker } from "./broker.js";
import { brokerRoutes } from "./routes.js";

export {
  ANSWER_CHANNEL,
  ANSWER_SPACE,
  type Answer,
  type BrokerEvent,
  type BrokerOptions,
  DEFAULT_BROKER_OPTIONS,
  ELICITATION_SPACE,
  ElicitationBroker,
  type PendingElicitation,
  PRESENCE_SPACE,
  type SettledElicitation,
} from "./broker.js";
export { brokerRoutes } from "./routes.js";

export const PLUGIN_NAME = "@mcpx/elicitation-broker";

export default definePlugin<Partial<BrokerOptions>>({
  name: PLUGIN_NAME,
  apiVersion: 1,
  optionsSchema: {
    type: "object",
    additionalProperties: false,
    properties: {
      holdWithoutWatcher: {
        type: "boolean",
        default: DEFAULT_BROKER_OPTIONS.holdWithoutWatcher,
        description: "Hold questions for an answer even when nobody is attached (default: cancel at once)",
      },
      timeoutMs: {
        type: "integer",
        minimum: 1,
        default: DEFAULT_BROKER_OPTIONS.timeoutMs,
        description: "How long a question waits for an answer before it is cancelled",
      },
      keepSettled: {
        type: "integer",
        minimum: 0,
        default: DEFAULT_BROKER_OPTIONS.keepSettled,
        description: "How many settled questions `mcpx elicit list` keeps showing",
      },
    },
  },
  apply(host, options) {
    const broker = new ElicitationBroker(
      options,
      (event) => host.emit(event),
      () => host.store(),
    );
    host.registerElicitationHandler(broker.handler(PLUGIN_NAME));
    for (const route of brokerRoutes(broker)) host.registerControlRoute(route);
  },
});
