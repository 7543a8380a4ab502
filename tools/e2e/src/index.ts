export * from "./harness.js";
export * from "./modern.js";
export * from "./requirements.js";
