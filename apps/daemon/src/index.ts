export { BrowserLogins, LOGIN_TIMEOUT_MS, type LoginStarted, signInConfig } from "./browser-login.js";
export { BUILTIN_SOURCE, builtinPlugins } from "./builtins.js";
export { ConfigRejectedError, Reloader, type ReloadOutcome, type ReloadTrigger } from "./reload.js";
export { applyPlugins, loadRuntime, type Runtime, type RuntimeOptions } from "./runtime.js";
export { ListenError, type ServeOptions, type Serving, serve, VERSION } from "./serve.js";
export { type StdioOptions, type StdioServing, serveStdio } from "./stdio.js";
