/**
 * The parsers of other hosts' configs and the editor of mcpx.json, loaded when a config is imported
 * or edited (`mcpx config import`, `mcpx config add`), not whenever @mcpx/config is: a daemon never
 * uses them. Both have a CommonJS build, which require loads on demand.
 */
import { createRequire } from "node:module";
import type * as JsoncParser from "jsonc-parser";
import type * as SmolToml from "smol-toml";

const require = createRequire(import.meta.url);

export const jsoncParser = (): typeof JsoncParser => require("jsonc-parser") as typeof JsoncParser;
export const tomlParser = (): typeof SmolToml => require("smol-toml") as typeof SmolToml;
