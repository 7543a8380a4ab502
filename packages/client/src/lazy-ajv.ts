/**
 * ajv, loaded when something is first validated rather than when mcpx starts: its load and first
 * compile cost a daemon megabytes and a one-shot command a good part of its start. It is CommonJS,
 * so require loads it on demand, synchronously, where a validator is asked for.
 */
import { createRequire } from "node:module";
import type * as AjvModule from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";

const require = createRequire(import.meta.url);

export const loadAjv = (): typeof AjvModule => require("ajv") as typeof AjvModule;
export const loadAjv2020 = (): typeof Ajv2020 =>
  (require("ajv/dist/2020.js") as { Ajv2020: typeof Ajv2020 }).Ajv2020;
