export { defaultHandler } from "./default-handlers.js";
export { MODERN, metaVersion, PROTOCOL_VERSION_KEY, revisionOfFrame } from "./frame-revision.js";
export {
  type AnswerMode,
  type HttpRecord,
  type HttpScript,
  type HttpScriptOptions,
  httpScript,
  type RawAnswer,
} from "./http-front.js";
export { endListen, type Listen, listenNotify, openListen, SUBSCRIPTION_ID_KEY } from "./listen.js";
export { mirrorProblems } from "./mirror-check.js";
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
export { type SseRecord, type SseScript, type SseScriptOptions, sseScript } from "./sse-front.js";
export { formatEvent, type LoggedEvent, SseStream } from "./sse-writer.js";
export { type StdioScript, stdioScript } from "./stdio-front.js";
export { strictValidate } from "./strict.js";
export {
  assertNoInvalidFrames,
  assertNoStaleOptOuts,
  type CheckedServer,
  InvalidFramesError,
  invalidFramesReport,
  registerServer,
  staleOptOutsReport,
} from "./strict-check.js";
