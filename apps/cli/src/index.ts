export { BUILTIN_NAMES, BUILTIN_SOURCE, loadBuiltinPlugins } from "@mcpx/daemon";
export { type CheckOptions, configCheck } from "./commands/config-check.js";
export type { MainIO } from "./io.js";
export { EXIT_CONFIG, EXIT_FAILURE, EXIT_OK, EXIT_UNREACHABLE, EXIT_USAGE, main } from "./main.js";
