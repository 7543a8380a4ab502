export {
  type AppliedAuth,
  type AuthConfig,
  type AuthPlace,
  applyAuth,
  checkAuth,
  OAUTH_NOT_AVAILABLE,
} from "./auth.js";
export { ResultCache } from "./cache.js";
export { type ConnectOptions, connectUpstream, targetFingerprint } from "./connect.js";
export {
  type ClientEnvironment,
  MCPX_CLIENT_INFO,
  type NotificationListener,
  UpstreamClient,
  type UpstreamClientOptions,
} from "./connection.js";
export { answerElicitation, fillDefaults } from "./elicitation.js";
export { RequestEngine, type RequestOptions } from "./engine.js";
export { type EraStore, MemoryEraStore } from "./era-store.js";
export {
  type ClientHandlers,
  elicitationHandlerFor,
  installedHandlers,
  listRoots,
  NO_HANDLERS,
  samplingHandlerFor,
} from "./handlers.js";
export { collect, MAX_PAGES, pages } from "./pagination.js";
export { ListedToolHeaders } from "./param-headers.js";
export { type HandshakeOptions, isModernError, probeEra } from "./probe.js";
export { resultKind } from "./results.js";
export { type InvalidSkillEntry, partitionEntries } from "./skill-entries.js";
export { frontmatterDifferences, parseSkillMarkdown, type SkillMarkdown } from "./skill-frontmatter.js";
export { type LoadedSkill, type SkillFile, type SkillListing, SkillsClient } from "./skills.js";
export { type SubscriptionFilter, Subscriptions } from "./subscriptions.js";
export {
  DEFAULT_POLL_INTERVAL_MS,
  type FollowTaskOptions,
  followTask,
  type TaskPoller,
} from "./tasks.js";
