export { envOf, importHostConfig, importHostFile } from "./convert.js";
export { type MergeOptions, type MergeResult, mergeServers, removeServer, serversOf } from "./edit.js";
export { newServerEntry, type ServerParts } from "./entry.js";
export { formatFromPath, formatFromShape, HOST_LABELS } from "./formats.js";
export { findHostConfigs, type HostConfigFile, hostConfigPaths, type LocateOptions } from "./locations.js";
export { isNamespace, toNamespace } from "./names.js";
export { type StarterOptions, starterConfig } from "./starter.js";
export {
  HOST_FORMATS,
  type HostFormat,
  type ImportOptions,
  type ImportResult,
  type ImportWarning,
} from "./types.js";
