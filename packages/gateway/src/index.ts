export { Catalog, CHANGED, type ListKind, type Route } from "./catalog.js";
export { CONSOLE_CSP, type ConsoleOptions, createConsoleHandler } from "./control/console-files.js";
export { type ControlOptions, createControlHandler } from "./control/control-api.js";
export { createHealthHandler, type HealthOptions, type Readiness, readiness } from "./control/health.js";
export { builtinRoutes, type DaemonInfo } from "./control/routes.js";
export { UnknownUpstreamError } from "./control/unknown-upstream.js";
export { Dispatcher, type DispatcherOptions } from "./dispatcher.js";
export { ERA_SPACE, FileEraStore, type StoredEra, StoreEraStore } from "./era-store.js";
export { EventLog, type NumberedEvent } from "./event-log.js";
export {
  asCall,
  type ForwardingHandlers,
  forwardingHandlers,
  peerElicits,
  peerSamples,
} from "./forwarding.js";
export { Gateway, type GatewayOptions, MCPX_SERVER_INFO, RELAYED_EXTENSIONS } from "./gateway.js";
export { DEFAULT_INPUT_TTL_MS, InputBridge } from "./input-bridge.js";
export { Namespaces, type Owned, SEPARATOR, SKILL_SCHEME, URI_SCHEME } from "./namespaces.js";
export { page } from "./paging.js";
export {
  Pool,
  type PoolEnvironment,
  type PoolOptions,
  UpstreamRetiredError,
  type UpstreamState,
  type UpstreamStatus,
} from "./pool.js";
export { ClientRequests, type FrameWriter } from "./server/client-requests.js";
export { headerReader, ParamHeaderIndex } from "./server/http/headers-check.js";
export {
  createMcpHttpHandler,
  type HttpHandler,
  type HttpServerOptions,
  type McpHttpHandler,
  type McpHttpOptions,
  type RunningHttpServer,
  startHttpServer,
} from "./server/http/http-server.js";
export { type ProxyOptions, proxyToHolder, ReplicaUnreachableError } from "./server/http/proxy.js";
export {
  authHash,
  HOP_HEADER,
  REPLICA_SPACE,
  type ReplicaLiveness,
  type ReplicaOptions,
  Replicas,
  SESSION_SPACE,
  type SessionRecord,
} from "./server/http/replicas.js";
export { authContextOf, isLoopbackHost, type SecurityOptions } from "./server/http/security.js";
export { acknowledgement, type ListenFilter, parseFilter, tagged, wants } from "./server/listen.js";
export { type ListenOwner, type OpenListen, openListen } from "./server/listen-peer.js";
export type { CallContext, Peer } from "./server/peer.js";
export { type ServerIdentity, ServerProtocol } from "./server/protocol.js";
export { ServedRevisions } from "./server/served.js";
export { StdioServer, type StdioServerOptions } from "./server/stdio.js";
export { GatewaySkills } from "./skills.js";
export { ResourceSubscriptions } from "./subscriptions.js";
export { TaskRelay } from "./task-relay.js";
export {
  DEFAULT_MAX_TASK_ROUTES,
  DEFAULT_MAX_TASK_TTL_MS,
  type TaskRoute,
  TaskRoutes,
  type TaskRoutesOptions,
} from "./task-routes.js";
export { toolFilter } from "./tool-filter.js";
export { upstreamTarget } from "./upstream-target.js";
