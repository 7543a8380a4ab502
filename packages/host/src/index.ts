export { createHost, type Host } from "./host.js";
export { createLogger, type LoggerOptions, redact } from "./log.js";
export { MemoryStore } from "./memory-store.js";
export {
  expandSecrets,
  type Redactor,
  redactError,
  redactorOf,
  redactValue,
  secretForms,
} from "./redaction.js";
export { Registry } from "./registry.js";
export { describeSchemaErrors } from "./schema-errors.js";
export { createStore, storeFactoryFor } from "./store-select.js";
