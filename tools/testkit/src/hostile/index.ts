export { type AskedQuestion, type HostileOptions, HostileServer, type Wire } from "./hostile-server.js";
export { type HostileHttp, type HostileHttpRecord, hostileHttp } from "./http.js";
export {
  GARBAGE_KINDS,
  type GarbageKind,
  type HostileMode,
  MALICIOUS_TOOLS,
  type MaliciousTool,
  SERVER_REQUEST_KINDS,
  type ServerRequestKind,
  SSE_DEFECTS,
  type SseDefect,
} from "./modes.js";
export { type HostileStdio, hostileMainPath, hostileStdio } from "./stdio.js";
