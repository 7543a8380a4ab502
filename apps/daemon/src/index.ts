export { BUILTIN_SOURCE, builtinPlugins } from "./builtins.js";
export { loadRuntime, type Runtime, type RuntimeOptions } from "./runtime.js";
