// Runs @modelcontextprotocol/server-everything in the mode given (stdio, streamableHttp, sse). Its HTTP
// modes listen on every interface at PORT; this binds them to 127.0.0.1 instead.
import { createRequire } from "node:module";
import net from "node:net";

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === "number" || (typeof args[0] === "string" && /^\d+$/.test(args[0]))) {
    const callback = args.find((a) => typeof a === "function");
    return listen.call(this, Number(args[0]), "127.0.0.1", callback);
  }
  return listen.apply(this, args);
};

const entry = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");
process.argv[2] ??= "stdio";
await import(entry);
