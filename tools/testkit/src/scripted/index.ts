export { defaultHandler } from "./default-handlers.js";
export { MODERN, metaVersion, PROTOCOL_VERSION_KEY, revisionOfFrame } from "./frame-revision.js";
export { endListen, type Listen, listenNotify, openListen, SUBSCRIPTION_ID_KEY } from "./listen.js";
export { relayPath } from "./relay-path.js";
export {
  type Answer,
  type Frame,
  type Handler,
  type HandlerContext,
  type Id,
  NO_ANSWER,
  type NotificationHandler,
  type Received,
  ScriptedServer,
  type ScriptedServerOptions,
  type Validate,
} from "./server.js";
export { type StdioScript, stdioScript } from "./stdio-front.js";
export { strictValidate } from "./strict.js";
