export { BrowserLogins, LOGIN_TIMEOUT_MS, type LoginStarted, signInConfig } from "./browser-login.js";
export {
  BUILTIN_AUTH_TYPES,
  BUILTIN_NAMES,
  BUILTIN_SOURCE,
  BUILTIN_TRANSPORTS,
  LAZY_BUILTINS,
  type LazyBuiltin,
  loadBuiltinPlugins,
} from "./builtins.js";
export { ConfigRejectedError, Reloader, type ReloadOutcome, type ReloadTrigger } from "./reload.js";
export {
  applyMissingBuiltins,
  applyPlugins,
  loadRuntime,
  type Runtime,
  type RuntimeOptions,
} from "./runtime.js";
export { ListenError, type ServeOptions, type Serving, serve, VERSION } from "./serve.js";
export { type StdioOptions, type StdioServing, serveStdio } from "./stdio.js";
