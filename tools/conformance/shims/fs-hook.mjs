/**
 * The resolve hook registered by node20.mjs: "fs" and "node:fs", imported by the conformance suite's
 * own modules, resolve to fs-with-glob.mjs. Everyone else (the shim itself included) gets node:fs.
 */
const SHIM = new URL("./fs-with-glob.mjs", import.meta.url).href;
const SUITE = "/@modelcontextprotocol/conformance/";

export async function resolve(specifier, context, next) {
  if ((specifier === "fs" || specifier === "node:fs") && context.parentURL?.includes(SUITE)) {
    return { url: SHIM, shortCircuit: true };
  }
  return next(specifier, context);
}
