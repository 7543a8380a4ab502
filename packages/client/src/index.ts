export {
  type ClientEnvironment,
  MCPX_CLIENT_INFO,
  type NotificationListener,
  UpstreamClient,
  type UpstreamClientOptions,
} from "./connection.js";
export { answerElicitation, fillDefaults } from "./elicitation.js";
export { RequestEngine, type RequestOptions } from "./engine.js";
export { type ClientHandlers, installedHandlers, NO_HANDLERS } from "./handlers.js";
export { collect, MAX_PAGES, pages } from "./pagination.js";
export { resultKind } from "./results.js";
