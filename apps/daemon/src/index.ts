export { BUILTIN_SOURCE, builtinPlugins } from "./builtins.js";
export { applyPlugins, loadRuntime, type Runtime, type RuntimeOptions } from "./runtime.js";
export { type ServeOptions, type Serving, serve, VERSION } from "./serve.js";
export { type StdioOptions, serveStdio } from "./stdio.js";
