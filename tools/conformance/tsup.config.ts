import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/client-adapter.ts", "src/run-client.ts", "src/fixture-server.ts", "src/run-server.ts"],
  external: [/^@mcpx\//],
  format: ["esm"],
  sourcemap: true,
  clean: true,
  target: "node20",
});
