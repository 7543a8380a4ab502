export { schemeChecks } from "./auth-scheme.js";
export { type Balancer, startBalancer } from "./balancer.js";
export * from "./hostile/index.js";
export type { FrameContext } from "./message-check.js";
export { type RunningRedis, type StartRedisOptions, startRedis } from "./redis.js";
export { INSTALLED, REVISIONS, type StrictRevision, schemaFileOf, strictRevisions } from "./revisions.js";
export * from "./scripted/index.js";
export {
  type ClientFramesOptions,
  checkClientFrames,
  type StrictValidator,
  type ValidatorOptions,
  validatorFor,
} from "./validator.js";
export type { Verdict } from "./verdict.js";
