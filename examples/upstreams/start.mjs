// `pnpm start`: server-everything over Streamable HTTP on 127.0.0.1:3001 (the example's HTTP
// upstream), then, once it listens, `mcpx serve --config examples/mcpx.json`; stopping mcpx stops both.
import { spawn } from "node:child_process";
import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const port = Number(process.env.EVERYTHING_PORT ?? "3001");
const http = spawn(process.execPath, [here("./everything.mjs"), "streamableHttp"], {
  env: { ...process.env, PORT: String(port) },
  stdio: ["ignore", "ignore", "inherit"],
});

/** True once something accepts connections on 127.0.0.1:port. */
const listening = () =>
  new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

// mcpx would connect anyway (it retries with backoff), but a first run should not open on a refused
// connection: wait for the upstream, up to 15 s.
for (let waited = 0; waited < 15_000 && http.exitCode === null && !(await listening()); waited += 100) {
  await sleep(100);
}
const mcpx = spawn(
  process.execPath,
  [here("../../apps/cli/dist/bin.js"), "serve", "--config", here("../mcpx.json"), ...process.argv.slice(2)],
  { stdio: "inherit" },
);
const stop = () => {
  mcpx.kill("SIGTERM");
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
mcpx.on("exit", (code) => {
  http.kill("SIGTERM");
  process.exitCode = code ?? 0;
});
