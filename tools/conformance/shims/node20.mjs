/**
 * Preloaded into the official conformance suite (`node --import ./shims/node20.mjs <suite>/dist/index.js`)
 * so it runs on Node 20 and only on loopback, without touching node_modules:
 *
 * - `fs.globSync` is Node 22; the suite imports it from "fs". A resolve hook (module.register) hands
 *   the suite's own modules `fs-with-glob.mjs` instead: node:fs plus a globSync built on tinyglobby.
 * - The suite's scenario servers listen on every interface (`listen(0)`). Every net.Server started in
 *   this process with only a port, or with a wildcard host, listens on 127.0.0.1 instead. Binding
 *   stays synchronous, as it is without a host: the suite reads `server.address().port` on the line
 *   after `listen(0)`, and a listen with a host first resolves it with dns.lookup (asynchronously,
 *   even for an IP literal). So during that one call the lookup of 127.0.0.1 answers at once.
 */
import dns from "node:dns";
import { register } from "node:module";
import net from "node:net";

register("./fs-hook.mjs", import.meta.url);

const LOOPBACK = "127.0.0.1";
const WILDCARD = new Set(["", "0.0.0.0", "::", "[::]", "::0"]);

const isPort = (v) => typeof v === "number" || (typeof v === "string" && /^\d+$/.test(v));

/** The listen arguments with every port-only or wildcard form bound to 127.0.0.1; a path is left alone. */
export function loopbackListenArgs(args) {
  const [first, second, ...rest] = args;
  if (first === undefined || first === null || typeof first === "function") {
    return [0, LOOPBACK, ...args.slice(first === undefined || first === null ? 1 : 0)];
  }
  if (isPort(first)) {
    if (typeof second === "string") return WILDCARD.has(second) ? [first, LOOPBACK, ...rest] : args;
    return [first, LOOPBACK, ...args.slice(1)];
  }
  if (typeof first === "object" && !(first instanceof net.Server) && first.path === undefined) {
    if (first.fd !== undefined || first.handle !== undefined || first._handle !== undefined) return args;
    if (first.host === undefined || WILDCARD.has(first.host))
      return [{ ...first, host: LOOPBACK }, ...args.slice(1)];
  }
  return args;
}

const listen = net.Server.prototype.listen;
const lookup = dns.lookup;
function loopbackNow(hostname, options, callback) {
  if (hostname === LOOPBACK && typeof options === "function") return options(null, LOOPBACK, 4);
  return lookup.call(dns, hostname, options, callback);
}
net.Server.prototype.listen = function listenOnLoopback(...args) {
  dns.lookup = loopbackNow;
  try {
    return listen.apply(this, loopbackListenArgs(args));
  } finally {
    dns.lookup = lookup;
  }
};
