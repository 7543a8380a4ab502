// Preloaded into a peer that has no option for its address (supergateway listens on every interface):
// a listen given only a port binds 127.0.0.1, so nothing the bench starts is reachable off the machine.
const net = require("node:net");
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === "number" || (typeof args[0] === "string" && /^\d+$/.test(args[0]))) {
    const cb = typeof args[args.length - 1] === "function" ? args.pop() : undefined;
    return listen.call(this, { port: Number(args[0]), host: "127.0.0.1" }, cb);
  }
  return listen.apply(this, args);
};
