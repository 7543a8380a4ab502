/**
 * ajv, loaded when something must first be validated (CommonJS: require loads it on demand): its
 * load and a compile cost a daemon ~6 MiB and a one-shot command ~0.5 s of CPU, so a config that
 * needs no check never pays them.
 */
import { createRequire } from "node:module";
import type { Ajv } from "ajv";

export function loadAjv(): typeof Ajv {
  return (createRequire(import.meta.url)("ajv") as { Ajv: typeof Ajv }).Ajv;
}
