import type { ValidateFunction } from "ajv";

/** The config schema's validator, generated at build time (scripts/config-validator.ts). */
export declare const validate: ValidateFunction;
export default validate;
