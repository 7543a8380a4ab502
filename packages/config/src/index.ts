export { type ConfigDiff, diffConfig, isEmptyDiff, RESTART_ONLY_KEYS, type ServerChange } from "./diff.js";
export { type Expansion, expandEnv } from "./env.js";
export * from "./import/index.js";
export { JsonSyntaxError, parseJson } from "./json.js";
export { type ListenOnly, loadListen } from "./listen.js";
export {
  DEFAULT_LISTEN,
  DEFAULT_RELOAD,
  defaultStateDir,
  type Env,
  type LoadOptions,
  loadConfig,
  type ParseOptions,
  parseConfig,
  upstreamSettings,
  withTimeouts,
} from "./load.js";
export { checkPins, type PinRegistry, pinProblems } from "./pins.js";
export {
  DEFAULT_FALLBACK_DIRS,
  importPlugin,
  loadPlugins,
  type PluginLoadOptions,
  resolvePluginFile,
  resolvePlugins,
} from "./plugins.js";
export {
  configSchema,
  HOST_FORMAT_NEEDS,
  HOST_FORMAT_TYPES,
  LOG_LEVELS,
  NAMESPACE_PATTERN,
  REVISION_PATTERN,
  TRANSPORT_PATTERN,
} from "./schema.js";
export { resolveTelemetry } from "./telemetry.js";
export type * from "./types.js";
export { validateConfig } from "./validate.js";
