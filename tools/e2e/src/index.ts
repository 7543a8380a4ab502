export * from "./cli-harness.js";
export * from "./daemon-harness.js";
export * from "./everything.js";
export * from "./gateway-harness.js";
export * from "./harness.js";
export * from "./http-harness.js";
export * from "./modern.js";
export * from "./requirements.js";
