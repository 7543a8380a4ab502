/** @modelcontextprotocol/server-everything in one of its HTTP modes, on 127.0.0.1 and a port the kernel picks. */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { afterThisTest } from "./harness.js";

const require = createRequire(import.meta.url);
const everything = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");
const loopback = fileURLToPath(new URL("../fixtures/loopback-listen.mjs", import.meta.url));

/** Starts it and resolves with its base URL; it is ended (by its pid) after the test. */
export function startEverything(mode: "streamableHttp" | "sse"): Promise<string> {
  const child = spawn(process.execPath, ["--import", loopback, everything, mode], {
    env: { ...process.env, PORT: "0" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  afterThisTest(async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
  });
  return new Promise((resolve, reject) => {
    let err = "";
    const timer = setTimeout(() => reject(new Error(`server-everything did not start: ${err}`)), 15_000);
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      err += chunk;
      const port = /mcpx-test-listening (\d+)/.exec(err)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${port}`);
      }
    });
    child.once("exit", (code) => reject(new Error(`server-everything exited with ${code}: ${err}`)));
  });
}
