export { schemeChecks } from "./auth-scheme.js";
export * from "./hostile/index.js";
export type { FrameContext } from "./message-check.js";
export { REVISIONS, type Revision } from "./revisions.js";
export * from "./scripted/index.js";
export {
  type ClientFramesOptions,
  checkClientFrames,
  type StrictValidator,
  validatorFor,
} from "./validator.js";
export type { Verdict } from "./verdict.js";
