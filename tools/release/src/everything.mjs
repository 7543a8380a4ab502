/**
 * The workspace's copy of @modelcontextprotocol/server-everything (examples/upstreams depends on it),
 * so the release checks run a real MCP server without fetching one.
 */
import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { REPO } from "./workspace.mjs";

const NAME = "@modelcontextprotocol/server-everything";

/** Its entry point, to run as `node <entry> stdio`. */
export function everythingEntry() {
  return createRequire(path.join(REPO, "examples/upstreams/package.json")).resolve(`${NAME}/dist/index.js`);
}

/** Its package folder (the real one, whose dependencies resolve beside it). */
export function everythingDir() {
  return realpathSync(path.resolve(everythingEntry(), "..", ".."));
}

export const EVERYTHING = NAME;
