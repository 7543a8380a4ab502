export * from "./harness.js";
export * from "./requirements.js";
