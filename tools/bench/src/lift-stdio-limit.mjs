// Preloaded into server-everything (node --import): its MCP SDK's stdio ReadBuffer refuses a line
// over 10 MiB, and the bench echoes 16 MiB through every target. The limit is the upstream's, not a
// gateway's, so it is lifted for all of them alike.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const everything = createRequire(import.meta.url).resolve(
  "@modelcontextprotocol/server-everything/package.json",
);
// The ESM build server-everything itself loads (require.resolve names the CJS one).
const cjs = createRequire(everything).resolve("@modelcontextprotocol/sdk/shared/stdio.js");
const { ReadBuffer } = await import(pathToFileURL(cjs.replace("/dist/cjs/", "/dist/esm/")).href);
Object.defineProperty(ReadBuffer.prototype, "_maxBufferSize", {
  get: () => Number.POSITIVE_INFINITY,
  set: () => {},
});
