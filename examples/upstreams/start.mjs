// `pnpm start`: server-everything over Streamable HTTP on 127.0.0.1:3001 (the example's HTTP
// upstream), then `mcpx serve --config examples/mcpx.json`; stopping mcpx stops both.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const http = spawn(process.execPath, [here("./everything.mjs"), "streamableHttp"], {
  env: { ...process.env, PORT: process.env.EVERYTHING_PORT ?? "3001" },
  stdio: ["ignore", "ignore", "inherit"],
});
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
