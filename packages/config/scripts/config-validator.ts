/**
 * The config's validator as code, written at build time (ajv's standalone generation) so that
 * loading a config compiles no schema: ajv's compile of this schema costs ~9 MiB of a daemon's
 * memory, the generated module under 1 MiB. tsup.config.ts writes it to src/generated/ on every
 * build, and a test checks the committed file is what the schema generates.
 */
import { Ajv } from "ajv";
import standalone from "ajv/dist/standalone/index.js";
import { configSchema } from "../src/schema.js";

export const GENERATED_VALIDATOR = new URL("../src/generated/config-validator.js", import.meta.url);

export function configValidatorCode(): string {
  const ajv = new Ajv({
    allErrors: true,
    verbose: true,
    allowUnionTypes: true,
    strictTuples: false,
    code: { source: true, esm: true },
  });
  // CommonJS whose module.exports is the function, with itself as .default: typed as the latter.
  const code = standalone.default(ajv, ajv.compile(configSchema));
  // ajv's ESM output still require()s its runtime helper for string lengths: an import instead (a
  // CommonJS module: Node gives its module.exports, a bundler's interop may give exports.default).
  const helper = 'require("ajv/dist/runtime/ucs2length").default';
  return [
    "// Generated from src/schema.ts by scripts/config-validator.ts (the build writes it): do not edit.",
    'import ucs2length from "ajv/dist/runtime/ucs2length.js";',
    code.replace(/^"use strict";/, "").replaceAll(helper, "(ucs2length.default ?? ucs2length)"),
    "",
  ].join("\n");
}
